/**
 * Public configuration and API types of MCPServer's `events` option (the MCP Events extension,
 * SEP-3415): event types, the pluggable occurrence store and webhook delivery settings. Wire
 * shapes live in `src/events/wire.ts`; these are the author-facing ones.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { EventDeliveryMode } from '../../events/wire.js';
import type { MCPWebhookQueue } from './webhook-delivery.js';

/** An occurrence as the server stores it: the wire occurrence without a subscription cursor. */
export type MCPEventOccurrence = {
  eventId: string;
  name: string;
  /** ISO 8601. */
  timestamp: string;
  data: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/** What `authorize` is asked: may this caller subscribe to `name` with these arguments? */
export interface MCPEventAuthorizationRequest<TArgs = Record<string, unknown>> {
  name: string;
  args: TArgs;
  /** The HTTP caller's validated token (`req.auth`); absent over stdio and unauthenticated HTTP. */
  authInfo?: AuthInfo | undefined;
  delivery: EventDeliveryMode;
}

/** One event type. Schemas may be zod (3 or 4), Standard Schema or plain JSON Schema, as for tools. */
// biome-ignore lint/suspicious/noExplicitAny: callbacks of differently typed event types share one record
export interface MCPEventTypeConfig<TArgs = any, TData = any> {
  description?: string;
  /** Schema of the subscription arguments; they are validated against it (InvalidParams). */
  inputSchema?: unknown;
  /** Schema of each occurrence's `data`; `emit()` validates against it. */
  payloadSchema?: unknown;
  /** Delivery modes offered. Default: all three (webhook only while `webhook` is not `false`). */
  delivery?: EventDeliveryMode[];
  /**
   * Whether clients get cursors to resume from (default true). Without replay every cursor is
   * `null`; push and webhook still deliver, and poll is served from a short-lived per-caller lease.
   */
  replay?: boolean;
  /** Which subscriptions an occurrence belongs to. Default: every subscription of the type. */
  matches?: (args: TArgs, occurrence: MCPEventOccurrence & { data: TData }) => boolean;
  /** Refuses a subscription (Forbidden) when it returns false. Default: everyone may subscribe. */
  authorize?: (request: MCPEventAuthorizationRequest<TArgs>) => boolean | Promise<boolean>;
  /** Listed with the type as its `_meta`. */
  _meta?: Record<string, unknown>;
}

export type MCPEventTypes = Record<string, MCPEventTypeConfig>;

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

/** Retention of the in-memory store, per event type. */
export interface InMemoryMCPEventStoreOptions {
  /** Newest occurrences kept per event type. Default 1000. */
  maxEvents?: number;
  /** Occurrences older than this (since they were stored) are dropped. Default one hour. */
  maxAgeMs?: number;
}

export interface MCPServerWebhookRetryOptions {
  /** Attempts per delivery, the first included. Default 5. */
  attempts?: number;
  /** Delay before the second attempt; doubles after each failure. Default 1000 ms. */
  initialDelayMs?: number;
  /** Longest delay between attempts. Default 5 minutes. */
  maxDelayMs?: number;
}

export interface MCPServerWebhookOptions {
  /** Live webhook subscriptions across all callers; a new one beyond it is refused (-32025). Default 1000. */
  maxSubscriptions?: number;
  /** Lifetime granted when the client suggests none. Default one hour. */
  defaultTtlMs?: number;
  /** Shorter suggestions are raised to this. Default one minute. */
  minTtlMs?: number;
  /** Longer suggestions (and `ttlMs: null`) are lowered to this. Default one day. */
  maxTtlMs?: number;
  retry?: MCPServerWebhookRetryOptions;
  /** Per-request timeout of deliveries and the verification handshake. Default 10 000 ms. */
  timeoutMs?: number;
  /** Consecutive deliveries abandoned after all attempts before delivery is suspended. Default 3. */
  suspendAfter?: number;
  /** How long deliveries are signed with the previous secret too after a refresh replaced it. Default 5 minutes. */
  secretGraceMs?: number;
  /** How long a verified (principal, URL) needs no new handshake. Default one day. */
  verificationTtlMs?: number;
  /**
   * Deliver to loopback, private, link-local and other non-public addresses. Default false: the
   * resolved address of every request is checked first. For tests and private deployments.
   */
  allowPrivateAddresses?: boolean;
  /**
   * The fetch deliveries use (default: the global one). It must not follow redirects on its own
   * when given `redirect: 'manual'`. Pass one bound to a dispatcher that trusts your CA, for
   * example, instead of disabling certificate checks.
   */
  fetch?: (input: string | URL, init: RequestInit) => Promise<Response>;
  /** The caller's canonical identity (default: token subject, else client id, else a token digest). */
  principal?: (authInfo: AuthInfo) => string | undefined;
  /**
   * Where subscriptions live and how deliveries run. Default: in this process, one loop per
   * subscription. A `RedisWebhookQueue` shares them between the instances of a scaled-out server.
   */
  queue?: MCPWebhookQueue;
}

export interface MCPServerEventsConfig {
  types: MCPEventTypes;
  /** Default: an {@link InMemoryMCPEventStore} with its default retention. */
  store?: MCPEventStore;
  /** Push stream heartbeat interval. Default 30 000 ms (the spec's ceiling). */
  heartbeatIntervalMs?: number;
  /** `nextPollMs` suggested to pollers. Default 5000 ms. */
  pollIntervalMs?: number;
  /** Most occurrences one `events/poll` returns (a larger `maxEvents` is lowered). Default 100. */
  maxPollEvents?: number;
  /** Event types per `events/list` page. Default 100. */
  listPageSize?: number;
  /** Webhook delivery settings, or `false` to offer no webhook delivery. */
  webhook?: MCPServerWebhookOptions | false;
  /**
   * What `close()` tells open push streams and webhook subscriptions: `'end'` (default) only ends
   * push streams with their empty result and sends webhooks nothing, so clients resume from their
   * cursor once the server is back (a restart or a deploy); `'terminate'` sends `terminated`
   * (NotFound, kind `subscription`), which ends subscriptions for good: for a server going away.
   */
  onClose?: 'terminate' | 'end';
}

export interface MCPEmitOptions {
  /** The upstream's own id when it has one (clients deduplicate on it). Default: a random UUID. */
  eventId?: string;
  /** When the event happened. Default: now. */
  timestamp?: Date | string;
  _meta?: Record<string, unknown>;
}

/** What `emit()` stored: the occurrence and its cursor (`null` for types without replay). */
export type MCPEmittedEvent = MCPEventOccurrence & { cursor: string | null };

/** `mcpServer.events`. */
export interface MCPServerEvents {
  /** Stores an occurrence and delivers it to matching poll, push and webhook subscribers. */
  emit(name: string, data: Record<string, unknown>, options?: MCPEmitOptions): Promise<MCPEmittedEvent>;
  /** Adds an event type, or replaces one (keep schema changes additive). */
  define(name: string, config: MCPEventTypeConfig): void;
  /** Removes an event type: its push streams and webhooks get `terminated` (NotFound, kind `event`). */
  remove(name: string): Promise<boolean>;
  /** The event types as `events/list` shows them. */
  list(): Array<{ name: string; description?: string; delivery: EventDeliveryMode[] }>;
  /** What is open right now: push streams, webhook subscriptions (and how many are suspended), poll leases. */
  stats(): { streams: number; webhookSubscriptions: number; suspendedWebhooks: number; pollLeases: number };
}
