/**
 * The server end of trace context. A request's `_meta` may carry a W3C traceparent, tracestate and
 * baggage; they are untrusted observability data: validated by the shared parser, ignored when
 * malformed, and never read by authorization (tools see them only after the FGA check).
 *
 * When the MCPServer is registered on a Mastra instance with observability, every request that
 * runs user code for a named target (tools/call, resources/read, prompts/get, completion/complete)
 * runs in an MCP_SERVER_REQUEST span. The span starts a new trace and records the caller's span in
 * `metadata.links` (kind `mcp.client`) instead of joining the caller's trace, and the result's
 * `_meta.traceparent` names it so the client can link back. A tool call nests a TOOL_CALL span under
 * it, and what the tool starts (agents, workflows, its own spans) nests under that.
 *
 * A client server proxy's gateway runs its forwarded requests through `traced()` too (as a
 * `TracedHost`), and sends `forwardedTraceContext()` upstream.
 */

import type { Mastra } from '@mastra/core/mastra';
import type { AnySpan, TracingContext } from '@mastra/core/observability';
import type { RequestContext } from '@mastra/core/request-context';
import {
  CLIENT_INFO_META_KEY,
  type Implementation,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
  TRACEPARENT_META_KEY,
} from '@modelcontextprotocol/server';
import { asError } from '../errors.js';
import {
  formatTraceparent,
  type MCPTraceContext,
  parseTraceparent,
  receivedTraceContext,
} from '../shared/trace-context.js';
import { observability } from './observability.js';
import type { ToolEntry } from './tool-entry.js';

/** What tracing reads of a server: MCPServer's protocol host, or a proxy's gateway. */
export interface TracedHost {
  /** The server's id (Mastra may assign it at registration, so it is read per request). */
  readonly id: string;
  info: Implementation;
  /** The Mastra instance whose observability traces the request, once registered on one. */
  mastra(): Mastra | undefined;
}

/** The requestContext key under which tools read the received values. */
export const TRACE_CONTEXT_KEY = 'traceContext';

export interface RequestTrace {
  /** The validated values the request carried. */
  received: MCPTraceContext | undefined;
  /** The request span, for the work the request starts (undefined when the server is not traced). */
  tracingContext: TracingContext | undefined;
}

/** Makes the received values visible to a tool as `requestContext.get('traceContext')`. */
export function exposeTraceContext(requestContext: RequestContext, trace: RequestTrace): void {
  if (trace.received) requestContext.set(TRACE_CONTEXT_KEY, trace.received);
}

async function startRequestSpan(
  mastra: Mastra,
  host: TracedHost,
  server: Server,
  ctx: ServerContext,
  target: string,
  caller: MCPTraceContext | undefined,
): Promise<AnySpan | undefined> {
  const { EntityType, getOrCreateSpan, SpanType } = await observability();
  // 2026-07-28 requests carry client identity and revision per request; legacy ones had initialize.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const client =
    (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion();
  const protocolVersion =
    (envelope?.[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? server.getNegotiatedProtocolVersion();
  const link = caller && parseTraceparent(caller.traceparent);
  return getOrCreateSpan({
    type: SpanType.MCP_SERVER_REQUEST,
    name: `mcp_server: ${ctx.mcpReq.method} '${target}'`,
    entityType: EntityType.MCP_SERVER,
    entityId: host.id,
    entityName: host.info.name,
    attributes: {
      mcpMethod: ctx.mcpReq.method,
      targetName: target,
      mcpServer: host.info.name,
      serverVersion: host.info.version,
      ...(protocolVersion ? { mcpProtocolVersion: protocolVersion } : {}),
      ...(client?.name ? { clientName: client.name } : {}),
      ...(client?.version ? { clientVersion: client.version } : {}),
    },
    ...(link ? { metadata: { links: [{ ...link, kind: 'mcp.client' }] } } : {}),
    mastra,
  });
}

function traceparentOf(span: AnySpan): string | undefined {
  return formatTraceparent({ traceId: span.traceId, spanId: span.id });
}

/**
 * The trace context a request forwarded to another server carries: the request span's traceparent
 * (so that server links to it) with the received tracestate and baggage, or, when the request is
 * not traced, the received values unchanged.
 */
export function forwardedTraceContext(trace: RequestTrace): MCPTraceContext | undefined {
  const span = trace.tracingContext?.currentSpan;
  const traceparent = span && traceparentOf(span);
  return traceparent ? { ...trace.received, traceparent } : trace.received;
}

/** The result with `_meta.traceparent` naming the span (a copy: results may be shared). */
function namingSpan<R extends object>(result: R, span: AnySpan): R {
  const traceparent = traceparentOf(span);
  if (!traceparent) return result;
  const meta = (result as { _meta?: Record<string, unknown> })._meta;
  return { ...result, _meta: { ...meta, [TRACEPARENT_META_KEY]: traceparent } };
}

/**
 * Runs one request's handler in its MCP_SERVER_REQUEST span (when the server is traced) and names
 * the span in the result. A thrown error is recorded on the span and rethrown.
 */
export function traced<R extends object>(
  host: TracedHost,
  server: Server,
  ctx: ServerContext,
  target: string,
  handle: (trace: RequestTrace) => Promise<R>,
): Promise<R> {
  const received = receivedTraceContext(ctx.mcpReq._meta);
  const mastra = host.mastra();
  // Untraced (no Mastra instance): the handler's own promise, no async layer on every call.
  if (!mastra) return handle({ received, tracingContext: undefined });
  return inRequestSpan(mastra, host, server, ctx, target, received, handle);
}

async function inRequestSpan<R extends object>(
  mastra: Mastra,
  host: TracedHost,
  server: Server,
  ctx: ServerContext,
  target: string,
  received: MCPTraceContext | undefined,
  handle: (trace: RequestTrace) => Promise<R>,
): Promise<R> {
  const span = await startRequestSpan(mastra, host, server, ctx, target, received);
  if (!span?.isValid) return handle({ received, tracingContext: undefined });
  try {
    const result = await handle({ received, tracingContext: { currentSpan: span } });
    span.end();
    return namingSpan(result, span);
  } catch (error) {
    span.error({ error: asError(error), endSpan: true });
    throw error;
  }
}

/**
 * Runs a tool in a TOOL_CALL span under the request span (as Mastra's own tool runs are traced),
 * so the tool's own spans nest under it. Without tracing it just runs.
 */
export async function inToolSpan<T>(
  tracingContext: TracingContext | undefined,
  entry: ToolEntry,
  args: unknown,
  run: (tracingContext: TracingContext | undefined) => Promise<T>,
): Promise<T> {
  const parent = tracingContext?.currentSpan;
  if (!parent) return run(tracingContext);
  const { EntityType, executeWithContext, SpanType } = await observability();
  const span = parent.createChildSpan({
    type: SpanType.TOOL_CALL,
    name: `tool: '${entry.name}'`,
    input: args,
    entityType: EntityType.TOOL,
    entityId: entry.name,
    entityName: entry.name,
    attributes: { toolType: entry.kind, toolDescription: entry.definition.description },
  });
  if (!span) return run(tracingContext);
  try {
    const output = await executeWithContext({ span, fn: () => run({ currentSpan: span }) });
    span.end({ output, attributes: { success: true } });
    return output;
  } catch (error) {
    span.error({
      error: asError(error),
      attributes: { success: false },
      endSpan: true,
    });
    throw error;
  }
}
