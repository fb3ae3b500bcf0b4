/**
 * Webhook subscriptions (`events/subscribe`, `events/unsubscribe`): keyed by (principal, URL,
 * event, canonical arguments) with a deterministic id; idempotent refresh (new secret with a
 * dual-signing grace window, TTL granted again, delivery reactivated); a cap; the verification
 * handshake before the first delivery to a (principal, URL); TTL expiry.
 *
 * Where subscriptions live and how deliveries run is the `webhook.queue`'s (webhook-delivery.ts):
 * by default in this process (webhook-loops.ts), or shared by every instance through Redis. The
 * cap is checked atomically by the registry; `reserved` also counts this process' subscriptions
 * still in their handshake. No-expiry grants are never made (`ttlMs: null` gets `maxTtlMs`).
 * `close()` stops every loop and timer and aborts requests in flight before it reports done; it
 * ends the subscriptions only when they live in this process.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IMastraLogger } from '@mastra/core/logger';
import type { AuthInfo, ProtocolError } from '@modelcontextprotocol/server';
import { canonicalJson } from '../../shared/canonical-json.js';
import {
  decodeWebhookSecret,
  type SubscribeEventsParams,
  type SubscribeEventsResult,
  type UnsubscribeEventsParams,
  type WebhookControlBody,
  WebhookVerificationResponseSchema,
} from '../../shared/events-wire.js';
import { sleep } from '../../shared/sleep.js';
import type { MCPStoredEvent, MCPWebhookQueue, WebhookDelivery, WebhookRecord } from './contracts.js';
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
import { inMemoryWebhookQueue } from './webhook-loops.js';
import type { ResolvedWebhookOptions } from './webhook-options.js';
import { initialStatus, signingSecrets } from './webhook-registry.js';
import { bareHost, controlMessageId, isNonPublicAddress, WebhookSender } from './webhook-sender.js';

const VERIFICATION_ATTEMPTS = 3;
const VERIFICATION_RETRY_MS = 200;

export interface WebhookSubscriptionsDeps {
  options: ResolvedWebhookOptions;
  queue: MCPWebhookQueue | undefined;
  types: EventTypes;
  log: EventLog;
  logger: () => IMastraLogger;
}

export class WebhookSubscriptions {
  private readonly pending = new Map<string, Promise<SubscribeEventsResult>>();
  private readonly sender: WebhookSender;
  private readonly delivery: WebhookDelivery;
  private readonly closing = new AbortController();
  private reserved = 0;

  constructor(private readonly deps: WebhookSubscriptionsDeps) {
    const { fetch, timeoutMs, allowPrivateAddresses } = deps.options;
    this.sender = new WebhookSender({ fetch, timeoutMs, allowPrivateAddresses });
    this.delivery = (deps.queue ?? inMemoryWebhookQueue).open({
      options: deps.options,
      types: deps.types,
      log: deps.log,
      sender: this.sender,
      logger: deps.logger,
    });
  }

  get size(): number {
    return this.delivery.registry.counts().subscriptions;
  }

  /** Subscriptions whose delivery is suspended until their next refresh. */
  get suspended(): number {
    return this.delivery.registry.counts().suspended;
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
    if (!(await this.delivery.registry.delete(id))) {
      throw notFound('No such webhook subscription', { kind: 'subscription' });
    }
    await this.delivery.stop(id);
  }

  /** `emit()` stored `event`; rejects when a shared queue could not take its deliveries. */
  published(event: MCPStoredEvent): Promise<void> {
    return this.delivery.published(event);
  }

  /** Occurrences of `name` may be waiting. */
  wake(name: string): void {
    this.delivery.wake(name);
  }

  /** Ends every subscription to `name` with a `terminated` body carrying `reason`. */
  async terminate(name: string, reason: ProtocolError): Promise<void> {
    const ending = await this.delivery.registry.list(name);
    const ended = await Promise.allSettled(ending.map((record) => this.end(record, reason)));
    for (const outcome of ended) {
      if (outcome.status === 'rejected')
        this.deps
          .logger()
          .warn(`MCP events: ending a webhook of '${name}' failed: ${describe(outcome.reason)}`);
    }
  }

  async close(reason: ProtocolError | 'end'): Promise<void> {
    this.closing.abort();
    if (!this.delivery.shared) {
      const ending = await this.delivery.registry.list();
      await Promise.allSettled(ending.map((record) => this.end(record, reason)));
    }
    await this.delivery.close();
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
    const { registry } = this.delivery;
    const { maxSubscriptions, secretGraceMs } = this.deps.options;
    const expiresAt = Date.now() + this.grant(params.ttlMs);
    const change = { secret: params.delivery.secret, graceUntil: Date.now() + secretGraceMs, expiresAt };
    const before = await registry.refresh(id, change);
    if (before) return this.refreshed(before, resolved, expiresAt);
    if (this.size + this.reserved >= maxSubscriptions) throw this.full();
    this.reserved += 1;
    try {
      const created = await this.create(id, principal, url, resolved, params, expiresAt);
      if (created) return created;
    } finally {
      this.reserved -= 1;
    }
    // Another instance (or a request racing this one) created it meanwhile: this call refreshes it.
    const raced = await registry.refresh(id, change);
    if (raced) return this.refreshed(raced, resolved, expiresAt);
    throw notFound('The webhook subscription was removed while it was being created; subscribe again', {
      kind: 'subscription',
    });
  }

  /** A new subscription after the handshake; undefined when one with its id appeared meanwhile. */
  private async create(
    id: string,
    principal: string,
    url: string,
    resolved: ResolvedSubscription,
    params: SubscribeEventsParams,
    expiresAt: number,
  ): Promise<SubscribeEventsResult | undefined> {
    await this.verify(principal, url, id, params.delivery.secret);
    const start = await this.deps.log.start(resolved, params.cursor, params.maxAgeMs);
    if (this.closing.signal.aborted) throw callbackEndpointError('connection_refused');
    const record: WebhookRecord = {
      id,
      principal,
      url,
      name: resolved.type.name,
      args: resolved.args,
      secret: params.delivery.secret,
      previous: undefined,
      expiresAt,
      status: initialStatus(),
      abandonedInRow: 0,
      watermark: start.from,
    };
    const created = await this.delivery.registry.create(record, this.deps.options.maxSubscriptions);
    if (created === 'full') throw this.full();
    if (created === 'exists') return undefined;
    try {
      await this.delivery.start(record, resolved, start.from);
    } catch (error) {
      await this.delivery.registry.delete(id).catch(() => false);
      throw error;
    }
    return this.result(record, start.truncated);
  }

  /** The answer to a refresh: the status as it was (`active: false` tells it was just reactivated). */
  private async refreshed(
    before: WebhookRecord,
    resolved: ResolvedSubscription,
    expiresAt: number,
  ): Promise<SubscribeEventsResult> {
    const result = this.result({ ...before, expiresAt }, false);
    await this.delivery.refreshed(before, resolved, !before.status.active);
    return result;
  }

  private full(): ProtocolError {
    const { maxSubscriptions } = this.deps.options;
    return resourceExhausted(`At most ${maxSubscriptions} webhook subscriptions`, {
      limit: 'subscriptions',
      max: maxSubscriptions,
    });
  }

  private grant(ttlMs: number | null | undefined): number {
    const { defaultTtlMs, minTtlMs, maxTtlMs } = this.deps.options;
    if (ttlMs === undefined) return defaultTtlMs;
    if (ttlMs === null) return maxTtlMs;
    return Math.min(maxTtlMs, Math.max(minTtlMs, ttlMs));
  }

  private result(record: WebhookRecord, truncated: boolean): SubscribeEventsResult {
    const type = this.deps.types.get(record.name);
    return {
      id: record.id,
      refreshBefore: new Date(record.expiresAt).toISOString(),
      cursor: type ? this.deps.log.cursor(type, record.watermark) : null,
      truncated,
      deliveryStatus: { ...record.status },
    };
  }

  /** The handshake, unless this (principal, URL) was verified recently. */
  private async verify(principal: string, url: string, id: string, secret: string): Promise<void> {
    const key = canonicalJson([principal, url]);
    if (await this.delivery.registry.verified(key)) return;
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
    await this.delivery.registry.markVerified(key, this.deps.options.verificationTtlMs);
  }

  /** Stops the subscription's work here, removes it, then (unless only ending) POSTs `terminated` once. */
  private async end(record: WebhookRecord, reason: ProtocolError | 'end'): Promise<void> {
    await this.delivery.stop(record.id);
    await this.delivery.registry.delete(record.id);
    if (reason === 'end') return;
    const closing = new AbortController();
    await this.sender
      .send({
        url: record.url,
        subscriptionId: record.id,
        messageId: controlMessageId('terminated'),
        body: JSON.stringify({ type: 'terminated', error: errorObject(reason) } satisfies WebhookControlBody),
        secrets: signingSecrets(record),
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
