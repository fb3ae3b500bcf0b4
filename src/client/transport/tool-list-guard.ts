/**
 * Screens `tools/list` results as they arrive, before the SDK validates them. The SDK validates
 * the listing as a whole, so one bad tool would fail the server's whole listing: a schema nested
 * 100,000 levels deep overflows the stack of its recursive validation, and one tool of the wrong
 * shape (`inputSchema.type: "wat"`, a numeric name) fails its result schema. Each such tool is
 * removed here and reported; the server's other tools stay usable. In order, a tool is dropped
 * when it is not an object, when a schema is over budget (measured first, without recursion),
 * when the SDK's Tool schema rejects it (plus the 2026-07-28 rule that `inputSchema.$schema` is a
 * string: a tool either era would refuse), or when its name is an Object.prototype property.
 */
import { type JSONRPCMessage, specTypeSchemas, type Transport } from '@modelcontextprotocol/client';
import { reservedKeyProblem } from '../tools/definition.js';
import { type ToolSchemaOverBudget, toolSchemaOverBudget } from '../tools/schema-budget.js';
import { interceptIncoming } from './intercept.js';

export interface RejectedTool {
  /** The tool's name when it is a string. */
  name?: string;
  /** How to name it in a message: the quoted name, or its position (`tools[3]`). */
  label: string;
  /** Why it was dropped, naming the field. */
  message: string;
  /** Set when a schema budget was exceeded. */
  over?: ToolSchemaOverBudget;
}

const MAX_LABEL = 128;

function labelOf(name: unknown, index: number): string {
  if (typeof name !== 'string') return `tools[${index}]`;
  const escaped = JSON.stringify(name).slice(1, -1);
  return `'${escaped.length > MAX_LABEL ? `${escaped.slice(0, MAX_LABEL)}…` : escaped}'`;
}

/** The first problem the SDK's Tool schema finds, as `its <field>: <issue>`. */
function shapeProblem(tool: object): string | undefined {
  const result = specTypeSchemas.Tool['~standard'].validate(tool);
  const issue = 'issues' in result ? result.issues?.[0] : undefined;
  if (issue) {
    const field = (issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.');
    return `its ${field || 'definition'}: ${issue.message.slice(0, 200)}`;
  }
  const { $schema } = (tool as { inputSchema: { $schema?: unknown } }).inputSchema;
  return $schema === undefined || typeof $schema === 'string'
    ? undefined
    : 'its inputSchema.$schema: Invalid input: expected string';
}

function rejection(tool: unknown, index: number): RejectedTool | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  const label = labelOf(name, index);
  const named = typeof name === 'string' ? { name, label } : { label };
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool))
    return { ...named, message: 'it is not an object' };
  const over = toolSchemaOverBudget(tool);
  if (over) return { ...named, message: `its ${over.field} ${over.message}`, over };
  const problem = shapeProblem(tool) ?? reservedKeyProblem(name as string);
  return problem ? { ...named, message: problem } : undefined;
}

function screen(message: JSONRPCMessage, onRejected: (tool: RejectedTool) => void): JSONRPCMessage {
  const result = (message as { result?: { tools?: unknown } }).result;
  if (!result || !Array.isArray(result.tools)) return message;
  const kept = result.tools.filter((tool: unknown, index: number) => {
    const rejected = rejection(tool, index);
    if (rejected) onRejected(rejected);
    return !rejected;
  });
  if (kept.length === result.tools.length) return message;
  return { ...message, result: { ...result, tools: kept } } as JSONRPCMessage;
}

/** Installs the screen between the transport and whatever handler the SDK assigns to `onmessage`. */
export function guardToolLists<T extends Transport>(
  transport: T,
  onRejected: (tool: RejectedTool) => void,
): T {
  return interceptIncoming(transport, (message) => screen(message, onRejected));
}
