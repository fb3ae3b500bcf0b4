/**
 * Builds a `@mastra/core` tool from a tool definition. The input schema validates arguments (the
 * server's JSON Schema as written, 2020-12 by default); structured output is validated by the SDK
 * against the advertised output schema; approval, progress, trace context and error handling
 * follow the server's configuration; invalid arguments reject (invalid-arguments.ts), and a failed
 * call names its cause as a connect would. The tool-call span sends its traceparent and links to
 * the server span a reply names.
 */
import { randomUUID } from 'node:crypto';
import { createTool, type ToolExecutionContext } from '@mastra/core/tools';
import type { JsonSchemaType } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import {
  addSpanLink,
  formatTraceparent,
  type MCPTraceContext,
  repliedSpan,
} from '../../shared/trace-context.js';
import type { ServerConnection } from '../connection.js';
import { callToolFollowingTasks } from '../tasks/tool-call.js';
import type { MCPToolDefinition } from './definition.js';
import { ArgumentGuard } from './invalid-arguments.js';
import { isOutputEnvelope } from './output-envelope.js';
import { shownPattern } from './pattern-budget.js';
import { shapeToolResult } from './result.js';
import { inputSchemaFor } from './schema-cache.js';
import { uncheckedPatterns } from './validation.js';

/** Validation of output happens in the SDK; this schema only carries the advertised JSON Schema. */
function advertisedOnly(json: Record<string, unknown>) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'mcp',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

type CurrentSpan = Parameters<typeof addSpanLink>[0] & { traceId?: string; id?: string };

/** The span a traced agent or workflow runs the tool in (its tool-call span, or a workflow step). */
function currentSpanOf(context: ToolExecutionContext | undefined): CurrentSpan | undefined {
  return (context?.tracingContext as { currentSpan?: CurrentSpan } | undefined)?.currentSpan;
}

/** The W3C traceparent of that span; none for a span whose ids are not W3C-shaped (a no-op one). */
function traceOf(span: CurrentSpan | undefined): MCPTraceContext | undefined {
  const traceparent = span && formatTraceparent({ traceId: span.traceId, spanId: span.id });
  return traceparent ? { traceparent } : undefined;
}

/** With the default validator, says which of the tool's patterns it will not check, and why. */
function reportUncheckedPatterns(connection: ServerConnection, definition: MCPToolDefinition): void {
  if (connection.definition.jsonSchemaValidator) return;
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const found = uncheckedPatterns(definition[field], connection.patternBudget);
    for (const { pointer, keyword, source, reason } of found) {
      const what = keyword === 'pattern' ? 'pattern' : 'patternProperties key';
      connection.log(
        'warning',
        `tool '${definition.name}': its ${field} ${what} '${shownPattern(source)}' at ${pointer} is not checked by the client: ${reason}`,
      );
    }
  }
}

/**
 * `eager` compiles the input schema now (a live listing reports a broken schema at once); `key`
 * is the tool's id, its key in the client's flat map (tool-names.ts).
 */
export function mastraTool(
  connection: ServerConnection,
  definition: MCPToolDefinition,
  { eager, key }: { eager: boolean; key: string },
) {
  const { name: serverName, definition: server } = connection;
  const inputSchema = inputSchemaFor(definition.inputSchema as JsonSchemaType, server.jsonSchemaValidator, {
    eager,
    budget: connection.patternBudget,
  });
  reportUncheckedPatterns(connection, definition);
  const approval = server.requireToolApproval;
  const title = definition.title ?? definition.annotations?.title;
  const argumentGuard = new ArgumentGuard(serverName, definition.name, inputSchema);
  const tool = createTool({
    id: key,
    description: definition.description ?? '',
    ...(title !== undefined ? { title } : {}),
    inputSchema: inputSchema as never,
    ...(definition.outputSchema ? { outputSchema: advertisedOnly(definition.outputSchema) as never } : {}),
    mcp: {
      ...(definition.annotations ? { annotations: definition.annotations } : {}),
      ...(definition._meta ? { _meta: definition._meta } : {}),
    },
    mcpMetadata: {
      serverName,
      ...(definition.serverVersion ? { serverVersion: definition.serverVersion } : {}),
      ...(definition.serverInstructions ? { serverInstructions: definition.serverInstructions } : {}),
      forwardInstructions: server.forwardInstructions ?? false,
      instructionsMaxLength: server.instructionsMaxLength ?? 512,
    },
    ...(typeof approval === 'function'
      ? {
          requireApproval: (input: unknown, ctx?: { requestContext?: Record<string, unknown> }) =>
            approval({
              toolName: definition.name,
              args: (input ?? {}) as Record<string, unknown>,
              ...(ctx?.requestContext ? { requestContext: ctx.requestContext } : {}),
              ...(definition.annotations ? { annotations: definition.annotations } : {}),
            }),
        }
      : approval
        ? { requireApproval: true }
        : {}),
    execute: async (input, context) => {
      const runId = (context as { runId?: string } | undefined)?.runId ?? context?.workflow?.runId;
      const progressToken = server.enableProgressTracking ? (runId ?? randomUUID()) : undefined;
      const span = currentSpanOf(context);
      const meta = connection.requestMeta(traceOf(span), progressToken ? { progressToken } : undefined);
      try {
        const result = await callToolFollowingTasks(
          connection,
          {
            name: definition.name,
            arguments: input as Record<string, unknown>,
            meta,
            definition,
            signal: context?.abortSignal,
          },
          context?.requestContext,
        );
        // The reply names the server span that handled the call (MCPServer does): link to it.
        const serverSpan = repliedSpan(result._meta);
        if (serverSpan) addSpanLink(span, { ...serverSpan, kind: 'mcp.server' });
        // A 2025-era server wrapped a non-object output as `{ result }`: the value is the same on both eras.
        const enveloped = connection.era === 'legacy' && isOutputEnvelope(definition.outputSchema);
        return argumentGuard.own(
          shapeToolResult(
            result as never,
            { server: serverName, tool: definition.name },
            server.onToolError,
            enveloped,
          ),
        );
      } catch (error) {
        if ((error as { id?: string }).id === MCPErrorCode.CLIENT_TOOL_ERROR) throw error;
        throw mcpError(
          MCPErrorCode.CLIENT_TOOL_CALL_FAILED,
          `MCP tool '${definition.name}' on server '${serverName}' failed: ${connection.describeFailure(error)}`,
          { server: serverName, tool: definition.name },
          error,
        );
      }
    },
  });
  return argumentGuard.guard(tool);
}
