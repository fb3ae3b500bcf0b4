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
 * verification handshake is echoed; signed but malformed bodies get 400; a delivered occurrence
 * or control body gets 200 once handed to its subscriptions.
 */
import { Webhook } from 'standardwebhooks';
import { readTextWithin } from '../../events/bounded-read.js';
import {
  cursorOf,
  EventOccurrenceSchema,
  WEBHOOK_HEADERS,
  type WebhookControlBody,
  WebhookControlBodySchema,
} from '../../events/wire.js';
import type { WebhookHub } from './webhook-hub.js';
import type { WebhookRegistration } from './webhook-registration.js';

/** Deliveries are at most 256 KiB; anything over 1 MiB is refused unread. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

function reply(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}

/** Whether `body` carries a valid, fresh signature under `secret`. */
function verifies(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers, { jsonParse: false });
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
  const subscriptionId = request.headers.get(WEBHOOK_HEADERS.subscriptionId);
  const known = subscriptionId ? hub.withId(subscriptionId) : [];
  if (known.length > 0) {
    const registration = known.find((candidate) => verifies(candidate.secret, body, headers));
    return registration ? deliver(registration, body) : reply(401);
  }
  if (!hub.unroutedSecrets().some((secret) => verifies(secret, body, headers))) return reply(401);
  const parsed = parse(body);
  if (!parsed) return reply(400);
  if (parsed.kind === 'control' && parsed.body.type === 'verification')
    return challengeReply(parsed.body.challenge);
  if (!subscriptionId) return reply(400);
  return reply(503, { 'retry-after': '1' });
}

function deliver(registration: WebhookRegistration, body: string): Response {
  const parsed = parse(body);
  if (!parsed) return reply(400);
  if (parsed.kind === 'control') {
    const control = parsed.body;
    if (control.type === 'verification') return challengeReply(control.challenge);
    if (control.type === 'gap') registration.gap(cursorOf(control.cursor));
    else registration.terminated(control.error);
    return reply(200);
  }
  const occurrence = EventOccurrenceSchema.safeParse(parsed.body);
  if (!occurrence.success) return reply(400);
  registration.deliver(occurrence.data, cursorOf(occurrence.data.cursor));
  return reply(200);
}
