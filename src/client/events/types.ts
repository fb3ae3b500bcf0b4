/**
 * Public types of `mcpClient.events` (the MCP Events extension, SEP-3415), named as in the v2
 * MCPClient reference. Wire shapes live in `src/shared/events-wire.ts`; these are what an
 * application sees.
 */
import type { DeliveryStatus, EventDeliveryMode as MCPEventDeliveryMode } from '../../shared/events-wire.js';

// Re-exported under the public name (not a new alias), so a consumer's declarations can name it.
export type { MCPEventDeliveryMode };

/** One event type a server offers (`events/list`). */
export interface MCPEventDescriptor {
  name: string;
  description?: string;
  /** The delivery modes the server supports for this event type. */
  delivery: MCPEventDeliveryMode[];
  inputSchema?: Record<string, unknown>;
  payloadSchema?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** One occurrence as a subscription's iterator yields it. */
export interface MCPReceivedEvent {
  /** The server's id for the occurrence; the client drops repeats of it within `dedupWindow`. */
  eventId: string;
  name: string;
  /** ISO 8601 time the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** The server's latest report on webhook delivery to `webhook.url`. */
export type MCPEventDeliveryStatus = DeliveryStatus;

export interface MCPEventRetryOptions {
  /** First delay ceiling (full jitter picks a delay between 0 and it). Default 1000 ms. */
  initialDelayMs?: number;
  /** Largest delay ceiling. Default 30000 ms. */
  maxDelayMs?: number;
  /** Growth of the ceiling per failed attempt. Default 2. */
  factor?: number;
  /** Failed attempts in a row before the subscription ends with MCP_EVENTS_RETRIES_EXHAUSTED. Default unlimited. */
  maxAttempts?: number;
}

export interface MCPEventSubscribeOptions {
  /** Forces a delivery mode instead of picking webhook, push, then poll. */
  delivery?: MCPEventDeliveryMode;
  /** Resumes from a cursor saved earlier; omit or `null` to start from now. */
  cursor?: string | null;
  /** Asks the server not to replay occurrences older than this. */
  maxAgeMs?: number;
  /** Poll mode: most occurrences per `events/poll` response. */
  maxEvents?: number;
  /** Lower bound for the wait between polls. Default 1000 ms. */
  minPollIntervalMs?: number;
  /** Push mode: the stream is reopened after this long without any message. Default 60000 ms. */
  heartbeatTimeoutMs?: number;
  /** Push mode: how long to wait for the server to confirm a stream. Default: the server's request timeout. */
  streamOpenTimeoutMs?: number;
  /** Recent event ids remembered to drop duplicates. Default 1000. */
  dedupWindow?: number;
  /** Most occurrences held while the loop is not reading; the oldest unread is dropped beyond it. Default 1000. */
  maxBufferedEvents?: number;
  retry?: MCPEventRetryOptions;
  /** Aborting it cancels the subscription. */
  signal?: AbortSignal;
}

/** Client `webhook` settings: servers POST occurrences to `url`, which routes to `events.handleWebhook()`. */
export interface MCPClientWebhookOptions {
  /** Public https URL that routes to `events.handleWebhook()`. */
  url: string;
  /** A `whsec_` secret for every subscription; by default each subscription gets a fresh one. */
  secret?: string;
  /** Suggested subscription lifetime; `null` asks for no expiry. Default: the server's. */
  ttlMs?: number | null;
  /** How long before `refreshBefore` to refresh. Default: the smaller of 60 s and 20 % of the grant. */
  refreshMarginMs?: number;
  /**
   * Most webhook-ids remembered per MCP server, each until its signature expires (5 minutes after
   * its `webhook-timestamp`), so a replayed delivery is answered as a duplicate and not delivered
   * again. Past it, new deliveries from that server are answered 503 with `Retry-After` (the server
   * retries them) rather than ids forgotten early. About 130 bytes each. Default 100000.
   */
  maxRememberedDeliveries?: number;
}

export type MCPEventErrorHandler = (error: Error) => void;

/** A live subscription: an async iterable of occurrences plus its position and controls. */
export interface MCPEventSubscription extends AsyncIterable<MCPReceivedEvent> {
  /** The latest position safe to persist; never past an occurrence the loop has not received. `null` without replay. */
  readonly cursor: string | null;
  /** Whether the server reported a gap right before the occurrence the loop received last. */
  readonly truncated: boolean;
  /** The delivery mode in use. */
  readonly mode: MCPEventDeliveryMode;
  /** Webhook mode only: the server's latest delivery report, updated on each refresh. */
  readonly deliveryStatus: MCPEventDeliveryStatus | undefined;
  /** Receives recoverable errors; returns a function that removes the handler. */
  onError(handler: MCPEventErrorHandler): () => void;
  /** Stops the subscription and ends the iterator. */
  cancel(): Promise<void>;
}
