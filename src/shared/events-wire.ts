/**
 * The wire of the MCP Events extension (SEP-3415, `io.modelcontextprotocol/events`), shared by
 * the client and the server: identifiers, method and notification names, zod schemas with their
 * types for every params/result/notification, the error codes with their typed `data`, webhook
 * header names, control bodies and the `whsec_` secret format.
 *
 * Invariants: definitions only, no client or server behaviour. Object schemas are loose (unknown
 * members pass through) so either side accepts what a newer peer adds. A `cursor` may be absent
 * wherever it appears and then means `null` (see {@link cursorOf}).
 */
import { z } from 'zod';
import { MCPErrorCode, mcpError } from '../errors.js';
import { lazyModule } from './lazy-module.js';

/** The extension identifier, a key of `capabilities.extensions`. */
export const EVENTS_EXTENSION_ID = 'io.modelcontextprotocol/events';

/**
 * `_meta` key on every push notification (and the stream's final result): the `events/stream`
 * request id, as on every message of a `subscriptions/listen` stream (its request id).
 */
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

export const EVENTS_METHODS = {
  list: 'events/list',
  poll: 'events/poll',
  stream: 'events/stream',
  subscribe: 'events/subscribe',
  unsubscribe: 'events/unsubscribe',
} as const;
export type EventsMethod = (typeof EVENTS_METHODS)[keyof typeof EVENTS_METHODS];

export const EVENTS_NOTIFICATIONS = {
  active: 'notifications/events/active',
  event: 'notifications/events/event',
  heartbeat: 'notifications/events/heartbeat',
  error: 'notifications/events/error',
  terminated: 'notifications/events/terminated',
  listChanged: 'notifications/events/list_changed',
} as const;
export type EventsNotificationMethod = (typeof EVENTS_NOTIFICATIONS)[keyof typeof EVENTS_NOTIFICATIONS];

/** Draft numbering (provisional until the extension's codes are final): match on name and `data`. */
export const EVENTS_ERROR_CODES = {
  InvalidParams: -32602,
  NotFound: -32023,
  Forbidden: -32024,
  ResourceExhausted: -32025,
  Unsupported: -32026,
  CallbackEndpointError: -32027,
} as const;
export type EventsErrorName = keyof typeof EVENTS_ERROR_CODES;

/** Server-side default and the spec's upper bound for the push heartbeat interval. */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;
/** The client floor for `nextPollMs` the spec recommends. */
export const MIN_POLL_INTERVAL_MS = 1_000;

// ---------------------------------------------------------------------------------------------
// Building blocks

const JsonObject = z.record(z.string(), z.unknown());
const Meta = z.record(z.string(), z.unknown());
const RequestId = z.union([z.string(), z.number()]);

/** A cursor as sent: an opaque string, `null`, or absent (= `null`). */
export const EventCursorSchema = z.string().nullable().optional();
export type EventCursor = string | null;

/** Absent and `null` are the same cursor. */
export function cursorOf(value: string | null | undefined): EventCursor {
  return value ?? null;
}

export const EventDeliveryModeSchema = z.enum(['poll', 'push', 'webhook']);
export type EventDeliveryMode = z.infer<typeof EventDeliveryModeSchema>;

/** `resultType` of every result this extension defines (absent from servers predating 2026-07-28). */
const ResultType = z.string().optional();

// ---------------------------------------------------------------------------------------------
// Descriptors and occurrences

export const EventDescriptorSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  /** A non-empty subset of `poll`, `push` and `webhook`. */
  delivery: z.array(EventDeliveryModeSchema).min(1),
  /** JSON Schema for the subscription `arguments`. */
  inputSchema: JsonObject.optional(),
  /** JSON Schema for `data` of each occurrence. */
  payloadSchema: JsonObject.optional(),
  _meta: Meta.optional(),
});
export type EventDescriptor = z.infer<typeof EventDescriptorSchema>;

export const EventOccurrenceSchema = z.looseObject({
  /** Stable id to deduplicate on; the upstream's own id when it has one. */
  eventId: z.string(),
  name: z.string(),
  /** ISO 8601 time the event happened. */
  timestamp: z.string(),
  data: JsonObject,
  /** Push and webhook only: the subscription position after this occurrence. */
  cursor: EventCursorSchema,
  _meta: Meta.optional(),
});
export type EventOccurrence = z.infer<typeof EventOccurrenceSchema>;

// ---------------------------------------------------------------------------------------------
// events/list

export const ListEventsParamsSchema = z.looseObject({
  cursor: z.string().optional(),
  _meta: Meta.optional(),
});
export type ListEventsParams = z.infer<typeof ListEventsParamsSchema>;

export const ListEventsResultSchema = z.looseObject({
  resultType: ResultType,
  events: z.array(EventDescriptorSchema),
  nextCursor: z.string().optional(),
  _meta: Meta.optional(),
});
export type ListEventsResult = z.infer<typeof ListEventsResultSchema>;

// ---------------------------------------------------------------------------------------------
// events/poll

const SubscriptionTarget = {
  name: z.string(),
  /** Subscription arguments, validated against the event's `inputSchema`. Absent = `{}`. */
  arguments: JsonObject.optional(),
};

export const PollEventsParamsSchema = z.looseObject({
  ...SubscriptionTarget,
  cursor: EventCursorSchema,
  /** Do not replay occurrences older than this (ignored with a `null` cursor). */
  maxAgeMs: z.number().int().nonnegative().optional(),
  /** Cap on occurrences in this response. */
  maxEvents: z.number().int().positive().optional(),
  _meta: Meta.optional(),
});
export type PollEventsParams = z.infer<typeof PollEventsParamsSchema>;

export const PollEventsResultSchema = z.looseObject({
  resultType: ResultType,
  events: z.array(EventOccurrenceSchema),
  cursor: EventCursorSchema,
  /** The server started later than the supplied cursor: occurrences may have been skipped. */
  truncated: z.boolean(),
  /** Poll again now (ignoring `nextPollMs`). */
  hasMore: z.boolean(),
  nextPollMs: z.number().nonnegative(),
  _meta: Meta.optional(),
});
export type PollEventsResult = z.infer<typeof PollEventsResultSchema>;

// ---------------------------------------------------------------------------------------------
// events/stream and its notifications

export const StreamEventsParamsSchema = z.looseObject({
  ...SubscriptionTarget,
  cursor: EventCursorSchema,
  maxAgeMs: z.number().int().nonnegative().optional(),
  _meta: Meta.optional(),
});
export type StreamEventsParams = z.infer<typeof StreamEventsParamsSchema>;

/** A result with nothing to say: `events/stream`'s close and `events/unsubscribe`'s answer. */
const EmptyResultSchema = z.looseObject({
  resultType: ResultType,
  _meta: Meta.optional(),
});

/** The empty result that closes a stream the server ended (clients must not depend on it). */
export const StreamEventsResultSchema = EmptyResultSchema;
export type StreamEventsResult = z.infer<typeof StreamEventsResultSchema>;

/** `_meta` of every push notification; the SDK leaves this key in place for handlers. */
export const StreamMetaSchema = z.looseObject({ [SUBSCRIPTION_ID_META_KEY]: RequestId });
export type StreamMeta = z.infer<typeof StreamMetaSchema>;

/** A JSON-RPC error object, as carried by `error`/`terminated` notifications and control bodies. */
export const EventsErrorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type EventsErrorObject = z.infer<typeof EventsErrorObjectSchema>;

export const EventsActiveNotificationParamsSchema = z.looseObject({
  cursor: EventCursorSchema,
  truncated: z.boolean(),
  _meta: StreamMetaSchema,
});
export type EventsActiveNotificationParams = z.infer<typeof EventsActiveNotificationParamsSchema>;

export const EventsEventNotificationParamsSchema = EventOccurrenceSchema.extend({ _meta: StreamMetaSchema });
export type EventsEventNotificationParams = z.infer<typeof EventsEventNotificationParamsSchema>;

export const EventsHeartbeatNotificationParamsSchema = z.looseObject({
  cursor: EventCursorSchema,
  _meta: StreamMetaSchema,
});
export type EventsHeartbeatNotificationParams = z.infer<typeof EventsHeartbeatNotificationParamsSchema>;

/** `notifications/events/error` (recoverable) and `notifications/events/terminated` (final). */
export const EventsErrorNotificationParamsSchema = z.looseObject({
  error: EventsErrorObjectSchema,
  _meta: StreamMetaSchema,
});
export type EventsErrorNotificationParams = z.infer<typeof EventsErrorNotificationParamsSchema>;
export const EventsTerminatedNotificationParamsSchema = EventsErrorNotificationParamsSchema;
export type EventsTerminatedNotificationParams = EventsErrorNotificationParams;

// ---------------------------------------------------------------------------------------------
// events/subscribe and events/unsubscribe (webhook)

export const WebhookDeliverySchema = z.looseObject({
  /** Clients send `'webhook'`; servers treat an absent mode the same. */
  mode: z.literal('webhook').optional(),
  /** `https` only. */
  url: z.string(),
  /** `whsec_` + base64 of 24-64 random bytes (see {@link decodeWebhookSecret}). */
  secret: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const SubscribeEventsParamsSchema = z.looseObject({
  ...SubscriptionTarget,
  delivery: WebhookDeliverySchema,
  cursor: EventCursorSchema,
  maxAgeMs: z.number().int().nonnegative().optional(),
  /** Suggested lifetime: absent = server default, `null` = asks for no expiry. */
  ttlMs: z.number().int().positive().nullable().optional(),
  _meta: Meta.optional(),
});
export type SubscribeEventsParams = z.infer<typeof SubscribeEventsParamsSchema>;

/** Failure categories of webhook delivery; never raw endpoint output. */
export const WebhookErrorCategorySchema = z.enum([
  'connection_refused',
  'timeout',
  'tls_error',
  'http_4xx',
  'http_5xx',
  'challenge_failed',
]);
export type WebhookErrorCategory = z.infer<typeof WebhookErrorCategorySchema>;

export const DeliveryStatusSchema = z.looseObject({
  /** `false`: delivery is suspended after repeated failures (a refresh reactivates it). */
  active: z.boolean(),
  lastDeliveryAt: z.string().nullable(),
  lastError: WebhookErrorCategorySchema.nullable(),
  failedSince: z.string().nullable().optional(),
  throttled: z.boolean().optional(),
  retryAfterMs: z.number().int().nonnegative().optional(),
});
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

export const SubscribeEventsResultSchema = z.looseObject({
  resultType: ResultType,
  /** Server-derived from (principal, url, name, arguments); sent as `X-MCP-Subscription-Id`. */
  id: z.string(),
  /** ISO 8601 time to refresh by, or `null` for no expiry (only when `ttlMs: null` was asked). */
  refreshBefore: z.string().nullable(),
  /** Safe-to-persist watermark. */
  cursor: EventCursorSchema,
  truncated: z.boolean(),
  deliveryStatus: DeliveryStatusSchema.optional(),
  _meta: Meta.optional(),
});
export type SubscribeEventsResult = z.infer<typeof SubscribeEventsResultSchema>;

export const UnsubscribeEventsParamsSchema = z.looseObject({
  ...SubscriptionTarget,
  delivery: z.looseObject({ mode: z.literal('webhook').optional(), url: z.string() }),
  _meta: Meta.optional(),
});
export type UnsubscribeEventsParams = z.infer<typeof UnsubscribeEventsParamsSchema>;

export const UnsubscribeEventsResultSchema = EmptyResultSchema;
export type UnsubscribeEventsResult = z.infer<typeof UnsubscribeEventsResultSchema>;

// ---------------------------------------------------------------------------------------------
// Error data

export const NotFoundErrorDataSchema = z.looseObject({ kind: z.enum(['event', 'subscription']) });
export type NotFoundErrorData = z.infer<typeof NotFoundErrorDataSchema>;

export const ResourceExhaustedErrorDataSchema = z.looseObject({
  /** Which limit, e.g. `'subscriptions'`. */
  limit: z.string(),
  max: z.number().optional(),
});
export type ResourceExhaustedErrorData = z.infer<typeof ResourceExhaustedErrorDataSchema>;

export const UnsupportedErrorDataSchema = z.looseObject({
  /** What is unsupported, e.g. `'deliveryMode'`. */
  feature: z.string(),
  value: z.string().optional(),
  reason: z.string().optional(),
});
export type UnsupportedErrorData = z.infer<typeof UnsupportedErrorDataSchema>;

export const CallbackEndpointErrorDataSchema = z.looseObject({ reason: WebhookErrorCategorySchema });
export type CallbackEndpointErrorData = z.infer<typeof CallbackEndpointErrorDataSchema>;

// ---------------------------------------------------------------------------------------------
// Webhook requests

/** Standard Webhooks headers plus the one MCP adds. Header names are case-insensitive on the wire. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
  subscriptionId: 'X-MCP-Subscription-Id',
} as const;

/** Servers keep delivery bodies at or under this size. */
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;
/** Receivers reject a `webhook-timestamp` older than this. */
export const WEBHOOK_TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

/** A body with a top-level `type` is a control envelope; one without is an {@link EventOccurrence}. */
export const WebhookGapBodySchema = z.looseObject({ type: z.literal('gap'), cursor: EventCursorSchema });
export type WebhookGapBody = z.infer<typeof WebhookGapBodySchema>;

export const WebhookTerminatedBodySchema = z.looseObject({
  type: z.literal('terminated'),
  error: EventsErrorObjectSchema,
});
export type WebhookTerminatedBody = z.infer<typeof WebhookTerminatedBodySchema>;

export const WebhookVerificationBodySchema = z.looseObject({
  type: z.literal('verification'),
  challenge: z.string(),
});
export type WebhookVerificationBody = z.infer<typeof WebhookVerificationBodySchema>;

export const WebhookControlBodySchema = z.discriminatedUnion('type', [
  WebhookGapBodySchema,
  WebhookTerminatedBodySchema,
  WebhookVerificationBodySchema,
]);
export type WebhookControlBody = z.infer<typeof WebhookControlBodySchema>;
export type WebhookControlType = WebhookControlBody['type'];

/** What a receiver answers (2xx, JSON) to a verification body. */
export const WebhookVerificationResponseSchema = z.looseObject({ challenge: z.string() });
export type WebhookVerificationResponse = z.infer<typeof WebhookVerificationResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Secrets

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_MIN_BYTES = 24;
export const WEBHOOK_SECRET_MAX_BYTES = 64;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The key bytes of a `whsec_` secret, or `undefined` when the value is not `whsec_` followed by
 * standard base64 (padded) of 24 to 64 bytes.
 */
export function decodeWebhookSecret(secret: string): Uint8Array | undefined {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (encoded.length === 0 || !BASE64.test(encoded)) return undefined;
  const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
  if (bytes.length < WEBHOOK_SECRET_MIN_BYTES || bytes.length > WEBHOOK_SECRET_MAX_BYTES) return undefined;
  return bytes;
}

/** A fresh `whsec_` secret from the platform CSPRNG (32 bytes unless told otherwise). */
export function generateWebhookSecret(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < WEBHOOK_SECRET_MIN_BYTES || bytes > WEBHOOK_SECRET_MAX_BYTES) {
    throw mcpError(
      MCPErrorCode.EVENTS_INVALID_WEBHOOK_SECRET_SIZE,
      `generateWebhookSecret(${String(bytes)}): a webhook secret has ${WEBHOOK_SECRET_MIN_BYTES} to ${WEBHOOK_SECRET_MAX_BYTES} bytes`,
      { bytes: String(bytes) },
    );
  }
  const key = crypto.getRandomValues(new Uint8Array(bytes));
  return WEBHOOK_SECRET_PREFIX + btoa(String.fromCharCode(...key));
}

/** The Standard Webhooks signer and verifier: loaded with the first webhook sent or received. */
export const loadStandardWebhooks = lazyModule(() => import('./standard-webhooks.js'));
