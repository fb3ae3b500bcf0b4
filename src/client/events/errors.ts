/**
 * How a failure of `mcpClient.events` is classified: list() and subscribe() reject under their
 * outer id with the reason as `error.cause`, and some server answers end a subscription rather
 * than being retried. The ids themselves are `MCPErrorCode`'s (src/errors.ts).
 */
import { MastraError } from '@mastra/core/error';
import { ProtocolError } from '@modelcontextprotocol/server';
import { MCPErrorCode, type MCPErrorDetails, mcpError } from '../../errors.js';
import { EVENTS_ERROR_CODES } from '../../shared/events-wire.js';
import { findCause, messageOf } from '../errors.js';

/** `list()`/`subscribe()` failures: the outer id, the reason (a MastraError or the server's error) as cause. */
export function outerError(
  id: typeof MCPErrorCode.CLIENT_LIST_EVENTS_FAILED | typeof MCPErrorCode.CLIENT_SUBSCRIBE_EVENT_FAILED,
  what: string,
  server: string,
  cause: unknown,
  details: MCPErrorDetails = {},
): MastraError {
  return mcpError(
    id,
    `MCP server '${server}': ${what} failed: ${messageOf(cause)}`,
    { server, ...details },
    cause,
  );
}

/** The JSON-RPC code of a server error, however the SDK wrapped it. */
export function protocolCode(error: unknown): number | undefined {
  return findCause(error, ProtocolError)?.code;
}

const FINAL_CODES = new Set<number>([
  EVENTS_ERROR_CODES.InvalidParams,
  EVENTS_ERROR_CODES.NotFound,
  EVENTS_ERROR_CODES.Forbidden,
  EVENTS_ERROR_CODES.Unsupported,
  EVENTS_ERROR_CODES.CallbackEndpointError,
  -32601,
]);

const FINAL_IDS = new Set<string>([
  MCPErrorCode.EVENTS_NOT_SUPPORTED,
  MCPErrorCode.CLIENT_HOST_NOT_ALLOWED,
  MCPErrorCode.CLIENT_UNKNOWN_SERVER,
]);

/**
 * A server answer that retrying cannot change (the subscription ends with
 * MCP_EVENTS_SUBSCRIPTION_FAILED). NotFound with `data.kind: 'subscription'` is the exception: the
 * server does not know the subscription right now (it is shutting down, or lost its state), which
 * a later attempt, possibly at a restarted server, can get past.
 */
export function isFinal(error: unknown): boolean {
  if (error instanceof MastraError && FINAL_IDS.has(error.id)) return true;
  const server = findCause(error, ProtocolError);
  if (!server || !FINAL_CODES.has(server.code)) return false;
  const kind = (server.data as { kind?: unknown } | undefined)?.kind;
  return !(server.code === EVENTS_ERROR_CODES.NotFound && kind === 'subscription');
}

/** The client itself was disconnected: subscriptions end normally. */
export function isDisconnected(error: unknown): boolean {
  return error instanceof MastraError && error.id === MCPErrorCode.CLIENT_DISCONNECTED;
}

/** Server refusals after which a subscription that did not force webhook delivery falls back to push or poll. */
const WEBHOOK_REFUSALS = new Set<number>([
  EVENTS_ERROR_CODES.Forbidden,
  EVENTS_ERROR_CODES.ResourceExhausted,
  EVENTS_ERROR_CODES.Unsupported,
  EVENTS_ERROR_CODES.CallbackEndpointError,
  -32601,
]);

export function isWebhookRefusal(error: unknown): boolean {
  const code = protocolCode(error);
  return code !== undefined && WEBHOOK_REFUSALS.has(code);
}
