/**
 * What the client remembers to recognise something it has already seen: recent event ids per
 * subscription, the webhook-ids of handled deliveries, and the cursors a subscription moved past.
 */
import type { EventCursor } from '../../shared/events-wire.js';

/**
 * The last `size` event ids a subscription accepted, to drop repeats (delivery is at least once:
 * a reopened stream, a resumed poll or a retried webhook can send an occurrence again).
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly size: number) {}

  /** True when `id` is new (and remembers it); false for a repeat within the window. */
  accept(id: string): boolean {
    if (this.size <= 0) return true;
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.size) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}

/** How many passed cursors are remembered: far more than a late answer or a reopened stream lags by. */
const PASSED_CURSORS = 1000;

/**
 * The order of a subscription's cursors. Cursors are opaque, so the only order the client knows is
 * the one it received them in: a cursor it has already moved past is older and is not taken again
 * (a late refresh answer, a stream reopened behind the latest delivery, a delivery sent again).
 * `null` (no replay, or start from now) is always taken and passes nothing.
 */
export class CursorOrder {
  private readonly passed = new RecentIds(PASSED_CURSORS);

  constructor(private latest: EventCursor) {}

  /** True when `cursor` may become the position (and records it); false for an older one. */
  take(cursor: EventCursor): boolean {
    if (cursor === null || cursor === this.latest) return true;
    if (this.passed.has(cursor)) return false;
    if (this.latest !== null) this.passed.accept(this.latest);
    this.latest = cursor;
    return true;
  }
}

export type DeliveryVerdict =
  | { kind: 'new' | 'repeat' }
  | { kind: 'full'; retryAfterMs: number; first: boolean };

/**
 * The webhook-ids of deliveries already handled, each kept until its signature can no longer
 * verify, so a replay is recognised however many deliveries came in between. Keys are fixed-size
 * digests (a sender chooses ids of any length). At most `max` are held: past that, new deliveries
 * are refused (the sender retries them) rather than an id forgotten while it could still verify.
 */
export class DeliveryIds {
  /** Key -> when it may be forgotten (ms). Insertion order is close to expiry order. */
  private readonly expiries = new Map<string, number>();
  /** While full, the earliest expiry: nothing can be freed before it, so no sweep is tried. */
  private fullUntil: number | undefined;

  constructor(private readonly max: number) {}

  /** 'repeat' for a key still remembered; 'full' with no room; else remembers it until `expiresAt`. */
  admit(key: string, expiresAt: number): DeliveryVerdict {
    const now = Date.now();
    const known = this.expiries.get(key);
    if (known !== undefined && known > now) return { kind: 'repeat' };
    this.expiries.delete(key);
    this.pruneFront(now);
    if (this.expiries.size >= this.max) {
      const first = this.fullUntil === undefined;
      if (this.fullUntil === undefined || this.fullUntil <= now) this.sweep(now);
      if (this.fullUntil !== undefined) return { kind: 'full', retryAfterMs: this.fullUntil - now, first };
    }
    this.fullUntil = undefined;
    this.expiries.set(key, expiresAt);
    return { kind: 'new' };
  }

  /** Drops expired keys from the oldest end (cheap: most arrive in expiry order). */
  private pruneFront(now: number): void {
    for (const [key, expiresAt] of this.expiries) {
      if (expiresAt > now) return;
      this.expiries.delete(key);
    }
  }

  /** Drops every expired key; when still full, notes the earliest expiry left. */
  private sweep(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, expiresAt] of this.expiries) {
      if (expiresAt <= now) this.expiries.delete(key);
      else earliest = Math.min(earliest, expiresAt);
    }
    this.fullUntil = this.expiries.size >= this.max ? earliest : undefined;
  }
}
