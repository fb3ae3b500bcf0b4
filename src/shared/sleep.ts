/**
 * A timer an abort signal cuts short, for retry and poll waits on either side: it never rejects
 * and leaves no timer or listener behind once it resolved.
 */

/**
 * Resolves after `ms`, or at once when `signal` aborts. `wakeable` is handed the function that
 * ends the wait early (a poll woken by a pushed change). `unref`: the wait alone does not keep the
 * process alive (background work nobody awaits).
 */
export function sleep(
  ms: number,
  signal: AbortSignal,
  wakeable?: (wake: () => void) => void,
  unref = false,
): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    if (unref) timer.unref();
    signal.addEventListener('abort', done, { once: true });
    wakeable?.(done);
  });
}
