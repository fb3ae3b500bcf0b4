/**
 * The `limits` option: every bound on what a remote party can make the server hold (bodies,
 * sessions, suspended calls, open streams, write buffers, batches), with the defaults a public
 * server gets. docs/SECURITY.md lists each one with its reason.
 */
import { MCPErrorCode, mcpError } from '../errors.js';

export interface MCPServerLimits {
  /** Largest request body (bytes); larger ones get 413 before parsing. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of arrays and objects a JSON request body may have; deeper ones get 400
   * before any schema sees them (recursive validators would overflow the stack). Default 64.
   */
  maxJsonDepth?: number;
  /** A request body must have arrived this long after the request started; else 408. Default 30 s. */
  bodyTimeoutMs?: number;
  /** Legacy Streamable HTTP sessions held at once; a new one beyond it gets 503. Default 10,000. */
  maxSessions?: number;
  /** A legacy session with no request in flight and no open stream for this long is closed. Default 15 min. */
  sessionIdleTimeoutMs?: number;
  /** Legacy HTTP+SSE connections held at once by each of `startSSE` and `startHonoSSE`; beyond it 503. Default 1,000. */
  maxSseConnections?: number;
  /** 2026-07-28 tool calls suspended waiting for the client's input, server-wide. Default 1,000. */
  maxSuspendedCalls?: number;
  /** The same, per principal (the authenticated caller); anonymous callers share one budget. Default 100. */
  maxSuspendedCallsPerPrincipal?: number;
  /** A suspended call nobody answers for this long is cancelled (its tool sees `cancel`). Default 5 min. */
  suspendedCallTimeoutMs?: number;
  /** `subscriptions/listen` and `events/stream` streams open at once. Default 1,000. */
  maxOpenStreams?: number;
  /**
   * Bytes queued for one streaming response whose reader does not read; beyond it that stream
   * is closed and what it queued is freed. Default 1 MiB.
   */
  maxStreamBufferBytes?: number;
  /**
   * How long data may wait for a streaming response's reader with none of it taken; beyond it
   * that stream is closed, what it queued is freed, and the closure logged naming the stream. A
   * message counts as taken once the connection has accepted all of it, so raise this for very
   * large answers to slow readers. Plus 250 ms, it is also the longest a broadcast
   * (`sendLoggingMessage`, `resources.notifyUpdated`, the list-changed notifications,
   * `toolActions`) waits for any one connection, and so bounds what one client can make `close()`
   * wait. Default 10 s.
   */
  streamWriteTimeoutMs?: number;
  /**
   * Requests one legacy connection (Streamable HTTP session or sessionless request, HTTP+SSE
   * connection) runs at once; the rest of a batch or of pipelined POSTs wait in order. Default 8.
   */
  maxConcurrentRequests?: number;
}

export type ResolvedLimits = Required<MCPServerLimits>;

export const DEFAULT_LIMITS: ResolvedLimits = {
  maxBodyBytes: 4 * 1024 * 1024,
  maxJsonDepth: 64,
  bodyTimeoutMs: 30_000,
  maxSessions: 10_000,
  sessionIdleTimeoutMs: 15 * 60 * 1000,
  maxSseConnections: 1000,
  maxSuspendedCalls: 1000,
  maxSuspendedCallsPerPrincipal: 100,
  suspendedCallTimeoutMs: 5 * 60 * 1000,
  maxOpenStreams: 1000,
  maxStreamBufferBytes: 1024 * 1024,
  streamWriteTimeoutMs: 10_000,
  maxConcurrentRequests: 8,
};

/** Fills in defaults; a value that is not a positive number fails construction, naming the field. */
export function resolveLimits(serverId: string, limits: MCPServerLimits = {}): ResolvedLimits {
  const resolved = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ResolvedLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value > 0)) {
      throw mcpError(
        MCPErrorCode.SERVER_INVALID_LIMITS_OPTION,
        `MCP server '${serverId}': limits.${key} must be a positive number (got ${String(value)})`,
        { serverId, field: `limits.${key}` },
      );
    }
    resolved[key] = value;
  }
  return resolved;
}
