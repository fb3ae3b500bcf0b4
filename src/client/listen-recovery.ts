/**
 * Keeps a server's 2026-07-28 `subscriptions/listen` stream open when it ends without the client
 * asking (a server restart, a dropped socket): reopened after full-jitter waits, at most
 * LISTEN_REOPEN_ATTEMPTS in a row, stopped by `disconnect()`. What changed while the stream was
 * down was told to nobody, so once a lost stream is open again the list-changed handlers run once
 * (and the updated handlers once per subscribed URI): handlers re-list, and miss nothing.
 */
import { sleep } from '../shared/sleep.js';
import { messageOf } from './errors.js';
import { Backoff } from './events/backoff.js';
import { fire, type ServerHandlers } from './sdk-client.js';

/** Attempts in a row before giving up (about a minute with the waits below). */
export const LISTEN_REOPEN_ATTEMPTS = 12;

/** The connection whose stream this keeps (ServerConnection). */
export interface ListenOwner {
  readonly name: string;
  /** Aborts on `disconnect()`: no attempt after it. */
  readonly closedSignal: AbortSignal;
  readonly era: 'modern' | 'legacy' | undefined;
  readonly handlers: ServerHandlers;
  readonly subscribedUris: ReadonlySet<string>;
  /** Brings the stream in line with what is wanted; reopened() follows when one opens. */
  syncListen(): Promise<unknown>;
  log(level: 'info' | 'warning' | 'error', message: string): void;
}

export class ListenRecovery {
  /** A stream ended unexpectedly and has not been open since. */
  private lost = false;
  private running = false;

  constructor(private readonly owner: ListenOwner) {}

  /** The stream ended for `reason` without the client closing it: reopen it in the background. */
  ended(reason: string): void {
    if (this.owner.closedSignal.aborted) return;
    this.lost = true;
    this.owner.log('warning', `subscriptions/listen stream ended (${reason}); reopening it`);
    if (!this.running) void this.reopenLoop();
  }

  /** A stream is open: if one was lost, its handlers hear of the gap once. */
  reopened(): void {
    if (!this.lost) return;
    this.lost = false;
    this.owner.log('info', 'subscriptions/listen stream reopened; list-changed handlers run once');
    this.replayMissed();
  }

  /** Each handler of what the stream carries hears that something may have changed. */
  private replayMissed(): void {
    const { handlers, subscribedUris } = this.owner;
    for (const set of [handlers.toolsChanged, handlers.promptsChanged, handlers.resourcesChanged])
      fire(this.owner, set, undefined);
    for (const uri of subscribedUris) fire(this.owner, handlers.resourceUpdated, { uri });
  }

  private async reopenLoop(): Promise<void> {
    this.running = true;
    const signal = this.owner.closedSignal;
    const backoff = new Backoff({
      initialDelayMs: 250,
      maxDelayMs: 10_000,
      maxAttempts: LISTEN_REOPEN_ATTEMPTS,
    });
    try {
      while (this.lost && !signal.aborted) {
        // In the background: a script that forgot disconnect() still ends.
        await sleep(backoff.delay(), signal, undefined, true);
        if (signal.aborted || !this.lost) return;
        // A closed connection restores the stream when it reconnects (its open() syncs it).
        if (this.owner.era !== 'modern') return;
        let failure: unknown;
        await this.owner.syncListen().catch((error: unknown) => {
          failure = error;
        });
        // Open again (reopened() ran), or nothing to open: no stream is wanted now, or the
        // connection was replaced meanwhile. Either way the next stream opened replays the gap.
        if (failure === undefined) return;
        if (!backoff.fail()) {
          this.owner.log(
            'error',
            `MCP server '${this.owner.name}': the subscriptions/listen stream could not be reopened after ${LISTEN_REOPEN_ATTEMPTS} attempts (${messageOf(failure)}); list-changed and resource-updated notifications stop until a handler is registered, a resource subscribed or the server reconnected`,
          );
          return;
        }
      }
    } finally {
      this.running = false;
    }
  }
}
