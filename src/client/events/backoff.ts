/**
 * Retry timing for subscriptions: exponential ceilings with full jitter (a delay drawn uniformly
 * between 0 and the ceiling) and a count of failed attempts in a row. The waits themselves use
 * the shared abortable `sleep()`, so a cancelled subscription leaves no timer behind.
 */
import type { MCPEventRetryOptions } from './types.js';

export class Backoff {
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly factor: number;
  private readonly maxAttempts: number;
  /** Failed attempts since the last success. */
  failures = 0;

  constructor(options: MCPEventRetryOptions = {}) {
    this.initialDelayMs = Math.max(0, options.initialDelayMs ?? 1000);
    this.maxDelayMs = Math.max(this.initialDelayMs, options.maxDelayMs ?? 30_000);
    this.factor = Math.max(1, options.factor ?? 2);
    this.maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  }

  /** Records one failed attempt; false once `maxAttempts` failed in a row. */
  fail(): boolean {
    this.failures += 1;
    return this.failures < this.maxAttempts;
  }

  succeed(): void {
    this.failures = 0;
  }

  /** The wait before the next attempt (after `fail()`): full jitter under the current ceiling. */
  delay(): number {
    const exponent = Math.max(0, this.failures - 1);
    const ceiling = Math.min(this.maxDelayMs, this.initialDelayMs * this.factor ** exponent);
    return Math.floor(Math.random() * ceiling);
  }
}
