/**
 * Watches a skill folder on disk so that a changed file is hashed again without anyone asking:
 * one recursive watcher per folder, its bursts of events (an editor's save is several) folded into
 * one call after a quiet moment. The watcher keeps no process alive.
 */
import { watch } from 'node:fs';

/** Quiet time after the last event before the folder is read again. */
export const WATCH_SETTLE_MS = 100;

/** Calls `onChange` after changes below `folder` settle; returns the function that stops watching. */
export function watchFolder(
  folder: string,
  onChange: () => void,
  onError: (error: Error) => void,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(folder, { recursive: true, persistent: false }, () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, WATCH_SETTLE_MS);
    timer.unref();
  });
  watcher.on('error', onError);
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
