/**
 * MCPEventSubscription: the buffer between a delivery source (poll, push or webhook) and the
 * application's `for await` loop.
 *
 * Invariants:
 * - `cursor` never passes an occurrence the loop has not received: each queued occurrence carries
 *   the cursor that becomes visible when the loop takes it, and a cursor for a quiet period
 *   (heartbeat, poll, refresh) waits until the queue is empty.
 * - `cursor` never moves back: a cursor older than one already received (whatever brought it) is
 *   ignored; an occurrence carrying one is still delivered.
 * - `truncated` is true exactly for the first occurrence the loop reads after a gap (a server gap,
 *   or the oldest unread occurrence dropped because the buffer was full).
 * - Repeats of an event id within `dedupWindow` never reach the loop.
 * - The iterator ends normally on cancel(), break, the signal or the client's disconnect(); it
 *   throws the terminal MastraError itself once the occurrences before it were read.
 */
import type { MastraError } from '@mastra/core/error';
import { MCPErrorCode, mcpError } from '../../errors.js';
import type { EventCursor, EventOccurrence } from '../../shared/events-wire.js';
import { messageOf } from '../errors.js';
import { CursorOrder, RecentIds } from './dedup.js';
import type {
  MCPEventDeliveryMode,
  MCPEventDeliveryStatus,
  MCPEventErrorHandler,
  MCPEventSubscription,
  MCPReceivedEvent,
} from './types.js';

/** What a subscription asks of the delivery behind it. */
export interface DeliverySource {
  readonly mode: MCPEventDeliveryMode;
  readonly deliveryStatus?: MCPEventDeliveryStatus | undefined;
  /** Stops delivering: `cancel` tells the server (unsubscribe), `disconnect` and `failed` only stop. */
  stop(why: 'cancel' | 'disconnect' | 'failed'): Promise<void>;
}

interface Entry {
  occurrence: MCPReceivedEvent;
  /** Cursor visible once the loop took this occurrence; `undefined` leaves it where it was. */
  cursor: EventCursor | undefined;
  truncated: boolean;
}

export interface SubscriptionSettings {
  server: string;
  event: string;
  cursor: EventCursor;
  dedupWindow: number;
  maxBufferedEvents: number;
  /** Where recoverable errors go when no handler is registered. */
  log: (message: string) => void;
  /** Called once the subscription ended, however it ended. */
  onEnded: (subscription: EventSubscription) => void;
}

export class EventSubscription implements MCPEventSubscription {
  cursor: EventCursor;
  truncated = false;
  private source: DeliverySource | undefined;
  private readonly queue: Entry[] = [];
  private gapPending = false;
  /** A quiet-period cursor waiting for the queue to empty. */
  private tail: { cursor: EventCursor } | undefined;
  private readonly recent: RecentIds;
  private readonly order: CursorOrder;
  private readonly handlers = new Set<MCPEventErrorHandler>();
  /** Errors raised before any handler was registered, for the first one. */
  private held: Error[] = [];
  private waiters: Array<() => void> = [];
  private roomWaiters = new Set<() => void>();
  private ending: { error?: MastraError } | undefined;
  private errorThrown = false;
  private readonly stopping = new AbortController();
  private stopped: Promise<void> | undefined;

  constructor(private readonly settings: SubscriptionSettings) {
    this.cursor = settings.cursor;
    this.recent = new RecentIds(settings.dedupWindow);
    this.order = new CursorOrder(settings.cursor);
  }

  /** Aborts when the subscription ends: sources stop their loops, timers and requests on it. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  get ended(): boolean {
    return this.ending !== undefined;
  }

  get mode(): MCPEventDeliveryMode {
    return this.source?.mode ?? 'poll';
  }

  get deliveryStatus(): MCPEventDeliveryStatus | undefined {
    return this.source?.deliveryStatus;
  }

  attach(source: DeliverySource): void {
    this.source = source;
  }

  // ---- what sources call -------------------------------------------------------------------

  /** An occurrence arrived; `cursor` is where the subscription stands once the loop has it. */
  accept(occurrence: EventOccurrence, cursor: EventCursor | undefined): void {
    if (this.ending) return;
    const taken = cursor !== undefined && this.order.take(cursor) ? cursor : undefined;
    if (!this.recent.accept(occurrence.eventId)) {
      if (taken !== undefined) this.advance(taken);
      return;
    }
    const { eventId, name, timestamp, data } = occurrence;
    this.queue.push({
      occurrence: { eventId, name, timestamp, data },
      cursor: taken,
      truncated: this.gapPending,
    });
    this.gapPending = false;
    this.tail = undefined;
    if (this.queue.length > this.settings.maxBufferedEvents) this.overflow();
    this.wake();
  }

  /** The server's position moved without an occurrence (heartbeat, poll result, refresh). */
  advance(cursor: EventCursor): void {
    if (this.ending || !this.order.take(cursor)) return;
    if (this.queue.length === 0) this.cursor = cursor;
    else this.tail = { cursor };
  }

  /** The server reported a gap: the next occurrence is marked truncated. */
  gap(cursor?: EventCursor): void {
    if (this.ending) return;
    this.gapPending = true;
    if (cursor !== undefined) this.advance(cursor);
  }

  /** A recoverable error, for the onError handlers. */
  report(error: Error): void {
    if (this.ending) return;
    if (this.handlers.size === 0) {
      this.settings.log(`event '${this.settings.event}': ${messageOf(error)}`);
      return;
    }
    for (const handler of this.handlers) this.call(handler, error);
  }

  /** A recoverable error that waits for the first onError handler if none is registered yet. */
  hold(error: Error): void {
    if (this.handlers.size > 0) this.report(error);
    else this.held.push(error);
  }

  /** Ends the subscription with `error`, thrown from the iterator after the buffered occurrences. */
  fail(error: MastraError): void {
    if (this.ending) return;
    this.ending = { error };
    void this.halt('failed');
  }

  /** Resolves when the buffer has room (poll waits on it before asking for more). */
  room(): Promise<void> {
    if (this.queue.length < this.settings.maxBufferedEvents || this.ending) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.add(resolve));
  }

  // ---- the public surface ------------------------------------------------------------------

  onError(handler: MCPEventErrorHandler): () => void {
    this.handlers.add(handler);
    if (this.held.length > 0) {
      const held = this.held;
      this.held = [];
      queueMicrotask(() => {
        for (const error of held) if (this.handlers.has(handler)) this.call(handler, error);
      });
    }
    return () => {
      this.handlers.delete(handler);
    };
  }

  cancel(): Promise<void> {
    return this.close('cancel');
  }

  /** Ends the subscription normally; `disconnect` does not tell the server. */
  close(why: 'cancel' | 'disconnect'): Promise<void> {
    if (!this.ending) {
      this.ending = {};
      this.queue.length = 0;
    }
    return this.halt(why);
  }

  [Symbol.asyncIterator](): AsyncIterator<MCPReceivedEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.cancel();
        return { done: true, value: undefined };
      },
    };
  }

  // ---- internals ---------------------------------------------------------------------------

  private async next(): Promise<IteratorResult<MCPReceivedEvent>> {
    for (;;) {
      const entry = this.queue.shift();
      if (entry) {
        if (entry.cursor !== undefined) this.cursor = entry.cursor;
        if (this.queue.length === 0 && this.tail) {
          this.cursor = this.tail.cursor;
          this.tail = undefined;
        }
        this.truncated = entry.truncated;
        this.wakeRoom();
        return { done: false, value: entry.occurrence };
      }
      if (this.ending) {
        const { error } = this.ending;
        if (error && !this.errorThrown) {
          this.errorThrown = true;
          throw error;
        }
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
      });
    }
  }

  /** Drops the oldest unread occurrence; the next one the loop reads is marked truncated. */
  private overflow(): void {
    const dropped = this.queue.shift();
    const next = this.queue[0];
    if (next) next.truncated = true;
    else this.gapPending = true;
    const { server, event, maxBufferedEvents } = this.settings;
    this.report(
      mcpError(
        MCPErrorCode.EVENTS_BUFFER_OVERFLOW,
        `MCP server '${server}': event '${event}': more than ${maxBufferedEvents} occurrences were waiting to be read; the oldest unread one was dropped`,
        { server, event, maxBufferedEvents, droppedEventId: dropped?.occurrence.eventId },
      ),
    );
  }

  private halt(why: 'cancel' | 'disconnect' | 'failed'): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping.abort();
      this.wake();
      this.wakeRoom();
      try {
        await this.source?.stop(why);
      } catch (error) {
        this.settings.log(`event '${this.settings.event}': stopping failed: ${messageOf(error)}`);
      } finally {
        this.settings.onEnded(this);
      }
    })();
    return this.stopped;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private wakeRoom(): void {
    if (this.queue.length >= this.settings.maxBufferedEvents && !this.ending) return;
    const waiters = [...this.roomWaiters];
    this.roomWaiters.clear();
    for (const resolve of waiters) resolve();
  }

  private call(handler: MCPEventErrorHandler, error: Error): void {
    try {
      handler(error);
    } catch (thrown) {
      this.settings.log(`event '${this.settings.event}': an onError handler threw: ${messageOf(thrown)}`);
    }
  }
}
