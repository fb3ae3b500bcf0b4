/**
 * The one way tests wait for something that happens asynchronously: poll a check until it yields
 * a value. Tests never assert how long that took; the deadline only turns a hang into a message.
 */

/** How long `eventually` polls before it gives up, unless told otherwise. */
const DEFAULT_TIMEOUT_MS = 10_000;
const POLL_INTERVAL_MS = 20;

/**
 * Resolves with the first truthy value `check` returns (or resolves to), polling every 20 ms;
 * rejects naming `what` once `timeoutMs` has passed without one.
 */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
