/**
 * The seams behind the `events` option, as interfaces: the occurrence store (`MCPEventStore`), the
 * webhook queue (`MCPWebhookQueue`) with the delivery it opens, and everything a queue is given
 * (settings, event types, the store as cursors, one signed POST, the subscription registry). This
 * file imports nothing from its siblings: types.ts names these seams in the public options and
 * the modules implementing them import them from here, so the dependency runs one way.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { DeliveryStatus, EventCursor, WebhookErrorCategory } from '../../shared/events-wire.js';

/** An occurrence as the server stores it: the wire occurrence without a subscription cursor. */
export type MCPEventOccurrence = {
  eventId: string;
  name: string;
  /** ISO 8601. */
  timestamp: string;
  data: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/** What the store is asked to read. */
export interface MCPEventStoreFilter {
  /** The event type. */
  name: string;
  /** Skip occurrences whose `timestamp` is earlier (ms since the epoch); skipped ones count as truncation. */
  notBefore?: number;
  /** Only occurrences this accepts are returned (evaluated in order). */
  match?: (occurrence: MCPEventOccurrence) => boolean;
}

/** One stored occurrence and its position in the store. */
export interface MCPStoredEvent {
  position: string;
  occurrence: MCPEventOccurrence;
}

export interface MCPEventStoreReadResult {
  events: MCPStoredEvent[];
  /**
   * Where the read really started: `after`, or a later position when occurrences of the type
   * after `after` are gone (retention) or were skipped (`notBefore`). Reading after it again
   * returns the same events.
   */
  from: string;
  /** Read after this next time: after the last returned event, or after everything examined. */
  position: string;
  /** Occurrences of the type after `after` will never be returned (`from` is later than `after`). */
  truncated: boolean;
  /** The limit was reached before everything available was examined. */
  hasMore: boolean;
}

/**
 * Where occurrences live. Positions are opaque strings the store orders; the server wraps them
 * in cursors together with `epoch`, so a cursor from another epoch (a restarted in-memory store)
 * is detected and answered with `truncated: true`. A store whose epoch lives elsewhere (Redis)
 * may keep `epoch` fixed and carry its epoch inside each position instead: `readAfter` then
 * answers a position of another epoch itself, as a foreign cursor is answered (no events,
 * `truncated`, `from` and `position` at the head). Implementations must be safe for concurrent
 * use within one process.
 */
export interface MCPEventStore {
  /** Changes whenever positions issued before are no longer meaningful. */
  readonly epoch: string;
  /** Appends one occurrence and returns it with its position. */
  append(occurrence: MCPEventOccurrence): Promise<MCPStoredEvent>;
  /** Up to `limit` occurrences of `filter.name` after `after`; throws RangeError for a position it never issued. */
  readAfter(after: string, filter: MCPEventStoreFilter, limit: number): Promise<MCPEventStoreReadResult>;
  /** The position of the newest occurrence (of any type), or the start when empty. */
  head(): Promise<string>;
  /**
   * Calls `listener(name)` after occurrences are appended, including by other processes sharing
   * the store. Without it the server only wakes its subscribers for its own `emit()` calls and on
   * each heartbeat.
   */
  watch?(listener: (name: string) => void): () => void;
}

/** What delivery reads of an event type (the server's normalised type has more). */
export interface WebhookEventType {
  readonly name: string;
  /** Whether its occurrences carry cursors (`replay` of its config). */
  readonly replay: boolean;
  /** The author's `matches` from MCPEventTypeConfig, read by `WebhookEventTypes.matcher()`. */
  readonly config: {
    matches?: ((args: Record<string, unknown>, occurrence: MCPEventOccurrence) => boolean) | undefined;
  };
}

/** A subscription request that passed every check. */
export interface WebhookSubscription {
  readonly type: WebhookEventType;
  readonly args: Record<string, unknown>;
  /** Whether an occurrence belongs to this subscription (the type's `matches`, failures logged as no). */
  readonly match: (occurrence: MCPEventOccurrence) => boolean;
}

/** The server's event types, as a queue looks them up. */
export interface WebhookEventTypes {
  get(name: string): WebhookEventType | undefined;
  /** Whether an occurrence of `type` belongs to a subscription with `args` (failures logged as no). */
  matcher(type: WebhookEventType, args: Record<string, unknown>): (occurrence: MCPEventOccurrence) => boolean;
}

/** The store as delivery reads it: cursors (`null` without replay), the head, a subscription's reads. */
export interface WebhookEventLog {
  cursor(type: WebhookEventType, position: string): EventCursor;
  head(): Promise<string>;
  read(subscription: WebhookSubscription, after: string, limit: number): Promise<MCPEventStoreReadResult>;
}

/** The `webhook` settings a delivery follows (the rest of the option is the server's). */
export interface WebhookDeliveryOptions {
  retry: { attempts: number; initialDelayMs: number; maxDelayMs: number };
  /** Consecutive abandoned deliveries that suspend a subscription. */
  suspendAfter: number;
}

export interface WebhookMessage {
  url: string;
  subscriptionId: string;
  /** `webhook-id`: the event id, or `msg_<type>_<random>` for a control body. */
  messageId: string;
  body: string;
  /** Every secret to sign with (the current one first). */
  secrets: string[];
  /** Read up to this many bytes of a 2xx answer (the verification handshake needs its body). */
  readBody?: number;
  /** Aborts the request (the server closing). */
  signal: AbortSignal;
}

export type WebhookOutcome =
  | { ok: true; status: number; body?: string }
  | { ok: false; category: WebhookErrorCategory; status?: number; final: boolean };

/** One signed POST of one message (Standard Webhooks), with its outcome as the spec's categories. */
export interface WebhookPoster {
  send(message: WebhookMessage): Promise<WebhookOutcome>;
}

export interface WebhookRecord {
  id: string;
  principal: string;
  url: string;
  /** The event type. */
  name: string;
  /** The validated subscription arguments. */
  args: Record<string, unknown>;
  secret: string;
  previous: { secret: string; until: number } | undefined;
  expiresAt: number;
  status: DeliveryStatus;
  abandonedInRow: number;
  /** Every occurrence up to here was acknowledged or abandoned: the cursor a refresh returns. */
  watermark: string;
}

/** What one delivery attempt (or giving up on one) tells the registry. */
export type WebhookReport =
  | { kind: 'delivered' }
  /** 410: the receiver does not want this one; it ends the failures in a row like a delivery. */
  | { kind: 'rejected' }
  | { kind: 'failed'; error: WebhookErrorCategory }
  /** Abandoned after its attempts: `suspendAfter` in a row suspend delivery until a refresh. */
  | { kind: 'abandoned'; suspendAfter: number };

/** A refresh: the secret (the old one keeps signing until `graceUntil`) and a new expiry. */
export interface WebhookRefresh {
  secret: string;
  graceUntil: number;
  expiresAt: number;
}

export interface WebhookRegistry {
  /** Live subscriptions and how many of them are suspended, as last known (synchronous for stats()). */
  counts(): { subscriptions: number; suspended: number };
  get(id: string): Promise<WebhookRecord | undefined>;
  /** Every live subscription to `name`, or every live one. */
  list(name?: string): Promise<WebhookRecord[]>;
  /** Adds `record` unless one with its id is live or `max` are live (checked atomically). */
  create(record: WebhookRecord, max: number): Promise<'created' | 'exists' | 'full'>;
  /**
   * Applies a refresh (and reactivates delivery, clearing the failures in a row); resolves with
   * the record as it was before, or undefined when it is not live.
   */
  refresh(id: string, change: WebhookRefresh): Promise<WebhookRecord | undefined>;
  /** Removes the subscription; false when it was not there. */
  delete(id: string): Promise<boolean>;
  report(id: string, report: WebhookReport): Promise<void>;
  /** Whether the (principal, URL) `key` passed the handshake within its verification TTL. */
  verified(key: string): Promise<boolean>;
  markVerified(key: string, ttlMs: number): Promise<void>;
}

/** What a queue is given by the server that opens it. */
export interface WebhookDeliveryContext {
  options: WebhookDeliveryOptions;
  types: WebhookEventTypes;
  log: WebhookEventLog;
  sender: WebhookPoster;
  logger: () => IMastraLogger;
}

/** Where an MCPServer's webhook subscriptions live and how their deliveries run (`webhook.queue`). */
export interface MCPWebhookQueue {
  /** Called once, by the MCPServer the queue is given to. */
  open(context: WebhookDeliveryContext): WebhookDelivery;
}

export interface WebhookDelivery {
  readonly registry: WebhookRegistry;
  /** Subscriptions outlive this server (other instances deliver them), so close() leaves them be. */
  readonly shared: boolean;
  /** Starts delivering a new subscription's occurrences after `from` (rejects if it could not). */
  start(record: WebhookRecord, subscription: WebhookSubscription, from: string): Promise<void>;
  /** A refresh of a live subscription; `reactivated` when it ended a suspension. */
  refreshed(record: WebhookRecord, subscription: WebhookSubscription, reactivated: boolean): Promise<void>;
  /** `emit()` stored `event`: a shared queue fans it out now; rejects when that failed. */
  published(event: MCPStoredEvent): Promise<void>;
  /** Occurrences of `name` may be waiting in the store. */
  wake(name: string): void;
  /** Stops delivering subscription `id` here and waits for its work in flight. */
  stop(id: string): Promise<void>;
  /** Stops every loop, timer and request of this delivery. */
  close(): Promise<void>;
}
