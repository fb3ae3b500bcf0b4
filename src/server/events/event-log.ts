/**
 * The store as the delivery modes see it: cursors in and out (store epoch + position, `null`
 * for types without replay) and where a subscription starts. A cursor from another epoch, or one
 * older than retention or `maxAgeMs`, starts later and reports `truncated`; a cursor this server
 * never issued is InvalidParams.
 */
import type { EventCursor } from '../../shared/events-wire.js';
import type {
  MCPEventStore,
  MCPEventStoreReadResult,
  WebhookEventLog,
  WebhookEventType,
  WebhookSubscription,
} from './contracts.js';
import { decodeEventCursor, encodeEventCursor } from './cursor.js';
import { invalidParams } from './errors.js';

export interface StartPosition {
  /** Read after this position. */
  from: string;
  truncated: boolean;
}

export class EventLog implements WebhookEventLog {
  constructor(readonly store: MCPEventStore) {}

  cursor(type: WebhookEventType, position: string): EventCursor {
    return type.replay ? encodeEventCursor(this.store.epoch, position) : null;
  }

  head(): Promise<string> {
    return this.store.head();
  }

  /** The position in `cursor`, or `undefined` for a cursor of another store epoch. */
  position(cursor: string): string | undefined {
    const decoded = decodeEventCursor(cursor);
    if (!decoded) throw invalidParams('Invalid cursor: it was not issued by this server');
    return decoded.epoch === this.store.epoch ? decoded.position : undefined;
  }

  async read(
    subscription: WebhookSubscription,
    after: string,
    limit: number,
    notBefore?: number,
  ): Promise<MCPEventStoreReadResult> {
    try {
      return await this.store.readAfter(
        after,
        {
          name: subscription.type.name,
          match: subscription.match,
          ...(notBefore !== undefined ? { notBefore } : {}),
        },
        limit,
      );
    } catch (error) {
      if (error instanceof RangeError)
        throw invalidParams('Invalid cursor: it was not issued by this server');
      throw error;
    }
  }

  /** Where a push or webhook subscription starts: now for a `null` cursor or a type without replay. */
  async start(
    subscription: WebhookSubscription,
    cursor: EventCursor | undefined,
    maxAgeMs: number | undefined,
  ): Promise<StartPosition> {
    if (!subscription.type.replay || cursor === null || cursor === undefined) {
      return { from: await this.head(), truncated: false };
    }
    const position = this.position(cursor);
    if (position === undefined) return { from: await this.head(), truncated: true };
    const probe = await this.read(subscription, position, 0, notBeforeOf(maxAgeMs));
    return { from: probe.from, truncated: probe.truncated };
  }
}

export const notBeforeOf = (maxAgeMs: number | undefined) =>
  maxAgeMs === undefined ? undefined : Date.now() - maxAgeMs;
