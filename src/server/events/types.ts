/**
 * Public configuration and API types of MCPServer's `events` option (the MCP Events extension,
 * SEP-3415): event types, store retention and webhook delivery settings. The seams a user can
 * implement (the occurrence store, the webhook queue) are in contracts.ts; wire shapes live in
 * `src/shared/events-wire.ts`; these are the author-facing ones.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { EventDeliveryMode } from '../../shared/events-wire.js';
import type { MCPEventOccurrence, MCPEventStore, MCPWebhookQueue } from './contracts.js';

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
