/**
 * `events.handleWebhook(request)`: one webhook delivery in, the response to send back out.
 *
 * Order of checks (each answer is final): the body is read up to 1 MiB before anything else
 * (413 over it); 405 for methods other than POST; 404 without client webhook settings; the
 * Standard Webhooks signature is verified on the raw body, with the 5-minute timestamp
 * tolerance, before the body is parsed (401). A known `X-MCP-Subscription-Id` is verified with
 * its subscription's secret; an unknown one only with the secrets a not-yet-routable delivery
 * may carry (the configured `webhook.secret`, subscriptions still being registered): verified,
 * it gets 503 so the server retries once the subscribe response has arrived, else 401. The
 * verification handshake is echoed; signed but malformed bodies get 400. An occurrence or control
 * body whose `webhook-id` the registration handled already (a retry or a replay within the
 * signature's lifetime) gets 200 without being delivered again; when the server's remembered ids
 * are at `webhook.maxRememberedDeliveries` it gets 503 with Retry-After; else 200 once handed to
 * its subscriptions.
 */
import type { Webhook } from 'standardwebhooks';
import { readTextWithin } from '../../shared/bounded-read.js';
import {
  cursorOf,
  EventOccurrenceSchema,
  loadStandardWebhooks,
  WEBHOOK_HEADERS,
  WEBHOOK_TIMESTAMP_TOLERANCE_MS,
  type WebhookControlBody,
  WebhookControlBodySchema,
} from '../../shared/events-wire.js';
import type { WebhookHub } from './webhook-hub.js';
import type { WebhookRegistration } from './webhook-registration.js';

/** Deliveries are at most 256 KiB; anything over 1 MiB is refused unread. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

function reply(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}

/** Whether `body` carries a valid, fresh signature under `secret`. */
function verifies(
  webhook: typeof Webhook,
  secret: string,
  body: string,
  headers: Record<string, string>,
): boolean {
  try {
    new webhook(secret).verify(body, headers, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

type Parsed =
  | { kind: 'control'; body: WebhookControlBody }
  | { kind: 'occurrence'; body: unknown }
  | undefined;

/** The body as a control envelope (top-level `type`) or an occurrence candidate; undefined when malformed. */
function parse(body: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (!('type' in value)) return { kind: 'occurrence', body: value };
  const control = WebhookControlBodySchema.safeParse(value);
  return control.success ? { kind: 'control', body: control.data } : undefined;
}

function challengeReply(challenge: string): Response {
  return Response.json({ challenge });
}

/** The body within the limit, or `undefined` (a declared length over it is refused unread). */
async function bodyOf(request: Request): Promise<string | undefined> {
  if (Number(request.headers.get('content-length')) > MAX_WEBHOOK_BODY_BYTES) {
    await request.body?.cancel().catch(() => {});
    return undefined;
  }
  return readTextWithin(request.body, MAX_WEBHOOK_BODY_BYTES);
}

export async function handleWebhook(hub: WebhookHub, request: Request): Promise<Response> {
  const body = await bodyOf(request);
  if (body === undefined) return reply(413);
  if (request.method !== 'POST') return reply(405, { allow: 'POST' });
  if (!hub.configured) return reply(404);
  const headers = {
    [WEBHOOK_HEADERS.id]: request.headers.get(WEBHOOK_HEADERS.id) ?? '',
    [WEBHOOK_HEADERS.timestamp]: request.headers.get(WEBHOOK_HEADERS.timestamp) ?? '',
    [WEBHOOK_HEADERS.signature]: request.headers.get(WEBHOOK_HEADERS.signature) ?? '',
  };
  const { Webhook } = await loadStandardWebhooks();
  const subscriptionId = request.headers.get(WEBHOOK_HEADERS.subscriptionId);
  const known = subscriptionId ? hub.withId(subscriptionId) : [];
  if (known.length > 0) {
    const registration = known.find((candidate) => verifies(Webhook, candidate.secret, body, headers));
    return registration ? deliver(registration, body, headers) : reply(401);
  }
  if (!hub.unroutedSecrets().some((secret) => verifies(Webhook, secret, body, headers))) return reply(401);
  const parsed = parse(body);
  if (!parsed) return reply(400);
  if (parsed.kind === 'control' && parsed.body.type === 'verification')
    return challengeReply(parsed.body.challenge);
  if (!subscriptionId) return reply(400);
  return reply(503, { 'retry-after': '1' });
}

/**
 * When a verified delivery's webhook-id may be forgotten: once its timestamp fails the tolerance.
 * The signature covers the timestamp as an integer of seconds, compared in whole seconds: one
 * second more.
 */
function signatureExpiry(headers: Record<string, string>): number {
  const seconds = Number.parseInt(headers[WEBHOOK_HEADERS.timestamp] ?? '', 10);
  return (seconds + 1) * 1000 + WEBHOOK_TIMESTAMP_TOLERANCE_MS;
}

function deliver(registration: WebhookRegistration, body: string, headers: Record<string, string>): Response {
  const parsed = parse(body);
  if (!parsed) return reply(400);
  if (parsed.kind === 'control' && parsed.body.type === 'verification')
    return challengeReply(parsed.body.challenge);
  const occurrence = parsed.kind === 'occurrence' ? EventOccurrenceSchema.safeParse(parsed.body) : undefined;
  if (occurrence && !occurrence.success) return reply(400);

  const verdict = registration.admit(headers[WEBHOOK_HEADERS.id] ?? '', signatureExpiry(headers));
  if (verdict.kind === 'repeat') return reply(200);
  if (verdict.kind === 'full') {
    return new Response(
      'too many recent webhook deliveries to check for replays (webhook.maxRememberedDeliveries); retry later',
      {
        status: 503,
        headers: { 'retry-after': String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))) },
      },
    );
  }
  if (parsed.kind === 'control') {
    if (parsed.body.type === 'gap') registration.gap(cursorOf(parsed.body.cursor));
    else if (parsed.body.type === 'terminated') registration.terminated(parsed.body.error);
  } else if (occurrence?.success) registration.deliver(occurrence.data, cursorOf(occurrence.data.cursor));
  return reply(200);
}
