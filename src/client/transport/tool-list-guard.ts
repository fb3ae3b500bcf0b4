/**
 * Screens `tools/list` results as they arrive, before the SDK validates them. The SDK validates
 * the listing as a whole, so one bad tool would fail the server's whole listing: a schema nested
 * 100,000 levels deep overflows the stack of its recursive validation, and one tool of the wrong
 * shape (`inputSchema.type: "wat"`, a numeric name) fails its result schema. Each such tool is
 * removed here and reported; the server's other tools stay usable. In order, a tool is dropped
 * when it is not an object, when a schema is over budget (measured first, without recursion),
 * when the SDK's Tool schema rejects it (plus the 2026-07-28 rule that `inputSchema.$schema` is a
 * string: a tool either era would refuse), when a 2025-era server's tool has an output schema
 * the 2025 Tool schema refuses (only 2026-07-28 admits roots other than `type: 'object'`), or when
 * its name is an Object.prototype property.
 */
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { issuePath } from '../../shared/schema-issues.js';
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
    const field = issuePath(issue);
    return `its ${field || 'definition'}: ${issue.message.slice(0, 200)}`;
  }
  const { $schema } = (tool as { inputSchema: { $schema?: unknown } }).inputSchema;
  return $schema === undefined || typeof $schema === 'string'
    ? undefined
    : 'its inputSchema.$schema: Invalid input: expected string';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the 2025 Tool schema asks of an `outputSchema` beyond the SDK's era-neutral one: an object
 * schema (`type: 'object'`, `properties` an object, `required` strings). A 2025 SDK server wraps
 * other roots as `{ result }` for such callers; one that does not would fail the whole listing.
 */
function legacyOutputProblem(tool: object): string | undefined {
  const { outputSchema } = tool as { outputSchema?: unknown };
  if (!isRecord(outputSchema)) return undefined;
  const { type, properties, required } = outputSchema;
  if (type !== 'object')
    return `its outputSchema.type: a 2025-era tool's output schema must be an object schema (type 'object'), got ${JSON.stringify(type) ?? 'none'}`;
  if (properties !== undefined && !isRecord(properties))
    return 'its outputSchema.properties: expected an object';
  if (
    required !== undefined &&
    !(Array.isArray(required) && required.every((key) => typeof key === 'string'))
  )
    return 'its outputSchema.required: expected an array of strings';
  return undefined;
}

function rejection(tool: unknown, index: number, legacy: boolean): RejectedTool | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  const label = labelOf(name, index);
  const named = typeof name === 'string' ? { name, label } : { label };
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool))
    return { ...named, message: 'it is not an object' };
  const over = toolSchemaOverBudget(tool);
  if (over) return { ...named, message: `its ${over.field} ${over.message}`, over };
  const problem =
    shapeProblem(tool) ??
    (legacy ? legacyOutputProblem(tool) : undefined) ??
    reservedKeyProblem(name as string);
  return problem ? { ...named, message: problem } : undefined;
}

function screen(
  message: JSONRPCMessage,
  onRejected: (tool: RejectedTool) => void,
  legacy: boolean,
): JSONRPCMessage {
  const result = (message as { result?: { tools?: unknown } }).result;
  if (!result || !Array.isArray(result.tools)) return message;
  const kept = result.tools.filter((tool: unknown, index: number) => {
    const rejected = rejection(tool, index, legacy);
    if (rejected) onRejected(rejected);
    return !rejected;
  });
  if (kept.length === result.tools.length) return message;
  return { ...message, result: { ...result, tools: kept } } as JSONRPCMessage;
}

/**
 * Installs the screen between the transport and whatever handler the SDK assigns to `onmessage`;
 * `client` is the SDK client on it, whose negotiated era a listing (always after the handshake) is read in.
 */
export function guardToolLists<T extends Transport>(
  transport: T,
  client: Pick<Client, 'getProtocolEra'>,
  onRejected: (tool: RejectedTool) => void,
): T {
  return interceptIncoming(transport, (message) =>
    screen(message, onRejected, client.getProtocolEra() === 'legacy'),
  );
}
