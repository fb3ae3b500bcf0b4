/**
 * The two waits the delivery loops use. `Wakeup` is a level-triggered signal: a wake that
 * arrives while nobody waits is kept for the next `wait()`, so no occurrence is missed between
 * a read and the wait after it. `sleep` is a timer that an abort signal cuts short; neither
 * leaves a timer behind once it returns.
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

export { sleep } from '../../events/sleep.js';
