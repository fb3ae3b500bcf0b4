/**
 * The errors every Redis-backed store throws. A command that Redis does not answer within the
 * store's deadline, or that fails while the client is not connected, is `MCP_REDIS_UNAVAILABLE`;
 * an error Redis itself answered with (a wrong type, a refused command) is `MCP_REDIS_COMMAND_FAILED`.
 * Both name the store, the operation, the key and the key prefix, so a shared Redis with several
 * stores on it tells which one is affected.
 */
import type { MastraError } from '@mastra/core/error';
import { MCPErrorCode, mcpError } from '../errors.js';

/** `MCPErrorCode.REDIS_UNAVAILABLE`, under the name `mastra-mcp/redis` has exported it by. */
export const REDIS_UNAVAILABLE = MCPErrorCode.REDIS_UNAVAILABLE;
/** `MCPErrorCode.REDIS_COMMAND_FAILED`, under the name `mastra-mcp/redis` has exported it by. */
export const REDIS_COMMAND_FAILED = MCPErrorCode.REDIS_COMMAND_FAILED;
/** `MCPErrorCode.REDIS_INVALID_OPTION`, under the name `mastra-mcp/redis` has exported it by. */
export const REDIS_INVALID_OPTION = MCPErrorCode.REDIS_INVALID_OPTION;

/** Which store ran which command on which key: the subject of every error below. */
export interface RedisOperation {
  /** The store's class name, e.g. `RedisOAuthStorage`. */
  store: string;
  /** The store method, e.g. `set`. */
  operation: string;
  /** The full Redis key (or pub/sub channel). */
  key: string;
  /** The store's key (or channel) prefix. */
  keyPrefix: string;
}

export function redisError(
  subject: RedisOperation,
  failure: { timedOutAfterMs: number } | { cause: unknown; connected: boolean },
): MastraError {
  const { store, operation, key, keyPrefix } = subject;
  const where = `${store}: ${operation} of '${key}' (prefix '${keyPrefix}')`;
  const details = { store, operation, key, keyPrefix };
  if ('timedOutAfterMs' in failure) {
    return mcpError(
      REDIS_UNAVAILABLE,
      `${where} got no answer from Redis within ${failure.timedOutAfterMs} ms and was not acknowledged; check that Redis is running and reachable (the client reconnects by itself)`,
      { ...details, timeoutMs: failure.timedOutAfterMs },
    );
  }
  const reason = failure.cause instanceof Error ? failure.cause.message : String(failure.cause);
  return failure.connected
    ? mcpError(
        REDIS_COMMAND_FAILED,
        `${where} failed: Redis answered '${reason}'; check that nothing else writes keys under this prefix`,
        details,
        failure.cause,
      )
    : mcpError(
        REDIS_UNAVAILABLE,
        `${where} failed while Redis is not connected (${reason}) and was not acknowledged; check that Redis is running and reachable (the client reconnects by itself)`,
        details,
        failure.cause,
      );
}

/** `value` when it is absent or positive (and whole when `whole`), else a USER error naming the field. */
export function positiveOption(
  store: string,
  field: string,
  value: number | undefined,
  whole = false,
): number | undefined {
  if (value === undefined || (value > 0 && (!whole || Number.isInteger(value)))) return value;
  return invalidOption(store, field, `must be a positive${whole ? ' whole' : ''} number, got ${value}`);
}

export function invalidOption(store: string, field: string, problem: string): never {
  throw mcpError(REDIS_INVALID_OPTION, `${store}: option '${field}' ${problem}`, { store, field });
}
