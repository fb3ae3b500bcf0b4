/**
 * The wait of the delivery loops and push streams between reads. `Wakeup` is a level-triggered
 * signal: a wake that arrives while nobody waits is kept for the next `wait()`, so no occurrence
 * is missed between a read and the wait after it. (Timed waits use `sleep` in src/shared/sleep.ts.)
 */

export class Wakeup {
  private pending = false;
  private resolve: (() => void) | undefined;

  wake(): void {
    this.pending = true;
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.();
  }

  async wait(): Promise<void> {
    if (!this.pending) {
      await new Promise<void>((resolve) => {
        this.resolve = resolve;
      });
    }
    this.pending = false;
  }
}
