/**
 * The SDK rejects a request that timed out and one its caller aborted with the same code,
 * `REQUEST_TIMEOUT`; only a timeout carries the time it waited, in `data.timeout`.
 */
export const REQUEST_TIMEOUT = 'REQUEST_TIMEOUT';

/** Whether `error` is the SDK's timeout of a request (not its caller's abort). */
export function timedOut(error: unknown): boolean {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { timeout?: unknown } };
  return code === REQUEST_TIMEOUT && data?.timeout !== undefined;
}
