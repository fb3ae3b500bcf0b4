/**
 * The errors every Redis-backed store throws. A command that Redis does not answer within the
 * store's deadline, or that fails while the client is not connected, is `MCP_REDIS_UNAVAILABLE`;
 * an error Redis itself answered with (a wrong type, a refused command) is `MCP_REDIS_COMMAND_FAILED`.
 * Both name the store, the operation, the key and the key prefix, so a shared Redis with several
 * stores on it tells which one is affected.
 */
import { MastraError } from '@mastra/core/error';

export const REDIS_UNAVAILABLE = 'MCP_REDIS_UNAVAILABLE';
export const REDIS_COMMAND_FAILED = 'MCP_REDIS_COMMAND_FAILED';

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
    return new MastraError({
      id: REDIS_UNAVAILABLE,
      domain: 'MCP',
      category: 'THIRD_PARTY',
      text: `${where} got no answer from Redis within ${failure.timedOutAfterMs} ms and was not acknowledged; check that Redis is running and reachable (the client reconnects by itself)`,
      details: { ...details, timeoutMs: failure.timedOutAfterMs },
    });
  }
  const reason = failure.cause instanceof Error ? failure.cause.message : String(failure.cause);
  return new MastraError(
    failure.connected
      ? {
          id: REDIS_COMMAND_FAILED,
          domain: 'MCP',
          category: 'THIRD_PARTY',
          text: `${where} failed: Redis answered '${reason}'; check that nothing else writes keys under this prefix`,
          details,
        }
      : {
          id: REDIS_UNAVAILABLE,
          domain: 'MCP',
          category: 'THIRD_PARTY',
          text: `${where} failed while Redis is not connected (${reason}) and was not acknowledged; check that Redis is running and reachable (the client reconnects by itself)`,
          details,
        },
    failure.cause,
  );
}

export const REDIS_INVALID_OPTION = 'MCP_REDIS_INVALID_OPTION';

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
  throw new MastraError({
    id: REDIS_INVALID_OPTION,
    domain: 'MCP',
    category: 'USER',
    text: `${store}: option '${field}' ${problem}`,
    details: { store, field },
  });
}
