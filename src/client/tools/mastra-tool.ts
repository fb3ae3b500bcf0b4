/**
 * Builds a `@mastra/core` tool from a tool definition. The input schema validates arguments (the
 * server's JSON Schema as written, 2020-12 by default); structured output is validated by the SDK
 * against the advertised output schema; approval, progress, trace context and error handling
 * follow the server's configuration.
 */
import { randomUUID } from 'node:crypto';
import { createTool, type ToolExecutionContext } from '@mastra/core/tools';
import type { JsonSchemaType } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../connection.js';
import { clientError, messageOf } from '../errors.js';
import type { MCPTraceContext } from '../types.js';
import type { MCPToolDefinition } from './definition.js';
import { shapeToolResult } from './result.js';
import { inputSchemaFor } from './schema-cache.js';

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

/** The W3C traceparent of the span the tool runs in, when a traced agent or workflow calls it. */
function traceOf(context: ToolExecutionContext | undefined): MCPTraceContext | undefined {
  const span = (context?.tracingContext as { currentSpan?: { traceId?: string; id?: string } } | undefined)
    ?.currentSpan;
  if (!span?.traceId || !span.id) return undefined;
  if (!/^[0-9a-f]{32}$/.test(span.traceId) || !/^[0-9a-f]{16}$/.test(span.id)) return undefined;
  return { traceparent: `00-${span.traceId}-${span.id}-01` };
}

export function toolKey(serverName: string, toolName: string): string {
  return `${serverName}_${toolName}`;
}

/** `eager` compiles the input schema now (a live listing reports a broken schema at once). */
export function mastraTool(
  connection: ServerConnection,
  definition: MCPToolDefinition,
  { eager }: { eager: boolean },
) {
  const { name: serverName, definition: server } = connection;
  const inputSchema = inputSchemaFor(definition.inputSchema as JsonSchemaType, server.jsonSchemaValidator, {
    eager,
  });
  const approval = server.requireToolApproval;
  const title = definition.title ?? definition.annotations?.title;
  return createTool({
    id: toolKey(serverName, definition.name),
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
      const meta = connection.requestMeta(traceOf(context), progressToken ? { progressToken } : undefined);
      try {
        const result = await connection.run(
          (client) =>
            client.callTool(
              {
                name: definition.name,
                arguments: input as Record<string, unknown>,
                ...(meta ? { _meta: meta } : {}),
              },
              {
                timeout: connection.timeout,
                toolDefinition: definition as never,
                ...(context?.abortSignal ? { signal: context.abortSignal } : {}),
              },
            ),
          context?.requestContext,
        );
        return shapeToolResult(
          result as never,
          { server: serverName, tool: definition.name },
          server.onToolError,
        );
      } catch (error) {
        if ((error as { id?: string }).id === 'MCP_CLIENT_TOOL_ERROR') throw error;
        throw clientError(
          'MCP_CLIENT_TOOL_CALL_FAILED',
          `MCP tool '${definition.name}' on server '${serverName}' failed: ${messageOf(error)}`,
          { server: serverName, tool: definition.name },
          error,
        );
      }
    },
  });
}
