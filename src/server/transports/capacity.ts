/**
 * The refusal a client gets when a bound on held connections is reached (legacy sessions, HTTP+SSE
 * connections, open streams): 503 with `Retry-After` and a JSON-RPC error naming the limit and its option.
 */
import type { ServerResponse } from 'node:http';
import type { ResolvedLimits } from '../limits.js';
import { jsonRpcErrorResponse, sendJsonRpcError } from './node-http.js';

/** A hint only: places free as other connections close or expire. */
const RETRY_AFTER_SECONDS = '5';

export function capacityMessage(limit: number, what: string, option: keyof ResolvedLimits): string {
  return `Server busy: ${limit} ${what} are open, the most limits.${option} allows; retry later, or raise limits.${option}`;
}

/** `id`: the refused request's, when it is known. */
export function sendOverCapacity(
  res: ServerResponse,
  message: string,
  id: string | number | null = null,
): void {
  if (!res.headersSent) res.setHeader('retry-after', RETRY_AFTER_SECONDS);
  sendJsonRpcError(res, 503, -32000, message, id);
}

/** The same refusal as a web `Response` (Hono, the Streamable HTTP endpoint). */
export function overCapacityResponse(message: string, id: string | number | null = null): Response {
  return jsonRpcErrorResponse(503, -32000, message, id, undefined, { 'retry-after': RETRY_AFTER_SECONDS });
}
