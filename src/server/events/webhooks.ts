/**
 * Webhook subscriptions (`events/subscribe`, `events/unsubscribe`): keyed by (principal, URL,
 * event, canonical arguments) with a deterministic id; idempotent refresh (new secret with a
 * dual-signing grace window, TTL granted again, delivery reactivated); a cap; the verification
 * handshake before the first delivery to a (principal, URL); TTL expiry.
 *
 * Each subscription has one delivery loop: occurrences go out one at a time in store order, each
 * retried with exponential backoff (410 and 413 are final), abandoned after the last attempt;
 * after `suspendAfter` abandoned in a row delivery is suspended until the next refresh. The cursor
 * in a delivery is the watermark: every occurrence before it was acknowledged or abandoned. State
 * is in memory, so no-expiry grants are never made (`ttlMs: null` gets `maxTtlMs`). `close()`
 * stops every loop and timer and aborts requests in flight before it reports done.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IMastraLogger } from '@mastra/core/logger';
import type { AuthInfo, ProtocolError } from '@modelcontextprotocol/server';
import { canonicalJson } from '../../events/canonical-json.js';
import {
  type DeliveryStatus,
  decodeWebhookSecret,
  type SubscribeEventsParams,
  type SubscribeEventsResult,
  type UnsubscribeEventsParams,
  WEBHOOK_MAX_BODY_BYTES,
  type WebhookControlBody,
  WebhookVerificationResponseSchema,
} from '../../events/wire.js';
import {
  callbackEndpointError,
  errorObject,
  forbidden,
  invalidParams,
  notFound,
  resourceExhausted,
} from './errors.js';
import type { EventLog } from './event-log.js';
import { describe, type EventTypes, type ResolvedSubscription } from './event-types.js';
import type { MCPServerWebhookOptions, MCPStoredEvent } from './types.js';
import { sleep, Wakeup } from './wakeup.js';
import { bareHost, controlMessageId, isNonPublicAddress, WebhookSender } from './webhook-sender.js';

const READ_BATCH = 50;
const VERIFICATION_ATTEMPTS = 3;
const VERIFICATION_RETRY_MS = 200;
/** setTimeout's ceiling; longer expiries re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type ResolvedWebhookOptions = Required<Omit<MCPServerWebhookOptions, 'retry' | 'principal'>> & {
  retry: { attempts: number; initialDelayMs: number; maxDelayMs: number };
  principal: (authInfo: AuthInfo) => string | undefined;
};

export function resolveWebhookOptions(options: MCPServerWebhookOptions = {}): ResolvedWebhookOptions {
  const minTtlMs = Math.max(1000, options.minTtlMs ?? 60_000);
  const maxTtlMs = Math.max(minTtlMs, options.maxTtlMs ?? 24 * 60 * 60 * 1000);
  return {
    maxSubscriptions: options.maxSubscriptions ?? 1000,
    minTtlMs,
    maxTtlMs,
    defaultTtlMs: Math.min(maxTtlMs, Math.max(minTtlMs, options.defaultTtlMs ?? 60 * 60 * 1000)),
    retry: {
      attempts: Math.max(1, options.retry?.attempts ?? 5),
      initialDelayMs: Math.max(0, options.retry?.initialDelayMs ?? 1000),
      maxDelayMs: Math.max(0, options.retry?.maxDelayMs ?? 5 * 60 * 1000),
    },
    timeoutMs: options.timeoutMs ?? 10_000,
    suspendAfter: Math.max(1, options.suspendAfter ?? 3),
    secretGraceMs: options.secretGraceMs ?? 5 * 60 * 1000,
    verificationTtlMs: options.verificationTtlMs ?? 24 * 60 * 60 * 1000,
    allowPrivateAddresses: options.allowPrivateAddresses ?? false,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    principal: options.principal ?? defaultPrincipal,
  };
}

/** The token's subject, else its client id, else a digest of the token (an API key's identity). */
export function defaultPrincipal(authInfo: AuthInfo): string | undefined {
  const subject = authInfo.extra?.subject ?? authInfo.extra?.sub;
  if (typeof subject === 'string' && subject) return `sub:${subject}`;
  if (authInfo.clientId) return `client:${authInfo.clientId}`;
  if (authInfo.token)
    return `token:${createHash('sha256').update(authInfo.token).digest('hex').slice(0, 32)}`;
  return undefined;
}

type Item = { kind: 'event'; event: MCPStoredEvent } | { kind: 'control'; body: WebhookControlBody };

interface Subscription {
  id: string;
  principal: string;
  url: string;
  resolved: ResolvedSubscription;
  secret: string;
  previous: { secret: string; until: number } | undefined;
  expiresAt: number;
  /** Read from the store up to here. */
  position: string;
  /** Every occurrence up to here was acknowledged or abandoned. */
  watermark: string;
  queue: Item[];
  attempt: number;
  abandonedInRow: number;
  status: DeliveryStatus;
  wakeup: Wakeup;
  /** Aborts this loop's sleeps and requests. */
  halt: AbortController;
  loop: Promise<void> | undefined;
  expiry: ReturnType<typeof setTimeout> | undefined;
}

export interface WebhookSubscriptionsDeps {
  options: ResolvedWebhookOptions;
  types: EventTypes;
  log: EventLog;
  logger: () => IMastraLogger;
}

export class WebhookSubscriptions {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly pending = new Map<string, Promise<SubscribeEventsResult>>();
  private readonly verified = new Map<string, number>();
  private readonly sender: WebhookSender;
  private readonly closing = new AbortController();
  private reserved = 0;

  constructor(private readonly deps: WebhookSubscriptionsDeps) {
    const { fetch, timeoutMs, allowPrivateAddresses } = deps.options;
    this.sender = new WebhookSender({ fetch, timeoutMs, allowPrivateAddresses });
  }

  get size(): number {
    return this.subscriptions.size;
  }

  /** Subscriptions whose delivery is suspended until their next refresh. */
  get suspended(): number {
    let count = 0;
    for (const subscription of this.subscriptions.values()) if (!subscription.status.active) count += 1;
    return count;
  }

  async subscribe(
    params: SubscribeEventsParams,
    authInfo: AuthInfo | undefined,
  ): Promise<SubscribeEventsResult> {
    const principal = this.principalOf(authInfo);
    const url = this.callbackUrl(params.delivery.url);
    if (!decodeWebhookSecret(params.delivery.secret)) {
      throw invalidParams('delivery.secret must be whsec_ followed by base64 of 24 to 64 random bytes');
    }
    const args = params.arguments ?? {};
    const resolved = await this.deps.types.resolve(params.name, args, 'webhook', authInfo);
    const id = subscriptionId(principal, url, params.name, args);
    // One subscribe per key at a time: a concurrent refresh waits for the first to finish.
    for (let previous = this.pending.get(id); previous; previous = this.pending.get(id)) {
      await previous.catch(() => {});
    }
    const work = this.upsert(id, principal, url, resolved, params);
    this.pending.set(id, work);
    try {
      return await work;
    } finally {
      this.pending.delete(id);
    }
  }

  async unsubscribe(params: UnsubscribeEventsParams, authInfo: AuthInfo | undefined): Promise<void> {
    const principal = this.principalOf(authInfo);
    const url = this.callbackUrl(params.delivery.url);
    const id = subscriptionId(principal, url, params.name, params.arguments ?? {});
    const subscription = this.subscriptions.get(id);
    if (!subscription || subscription.expiresAt <= Date.now()) {
      if (subscription) this.drop(subscription);
      throw notFound('No such webhook subscription', { kind: 'subscription' });
    }
    this.drop(subscription);
  }

  /** Occurrences of `name` may be waiting. */
  wake(name: string): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.resolved.type.name === name) subscription.wakeup.wake();
    }
  }

  /** Ends every subscription to `name` with a `terminated` body carrying `reason`. */
  async terminate(name: string, reason: ProtocolError): Promise<void> {
    const ending = [...this.subscriptions.values()].filter((s) => s.resolved.type.name === name);
    await Promise.allSettled(ending.map((subscription) => this.end(subscription, reason)));
  }

  async close(reason: ProtocolError | 'end'): Promise<void> {
    this.closing.abort();
    const ending = [...this.subscriptions.values()];
    await Promise.allSettled(ending.map((subscription) => this.end(subscription, reason)));
    this.verified.clear();
  }

  private principalOf(authInfo: AuthInfo | undefined): string {
    const principal = authInfo ? this.deps.options.principal(authInfo) : undefined;
    if (!principal) throw forbidden('Webhook subscriptions need an authenticated caller');
    return principal;
  }

  private callbackUrl(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidParams('delivery.url is not a valid URL');
    }
    if (url.protocol !== 'https:') throw invalidParams('delivery.url must use https');
    if (url.username || url.password) throw invalidParams('delivery.url must not carry credentials');
    const host = bareHost(url);
    const local =
      host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isNonPublicAddress(host));
    if (local && !this.deps.options.allowPrivateAddresses) {
      throw invalidParams('delivery.url must point to a public address');
    }
    url.hash = '';
    return url.href;
  }

  private async upsert(
    id: string,
    principal: string,
    url: string,
    resolved: ResolvedSubscription,
    params: SubscribeEventsParams,
  ): Promise<SubscribeEventsResult> {
    const ttlMs = this.grant(params.ttlMs);
    const existing = this.subscriptions.get(id);
    if (existing && existing.expiresAt > Date.now()) {
      if (existing.secret !== params.delivery.secret) {
        existing.previous = { secret: existing.secret, until: Date.now() + this.deps.options.secretGraceMs };
        existing.secret = params.delivery.secret;
      }
      existing.resolved = resolved;
      this.arm(existing, ttlMs);
      // The status as it was: `active: false` tells the client this refresh just reactivated it.
      const result = this.result(existing, false);
      existing.abandonedInRow = 0;
      if (!existing.status.active) {
        existing.status.active = true;
        existing.attempt = 0;
      }
      existing.wakeup.wake();
      return result;
    }
    if (existing) this.drop(existing);
    const { maxSubscriptions } = this.deps.options;
    if (this.subscriptions.size + this.reserved >= maxSubscriptions) {
      throw resourceExhausted(`At most ${maxSubscriptions} webhook subscriptions`, {
        limit: 'subscriptions',
        max: maxSubscriptions,
      });
    }
    this.reserved += 1;
    try {
      await this.verify(principal, url, id, params.delivery.secret);
      const start = await this.deps.log.start(resolved, params.cursor, params.maxAgeMs);
      if (this.closing.signal.aborted) throw callbackEndpointError('connection_refused');
      const subscription: Subscription = {
        id,
        principal,
        url,
        resolved,
        secret: params.delivery.secret,
        previous: undefined,
        expiresAt: 0,
        position: start.from,
        watermark: start.from,
        queue: [],
        attempt: 0,
        abandonedInRow: 0,
        status: { active: true, lastDeliveryAt: null, lastError: null, failedSince: null },
        wakeup: new Wakeup(),
        halt: new AbortController(),
        loop: undefined,
        expiry: undefined,
      };
      this.subscriptions.set(id, subscription);
      this.arm(subscription, ttlMs);
      subscription.loop = this.deliver(subscription);
      return this.result(subscription, start.truncated);
    } finally {
      this.reserved -= 1;
    }
  }

  private grant(ttlMs: number | null | undefined): number {
    const { defaultTtlMs, minTtlMs, maxTtlMs } = this.deps.options;
    if (ttlMs === undefined) return defaultTtlMs;
    if (ttlMs === null) return maxTtlMs;
    return Math.min(maxTtlMs, Math.max(minTtlMs, ttlMs));
  }

  private arm(subscription: Subscription, ttlMs: number): void {
    subscription.expiresAt = Date.now() + ttlMs;
    this.schedule(subscription);
  }

  private schedule(subscription: Subscription): void {
    clearTimeout(subscription.expiry);
    const remaining = subscription.expiresAt - Date.now();
    subscription.expiry = setTimeout(
      () => {
        if (subscription.expiresAt <= Date.now()) this.drop(subscription);
        else this.schedule(subscription);
      },
      Math.max(0, Math.min(remaining, MAX_TIMER_MS)),
    );
  }

  private result(subscription: Subscription, truncated: boolean): SubscribeEventsResult {
    return {
      id: subscription.id,
      refreshBefore: new Date(subscription.expiresAt).toISOString(),
      cursor: this.deps.log.cursor(subscription.resolved.type, subscription.watermark),
      truncated,
      deliveryStatus: { ...subscription.status },
    };
  }

  /** The handshake, unless this (principal, URL) was verified recently. */
  private async verify(principal: string, url: string, id: string, secret: string): Promise<void> {
    const key = canonicalJson([principal, url]);
    const until = this.verified.get(key);
    if (until !== undefined && until > Date.now()) return;
    this.verified.delete(key);
    const challenge = randomBytes(24).toString('base64url');
    const messageId = controlMessageId('verification');
    const body = JSON.stringify({ type: 'verification', challenge } satisfies WebhookControlBody);
    let outcome: Awaited<ReturnType<WebhookSender['send']>> | undefined;
    // A receiver not ready for this subscription yet answers 503 or 425: try twice more, briefly.
    for (let attempt = 0; attempt < VERIFICATION_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await sleep(VERIFICATION_RETRY_MS * attempt, this.closing.signal);
      outcome = await this.sender.send({
        url,
        subscriptionId: id,
        messageId,
        body,
        secrets: [secret],
        readBody: 64 * 1024,
        signal: this.closing.signal,
      });
      if (outcome.ok || (outcome.status !== 503 && outcome.status !== 425)) break;
    }
    if (!outcome) throw callbackEndpointError('connection_refused');
    if (!outcome.ok) {
      throw callbackEndpointError(
        outcome.category === 'http_4xx' || outcome.category === 'http_5xx'
          ? 'challenge_failed'
          : outcome.category,
      );
    }
    if (!sameChallenge(outcome.body, challenge)) throw callbackEndpointError('challenge_failed');
    this.verified.set(key, Date.now() + this.deps.options.verificationTtlMs);
  }

  private secrets(subscription: Subscription): string[] {
    const { previous } = subscription;
    if (previous && previous.until > Date.now()) return [subscription.secret, previous.secret];
    subscription.previous = undefined;
    return [subscription.secret];
  }

  /** The delivery loop of one subscription; returns once it is halted. */
  private async deliver(subscription: Subscription): Promise<void> {
    const { halt } = subscription;
    const { retry, suspendAfter } = this.deps.options;
    while (!halt.signal.aborted) {
      if (!subscription.status.active) {
        await subscription.wakeup.wait();
        continue;
      }
      const item = subscription.queue[0];
      if (!item) {
        if (!(await this.fill(subscription))) await subscription.wakeup.wait();
        continue;
      }
      const outcome = await this.post(subscription, item);
      if (halt.signal.aborted) break;
      if (outcome === 'delivered' || outcome === 'rejected') {
        this.settle(subscription, item);
        subscription.abandonedInRow = 0;
        continue;
      }
      if (outcome === 'final' || subscription.attempt + 1 >= retry.attempts) {
        this.settle(subscription, item);
        subscription.abandonedInRow += 1;
        if (subscription.abandonedInRow >= suspendAfter) subscription.status.active = false;
        continue;
      }
      subscription.attempt += 1;
      const delay = Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** (subscription.attempt - 1));
      await sleep(delay, halt.signal);
    }
  }

  /** Reads the next occurrences into the queue; false when there was nothing to read. */
  private async fill(subscription: Subscription): Promise<boolean> {
    try {
      const read = await this.deps.log.read(subscription.resolved, subscription.position, READ_BATCH);
      if (read.truncated) {
        subscription.watermark = read.from;
        subscription.queue.push(this.gap(subscription, read.from));
      }
      for (const event of read.events) subscription.queue.push({ kind: 'event', event });
      subscription.position = read.position;
      return subscription.queue.length > 0 || read.hasMore;
    } catch (error) {
      this.deps.logger().warn(`MCP webhook ${subscription.id}: event store read failed: ${describe(error)}`);
      await sleep(this.deps.options.retry.initialDelayMs, subscription.halt.signal);
      return true;
    }
  }

  private gap(subscription: Subscription, position: string): Item {
    return {
      kind: 'control',
      body: { type: 'gap', cursor: this.deps.log.cursor(subscription.resolved.type, position) },
    };
  }

  /** Done with the head of the queue (acknowledged or abandoned): the watermark moves past it. */
  private settle(subscription: Subscription, item: Item): void {
    subscription.queue.shift();
    subscription.attempt = 0;
    if (item.kind === 'event') subscription.watermark = item.event.position;
  }

  /** One attempt: delivered, rejected (410: the receiver does not want it), final or retry. */
  private async post(
    subscription: Subscription,
    item: Item,
  ): Promise<'delivered' | 'rejected' | 'final' | 'retry'> {
    let body: string;
    let messageId: string;
    if (item.kind === 'event') {
      const { occurrence } = item.event;
      messageId = occurrence.eventId;
      body = JSON.stringify({
        ...occurrence,
        cursor: this.deps.log.cursor(subscription.resolved.type, subscription.watermark),
      });
      if (Buffer.byteLength(body) > WEBHOOK_MAX_BODY_BYTES) {
        this.deps
          .logger()
          .warn(
            `MCP webhook ${subscription.id}: occurrence '${occurrence.eventId}' is over ${WEBHOOK_MAX_BODY_BYTES} bytes; sent as a gap`,
          );
        subscription.queue.splice(1, 0, this.gap(subscription, item.event.position));
        return 'final';
      }
    } else {
      messageId = controlMessageId(item.body.type);
      body = JSON.stringify(item.body);
    }
    const outcome = await this.sender.send({
      url: subscription.url,
      subscriptionId: subscription.id,
      messageId,
      body,
      secrets: this.secrets(subscription),
      signal: subscription.halt.signal,
    });
    if (outcome.ok) {
      subscription.status.lastDeliveryAt = new Date().toISOString();
      subscription.status.lastError = null;
      subscription.status.failedSince = null;
      return 'delivered';
    }
    if (outcome.status === 410) return 'rejected';
    subscription.status.lastError = outcome.category;
    subscription.status.failedSince ??= new Date().toISOString();
    return outcome.final ? 'final' : 'retry';
  }

  /** Stops the loop and timer and forgets the subscription. */
  private drop(subscription: Subscription): void {
    if (this.subscriptions.get(subscription.id) === subscription) this.subscriptions.delete(subscription.id);
    clearTimeout(subscription.expiry);
    subscription.halt.abort();
    subscription.wakeup.wake();
  }

  /** Drops the subscription, waits for its loop, then (unless only ending) POSTs `terminated` once. */
  private async end(subscription: Subscription, reason: ProtocolError | 'end'): Promise<void> {
    this.drop(subscription);
    await subscription.loop;
    if (reason === 'end') return;
    const closing = new AbortController();
    await this.sender
      .send({
        url: subscription.url,
        subscriptionId: subscription.id,
        messageId: controlMessageId('terminated'),
        body: JSON.stringify({ type: 'terminated', error: errorObject(reason) } satisfies WebhookControlBody),
        secrets: this.secrets(subscription),
        signal: closing.signal,
      })
      .catch(() => undefined);
  }
}

/** Deterministic over the subscription key; a routing handle, never accepted as input. */
function subscriptionId(principal: string, url: string, name: string, args: Record<string, unknown>): string {
  const key = canonicalJson([principal, url, name, args]);
  return `sub_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

function sameChallenge(body: string | undefined, challenge: string): boolean {
  if (body === undefined) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const answer = WebhookVerificationResponseSchema.safeParse(parsed);
  if (!answer.success) return false;
  const expected = Buffer.from(challenge);
  const received = Buffer.from(answer.data.challenge);
  return expected.length === received.length && timingSafeEqual(expected, received);
}
