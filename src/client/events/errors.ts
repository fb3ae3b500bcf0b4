/**
 * Error ids of `mcpClient.events` and how a failure is classified: the reasons list() and
 * subscribe() reject with (as `error.cause` under the two outer ids), the errors a subscription's
 * iterator ends with, and which server answers end a subscription rather than being retried.
 */
import { MastraError } from '@mastra/core/error';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { MCPErrorCode } from '../../shared/error-codes.js';
import { EVENTS_ERROR_CODES } from '../../shared/events-wire.js';
import { clientError, findCause, messageOf } from '../errors.js';

export const LIST_FAILED = 'MCP_CLIENT_LIST_EVENTS_FAILED';
export const SUBSCRIBE_FAILED = 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED';

export const NOT_SUPPORTED = 'MCP_EVENTS_NOT_SUPPORTED';
export const NO_COMPATIBLE_MODE = 'MCP_EVENTS_NO_COMPATIBLE_DELIVERY_MODE';
export const WEBHOOK_NOT_CONFIGURED = 'MCP_EVENTS_WEBHOOK_NOT_CONFIGURED';

export const SUBSCRIPTION_FAILED = 'MCP_EVENTS_SUBSCRIPTION_FAILED';
export const SUBSCRIPTION_TERMINATED = 'MCP_EVENTS_SUBSCRIPTION_TERMINATED';
export const RETRIES_EXHAUSTED = 'MCP_EVENTS_RETRIES_EXHAUSTED';

export const BUFFER_OVERFLOW = 'MCP_EVENTS_BUFFER_OVERFLOW';
export const WEBHOOK_UNAVAILABLE = 'MCP_EVENTS_WEBHOOK_UNAVAILABLE';
export const WEBHOOK_DELIVERY_FAILING = 'MCP_EVENTS_WEBHOOK_DELIVERY_FAILING';
/** Recoverable: delivery was interrupted (dropped stream, failed poll or refresh) and is being retried. */
export const DELIVERY_INTERRUPTED = 'MCP_EVENTS_DELIVERY_INTERRUPTED';
/** Recoverable: the server reported a problem on a push stream (`notifications/events/error`). */
export const SERVER_ERROR = 'MCP_EVENTS_SERVER_ERROR';

type Details = Record<string, string | number | boolean | undefined>;

export function eventsError(id: MCPErrorCode, text: string, details: Details, cause?: unknown): MastraError {
  return clientError(id, text, details, cause);
}

/** `list()`/`subscribe()` failures: the outer id, the reason (a MastraError or the server's error) as cause. */
export function outerError(
  id: typeof LIST_FAILED | typeof SUBSCRIBE_FAILED,
  what: string,
  server: string,
  cause: unknown,
  details: Details = {},
): MastraError {
  return clientError(
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
  NOT_SUPPORTED,
  'MCP_CLIENT_HOST_NOT_ALLOWED',
  'MCP_CLIENT_UNKNOWN_SERVER',
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
  return error instanceof MastraError && error.id === 'MCP_CLIENT_DISCONNECTED';
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
