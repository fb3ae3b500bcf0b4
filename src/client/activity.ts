/**
 * What one server connection is doing for someone who waits: a connect, a request, an open
 * events stream, the listen stream being (re)opened. A stdio child holds the process open only
 * while its connection is busy, so an idle client never keeps a script alive and the `beforeExit`
 * hook (process-hooks.ts) gets to run. Watchers hear only transitions (idle <-> busy).
 */
export class Activity {
  private count = 0;
  private readonly watchers = new Set<(busy: boolean) => void>();

  get busy(): boolean {
    return this.count > 0;
  }

  /** Runs `work`, busy from this call until it settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.change(1);
    try {
      return await work();
    } finally {
      this.change(-1);
    }
  }

  /** Tells `watcher` the current state now and every change after; returns the unwatch. */
  watch(watcher: (busy: boolean) => void): () => void {
    this.watchers.add(watcher);
    watcher(this.busy);
    return () => {
      this.watchers.delete(watcher);
    };
  }

  private change(delta: 1 | -1): void {
    const was = this.busy;
    this.count += delta;
    if (this.busy !== was) for (const watcher of this.watchers) watcher(this.busy);
  }
}
