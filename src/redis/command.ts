/**
 * The slice of a node-redis client the stores use, and the one way they talk to Redis: with a
 * deadline. node-redis queues commands while it reconnects (its offline queue), so without one an
 * operation during an outage would wait for as long as the outage lasts. At the deadline the
 * command's abort signal fires, which drops it from node-redis' queue if it was not sent yet (so
 * a write reported as failed is not applied later), and the caller gets `MCP_REDIS_UNAVAILABLE`.
 * A client created with `disableOfflineQueue: true` fails such commands at once instead.
 *
 * The types are structural so the package never imports `redis` at run time (it is an optional
 * peer): a client from `createClient()` of node-redis 5 or 6 satisfies them.
 */
import { type RedisOperation, redisError } from './errors.js';

/** A connected node-redis client (`createClient({ url })`, then `await client.connect()`). */
export interface RedisCommandClient {
  readonly isReady: boolean;
  sendCommand(args: ReadonlyArray<string>, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

/** How long a command may take before the store reports Redis as unavailable. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2000;

/** Runs `start` until it settles or `timeoutMs` passes; every failure becomes a named MastraError. */
export async function withDeadline<T>(
  start: (signal: AbortSignal) => Promise<T>,
  client: { readonly isReady: boolean },
  subject: RedisOperation,
  timeoutMs: number,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(redisError(subject, { timedOutAfterMs: timeoutMs }));
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      start(controller.signal).catch((cause: unknown) => {
        throw redisError(subject, { cause, connected: client.isReady });
      }),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function runCommand(
  client: RedisCommandClient,
  args: string[],
  subject: RedisOperation,
  timeoutMs: number,
): Promise<unknown> {
  return withDeadline((abortSignal) => client.sendCommand(args, { abortSignal }), client, subject, timeoutMs);
}
