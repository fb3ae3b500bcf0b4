/**
 * One published tool, whatever it was built from: a Mastra `createTool` tool, an AI SDK `tool()`
 * or an agent (`ask_<key>`); a workflow's tools are built in workflow-tools.ts from the parts here.
 * The wire definition is computed once here so `tools/list` never converts schemas per request.
 */
import type { Agent } from '@mastra/core/agent';
import { MastraError } from '@mastra/core/error';
import { isValidationError, isVercelTool } from '@mastra/core/tools';
import type { CallToolResult, Tool as WireTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MCPErrorCode, mcpError, mcpErrorDefinition } from '../errors.js';
import { TASK_SUPPORT_META_KEY } from '../shared/tasks-wire.js';
import { askAgent } from './agent-runs.js';
import { withUiLink } from './app-resources.js';
import { clip } from './issues.js';
import { observabilityContext } from './observability.js';
import { publishable } from './publishable-tool.js';
import { isTaskSupport, type MCPTaskSupport } from './tasks/types.js';
import type { ToolInvocation } from './tool-invocation.js';
import {
  type JsonSchema,
  NO_INPUT_SCHEMA,
  normalizedOnFirstUse,
  normalizeSchema,
  outputJsonSchema,
} from './tool-schema.js';

export type ToolKind = 'tool' | 'agent' | 'workflow';

/** What an invocation carries besides the arguments. */

export interface ToolEntry {
  name: string;
  kind: ToolKind;
  /** The `tools/list` entry. */
  definition: WireTool;
  /** The tool's own task support (createTool's `mcp._meta['mastra/taskSupport']`); `tasks.tools` overrides it. */
  taskSupport?: MCPTaskSupport;
  /** The original object, kept for the Mastra registry and for `getToolInfo()`. */
  source: unknown;
  /** Runs the tool; throws {@link ToolArgumentsError} for arguments its schema rejects. */
  invoke(args: unknown, invocation: ToolInvocation): Promise<unknown>;
  /** What `invoke` returned as the call's result, for the derived tools (tool-result.ts has the rule for others). */
  toResult?(output: unknown): CallToolResult;
}

/** Longest rejected-arguments message: validators may list every failing entry and echo the input. */
const MAX_ARGUMENTS_MESSAGE = 1000;

/**
 * Arguments a tool's input schema rejected; the message names the tool and each failing field. A
 * MastraError (MCP_SERVER_INVALID_TOOL_ARGUMENTS) for `executeTool()` callers; a subclass so the
 * protocol server can tell it apart and answer a tool error the caller can fix.
 */
export class ToolArgumentsError extends MastraError {
  constructor(
    readonly toolName: string,
    readonly issues: string[],
  ) {
    super(
      mcpErrorDefinition(
        MCPErrorCode.SERVER_INVALID_TOOL_ARGUMENTS,
        clip(`Invalid arguments for tool '${toolName}': ${issues.join('; ')}`, MAX_ARGUMENTS_MESSAGE),
        { tool: toolName },
      ),
    );
    this.name = 'ToolArgumentsError';
  }
}

interface MastraToolLike {
  id?: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  mcp?: { annotations?: WireTool['annotations']; _meta?: Record<string, unknown> };
  execute?: (input: unknown, context: unknown) => Promise<unknown>;
}

interface VercelToolLike {
  title?: string;
  description?: string;
  inputSchema?: unknown;
  parameters?: unknown;
  outputSchema?: unknown;
  execute?: (input: unknown, options: unknown) => unknown;
}

export function wireDefinition(
  name: string,
  parts: {
    title?: string | undefined;
    description?: string | undefined;
    inputSchema: JsonSchema;
    outputSchema?: JsonSchema | undefined;
    annotations?: WireTool['annotations'] | undefined;
    _meta?: Record<string, unknown> | undefined;
  },
): WireTool {
  const definition: WireTool = {
    name,
    description: parts.description ?? '',
    inputSchema: parts.inputSchema as WireTool['inputSchema'],
  };
  if (parts.title) definition.title = parts.title;
  if (parts.outputSchema) definition.outputSchema = parts.outputSchema as WireTool['outputSchema'];
  if (parts.annotations) definition.annotations = parts.annotations;
  if (parts._meta) definition._meta = parts._meta;
  return publishable(definition);
}

const notExecutable = (name: string) =>
  mcpError(MCPErrorCode.SERVER_TOOL_NOT_EXECUTABLE, `Tool '${name}' has no execute function`, {
    toolName: name,
  });

/** Runs a schema conversion; a failure names the owner and the field that could not be converted. */
export function convertSchema<T>(owner: string, field: string, convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw mcpError(
      MCPErrorCode.SERVER_INVALID_TOOL,
      `${owner}: ${field} could not be converted: ${reason}`,
      { field },
      error,
    );
  }
}

/** The wire definition of an explicit tool (Mastra or AI SDK), given its converted input schema. */
function explicitToolDefinition(
  name: string,
  tool: MastraToolLike | VercelToolLike,
  inputSchema: JsonSchema,
): WireTool {
  const { mcp } = tool as MastraToolLike;
  // The task support a tool declares is listed only as the server applies it (protocol-server.ts).
  const { [TASK_SUPPORT_META_KEY]: declared, ...meta } = mcp?._meta ?? {};
  return wireDefinition(name, {
    title: tool.title,
    description: tool.description,
    inputSchema,
    outputSchema: tool.outputSchema
      ? convertSchema(`Tool '${name}'`, 'outputSchema', () => outputJsonSchema(tool.outputSchema))
      : undefined,
    annotations: mcp?.annotations,
    _meta: withUiLink(name, declared === undefined ? mcp?._meta : meta),
  });
}

/** The task support a Mastra tool declares in `mcp._meta`; a value that is none names the field. */
function declaredTaskSupport(name: string, tool: MastraToolLike): MCPTaskSupport | undefined {
  const declared = tool.mcp?._meta?.[TASK_SUPPORT_META_KEY];
  if (declared === undefined || isTaskSupport(declared)) return declared;
  throw mcpError(
    MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
    `Tool '${name}': mcp._meta['${TASK_SUPPORT_META_KEY}'] must be 'forbidden', 'optional' or 'required', not ${JSON.stringify(declared)}`,
    { field: `tools.${name}.mcp._meta.${TASK_SUPPORT_META_KEY}` },
  );
}

/** A Mastra `createTool` tool: its own `execute` wrapper validates input and output. */
function mastraToolEntry(name: string, tool: MastraToolLike): ToolEntry {
  const inputSchema = tool.inputSchema
    ? convertSchema(`Tool '${name}'`, 'inputSchema', () => normalizeSchema(tool.inputSchema).json)
    : NO_INPUT_SCHEMA;
  const execute = tool.execute;
  const taskSupport = declaredTaskSupport(name, tool);
  return {
    name,
    kind: 'tool',
    source: tool,
    definition: explicitToolDefinition(name, tool, inputSchema),
    ...(taskSupport ? { taskSupport } : {}),
    async invoke(args, invocation) {
      if (!execute) throw notExecutable(name);
      const output = await execute(args ?? {}, {
        mcp: invocation.mcp,
        requestContext: invocation.requestContext,
        mastra: invocation.mastra,
        abortSignal: invocation.signal,
        ...(invocation.toolCallId
          ? { toolCallId: invocation.toolCallId, messages: invocation.messages ?? [] }
          : {}),
        ...(invocation.tracingContext ? await observabilityContext(invocation.tracingContext) : {}),
      });
      if (isValidationError(output)) {
        if (output.message.includes('input validation')) throw new ToolArgumentsError(name, [output.message]);
        throw mcpError(MCPErrorCode.SERVER_TOOL_OUTPUT_INVALID, output.message, { toolName: name });
      }
      return output;
    },
  };
}

/** An AI SDK tool (`tool()` from `ai`): validated here, then called with AI SDK execute options. */
function vercelToolEntry(name: string, tool: VercelToolLike): ToolEntry {
  const declared = tool.inputSchema ?? tool.parameters;
  const input = declared
    ? convertSchema(`Tool '${name}'`, 'inputSchema', () => normalizeSchema(declared))
    : undefined;
  const execute = tool.execute;
  return {
    name,
    kind: 'tool',
    source: tool,
    definition: explicitToolDefinition(name, tool, input?.json ?? NO_INPUT_SCHEMA),
    async invoke(args, invocation) {
      if (!execute) throw notExecutable(name);
      let value: unknown = args ?? {};
      if (input) {
        const outcome = await input.validate(value);
        if ('issues' in outcome) throw new ToolArgumentsError(name, outcome.issues);
        value = outcome.value;
      }
      return await execute(value, {
        toolCallId: invocation.toolCallId ?? `mcp-${name}`,
        messages: invocation.messages ?? [],
        abortSignal: invocation.signal,
        experimental_context: { mcp: invocation.mcp, requestContext: invocation.requestContext },
      });
    },
  };
}

export function toolEntry(name: string, tool: unknown): ToolEntry {
  if (typeof tool !== 'object' || tool === null) {
    throw mcpError(
      MCPErrorCode.SERVER_INVALID_TOOL,
      `Tool '${name}' must be a tool object created with createTool() or tool()`,
      { toolName: name },
    );
  }
  if (isVercelTool(tool as Parameters<typeof isVercelTool>[0]))
    return vercelToolEntry(name, tool as VercelToolLike);
  return mastraToolEntry(name, tool as MastraToolLike);
}

const agentInputSchema = normalizedOnFirstUse(() =>
  z.object({ message: z.string().describe('The question or instruction for the agent') }),
);
/** What `ask_<agent>` answers: the text of the agent's answer (as text content and structured). */
const AGENT_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { text: { type: 'string', description: "The agent's answer" } },
  required: ['text'],
  additionalProperties: false,
};

export function agentEntry(key: string, agent: Agent): ToolEntry {
  const description = typeof agent.getDescription === 'function' ? agent.getDescription() : undefined;
  if (!description?.trim()) {
    throw mcpError(
      MCPErrorCode.SERVER_AGENT_DESCRIPTION_MISSING,
      `Agent '${agent.name ?? key}' (key '${key}') must have a non-empty description to be exposed as tool 'ask_${key}'`,
      { agentKey: key },
    );
  }
  const name = `ask_${key}`;
  return {
    name,
    kind: 'agent',
    source: agent,
    definition: wireDefinition(name, {
      description: `Ask agent ${agent.name} a question. Agent description: ${description}`,
      inputSchema: agentInputSchema().json,
      outputSchema: AGENT_OUTPUT_SCHEMA,
    }),
    async invoke(args, invocation) {
      const outcome = await agentInputSchema().validate(args ?? {});
      if ('issues' in outcome) throw new ToolArgumentsError(name, outcome.issues);
      const { message } = outcome.value as { message: string };
      return await askAgent(agent, message, invocation);
    },
    // The answer's text as it is (what a model reads), and structured as the output schema says.
    toResult: (output) => {
      const answer = (output as { text?: unknown } | undefined)?.text;
      const text = typeof answer === 'string' ? answer : '';
      return { content: [{ type: 'text', text }], structuredContent: { text } };
    },
  };
}
