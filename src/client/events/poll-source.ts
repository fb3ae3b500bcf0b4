/**
 * Poll delivery: repeated `events/poll` requests. The first one confirms the subscription; after
 * it, the next poll follows at once when the server says `hasMore`, otherwise after the larger of
 * `nextPollMs` and `minPollIntervalMs`, and never while the buffer is full (the server keeps
 * what the loop has not taken yet). Occurrences of one response share the response's cursor,
 * which only the last of them carries to the loop.
 */

import {
  cursorOf,
  EVENTS_METHODS,
  type EventCursor,
  type PollEventsResult,
  PollEventsResultSchema,
} from '../../shared/events-wire.js';
import { sleep } from '../../shared/sleep.js';
import { afterFailure, maxAge, newBackoff, type SourceContext, target } from './source-context.js';
import type { DeliverySource } from './subscription.js';
import { eventsRequest } from './support.js';

export class PollSource implements DeliverySource {
  readonly mode = 'poll' as const;
  private cursor: EventCursor;
  private readonly backoff;

  constructor(private readonly context: SourceContext) {
    this.cursor = context.options.cursor;
    this.backoff = newBackoff(context);
  }

  /** Polls once; resolves when the server answered (the subscription is confirmed), then keeps polling. */
  async start(): Promise<void> {
    const result = await this.poll();
    const wait = this.absorb(result);
    void this.loop(wait);
  }

  async stop(): Promise<void> {
    // Stateless on the server: nothing to tell it. The loop stops on the subscription's signal.
  }

  private poll(): Promise<PollEventsResult> {
    const { options, subscription, connection } = this.context;
    return eventsRequest(
      connection,
      EVENTS_METHODS.poll,
      {
        ...target(this.context),
        cursor: this.cursor,
        ...maxAge(this.context),
        ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
      },
      PollEventsResultSchema,
      { signal: subscription.signal },
    );
  }

  /** Hands a response to the subscription; returns the wait before the next poll. */
  private absorb(result: PollEventsResult): number {
    const { subscription, options } = this.context;
    const cursor = cursorOf(result.cursor);
    if (result.truncated) subscription.gap();
    const last = result.events.length - 1;
    result.events.forEach((occurrence, index) => {
      subscription.accept(occurrence, index === last ? cursor : undefined);
    });
    if (last < 0) subscription.advance(cursor);
    this.cursor = cursor;
    return result.hasMore ? 0 : Math.max(result.nextPollMs, options.minPollIntervalMs);
  }

  private async loop(firstWait: number): Promise<void> {
    const { subscription } = this.context;
    const { signal } = subscription;
    let wait = firstWait;
    while (!signal.aborted) {
      await sleep(wait, signal);
      await subscription.room();
      if (signal.aborted) return;
      try {
        const result = await this.poll();
        if (signal.aborted) return;
        this.backoff.succeed();
        wait = this.absorb(result);
      } catch (error) {
        if (signal.aborted) return;
        const next = afterFailure(this.context, this.mode, this.backoff, error, 'events/poll');
        if (next === 'stop') return;
        wait = next;
      }
    }
  }
}
