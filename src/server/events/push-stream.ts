/**
 * One `events/stream` request: `notifications/events/active` first, then every matching
 * occurrence in store order with the cursor after it, a heartbeat carrying the checked-up-to
 * cursor every interval, a fresh `active {truncated: true}` when retention overtook the stream,
 * and `error` when the store fails (the stream stays open). Every frame carries the request id
 * in `_meta`. It ends when the client cancels (abort / `notifications/cancelled`), when a send
 * fails, or when the server stops it (then `terminated` goes first, unless it only ends).
 */
import type { ProtocolError, ServerContext } from '@modelcontextprotocol/server';
import {
  EVENTS_NOTIFICATIONS,
  type StreamEventsResult,
  SUBSCRIPTION_ID_META_KEY,
} from '../../shared/events-wire.js';
import { errorObject } from './errors.js';
import type { EventLog, StartPosition } from './event-log.js';
import type { ResolvedSubscription } from './event-types.js';
import { Wakeup } from './wakeup.js';

const READ_BATCH = 100;

export interface PushStreamOptions {
  log: EventLog;
  subscription: ResolvedSubscription;
  start: StartPosition;
  heartbeatIntervalMs: number;
  ctx: ServerContext;
  onStoreError(error: unknown): void;
}

export class PushStream {
  readonly name: string;
  private readonly wakeup = new Wakeup();
  private heartbeatDue = false;
  private stopReason: ProtocolError | 'end' | undefined;
  private readonly meta: Record<string, unknown>;

  constructor(private readonly options: PushStreamOptions) {
    this.name = options.subscription.type.name;
    this.meta = { [SUBSCRIPTION_ID_META_KEY]: options.ctx.mcpReq.id };
  }

  /** New occurrences may be in the store. */
  wake(): void {
    this.wakeup.wake();
  }

  /** Ends the stream: with `terminated` carrying `reason`, or (`'end'`) with only the empty result. */
  stop(reason: ProtocolError | 'end'): void {
    this.stopReason ??= reason;
    this.wakeup.wake();
  }

  async run(): Promise<StreamEventsResult> {
    const { ctx, heartbeatIntervalMs, subscription, log, start } = this.options;
    const { signal } = ctx.mcpReq;
    const onAbort = () => this.wakeup.wake();
    signal.addEventListener('abort', onAbort);
    const heartbeat = setInterval(() => {
      this.heartbeatDue = true;
      this.wakeup.wake();
    }, heartbeatIntervalMs);
    let position = start.from;
    try {
      await this.send(EVENTS_NOTIFICATIONS.active, {
        cursor: log.cursor(subscription.type, position),
        truncated: start.truncated,
      });
      this.wakeup.wake();
      for (;;) {
        await this.wakeup.wait();
        if (signal.aborted) break;
        if (this.stopReason) {
          if (this.stopReason !== 'end') {
            await this.send(EVENTS_NOTIFICATIONS.terminated, { error: errorObject(this.stopReason) });
          }
          break;
        }
        position = await this.drain(position);
        if (this.heartbeatDue) {
          this.heartbeatDue = false;
          await this.send(EVENTS_NOTIFICATIONS.heartbeat, {
            cursor: log.cursor(subscription.type, position),
          });
        }
      }
    } catch {
      // A frame could not be written: the client is gone, and so is the stream.
    } finally {
      clearInterval(heartbeat);
      signal.removeEventListener('abort', onAbort);
    }
    return { _meta: { ...this.meta } };
  }

  /** Sends everything after `position`; returns the new position. */
  private async drain(position: string): Promise<string> {
    const { log, subscription, ctx } = this.options;
    let current = position;
    for (;;) {
      if (ctx.mcpReq.signal.aborted || this.stopReason) return current;
      let read: Awaited<ReturnType<EventLog['read']>>;
      try {
        read = await log.read(subscription, current, READ_BATCH);
      } catch (error) {
        this.options.onStoreError(error);
        await this.send(EVENTS_NOTIFICATIONS.error, {
          error: { code: -32603, message: 'The event store is unavailable; the stream will retry' },
        });
        return current;
      }
      if (read.truncated) {
        await this.send(EVENTS_NOTIFICATIONS.active, {
          cursor: log.cursor(subscription.type, read.from),
          truncated: true,
        });
      }
      for (const event of read.events) {
        await this.send(EVENTS_NOTIFICATIONS.event, {
          ...event.occurrence,
          cursor: log.cursor(subscription.type, event.position),
          _meta: { ...event.occurrence._meta, ...this.meta },
        });
      }
      current = read.position;
      if (!read.hasMore) return current;
    }
  }

  private send(method: string, params: Record<string, unknown>): Promise<void> {
    const _meta = (params._meta ?? this.meta) as Record<string, unknown>;
    return this.options.ctx.mcpReq.notify({ method, params: { ...params, _meta } });
  }
}
