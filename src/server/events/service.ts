/**
 * MCPServer's events: the shared state behind every SDK instance (event types, the store, open
 * push streams, webhook subscriptions, poll leases) and `attach()`, which gives one 2026-07-28
 * instance the `events/*` handlers and advertises the extension. Legacy instances are never
 * attached, so 2025-era clients neither see the capability nor reach a handler (-32601).
 *
 * Poll is stateless for replayable types (the cursor says everything). A type without replay
 * hands out `null` cursors, so its pollers are tracked by a short lease per (principal, event,
 * arguments) that remembers how far they read; callers without a principal who poll the same
 * event with the same arguments share one lease.
 */
import { randomUUID } from 'node:crypto';
import type { IMastraLogger } from '@mastra/core/logger';
import type { AuthInfo, Server, ServerContext } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import {
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  EVENTS_EXTENSION_ID,
  EVENTS_METHODS,
  ListEventsParamsSchema,
  type PollEventsParams,
  PollEventsParamsSchema,
  type PollEventsResult,
  type StreamEventsParams,
  StreamEventsParamsSchema,
  type StreamEventsResult,
  SubscribeEventsParamsSchema,
  UnsubscribeEventsParamsSchema,
} from '../../shared/events-wire.js';
import { sleep } from '../../shared/sleep.js';
import { defaultPrincipal } from '../auth/principal.js';
import { requestParams } from '../request-errors.js';
import { eventRemoved, serverClosing, unsupported } from './errors.js';
import { EventLog, notBeforeOf } from './event-log.js';
import { describe, EventTypes } from './event-types.js';
import { InMemoryMCPEventStore } from './memory-store.js';
import { PushStream } from './push-stream.js';
import type {
  MCPEmitOptions,
  MCPEmittedEvent,
  MCPEventTypeConfig,
  MCPServerEvents,
  MCPServerEventsConfig,
} from './types.js';
import { resolveWebhookOptions } from './webhook-options.js';
import { WebhookSubscriptions } from './webhooks.js';

/** How long `close()` waits for push streams to write their last frames. */
const CLOSE_GRACE_MS = 5000;

/** What one SDK instance can do with events. */
export interface EventsScope {
  /** Whether requests can hold a stream open (false for JSON-only serverless responses). */
  streaming: boolean;
}

interface PollLease {
  position: string;
  expiresAt: number;
}

export class EventsService {
  readonly api: MCPServerEvents;
  private readonly types: EventTypes;
  private readonly log: EventLog;
  private readonly webhooks: WebhookSubscriptions | undefined;
  private readonly streams = new Set<PushStream>();
  private readonly leases = new Map<string, PollLease>();
  private readonly streamWaiters = new Set<() => void>();
  private readonly principal: (authInfo: AuthInfo) => string | undefined;
  private readonly heartbeatIntervalMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxPollEvents: number;
  private readonly listPageSize: number;
  private readonly unwatch: (() => void) | undefined;
  private nextLeaseSweep = 0;
  private closed = false;

  constructor(
    private readonly config: MCPServerEventsConfig | undefined,
    private readonly logger: () => IMastraLogger,
  ) {
    this.heartbeatIntervalMs = Math.max(1, config?.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS);
    this.pollIntervalMs = Math.max(0, config?.pollIntervalMs ?? 5000);
    this.maxPollEvents = Math.max(1, config?.maxPollEvents ?? 100);
    this.listPageSize = Math.max(1, config?.listPageSize ?? 100);
    this.principal = (config?.webhook ? config.webhook.principal : undefined) ?? defaultPrincipal;
    this.types = new EventTypes({ webhook: config?.webhook !== false, logger });
    for (const [name, type] of Object.entries(config?.types ?? {})) this.types.define(name, type);
    const store = config?.store ?? new InMemoryMCPEventStore();
    this.log = new EventLog(store);
    this.unwatch = config ? store.watch?.((name) => this.wake(name)) : undefined;
    if (config && config.webhook !== false) {
      this.webhooks = new WebhookSubscriptions({
        options: resolveWebhookOptions(config.webhook),
        queue: config.webhook?.queue,
        types: this.types,
        log: this.log,
        logger,
      });
    }
    this.api = {
      emit: (name, data, options) => this.emit(name, data, options),
      define: (name, type) => this.define(name, type),
      remove: (name) => this.remove(name),
      list: () =>
        this.types.descriptors().map(({ name, description, delivery }) => ({
          name,
          delivery,
          ...(description !== undefined ? { description } : {}),
        })),
      stats: () => ({
        streams: this.streams.size,
        webhookSubscriptions: this.webhooks?.size ?? 0,
        suspendedWebhooks: this.webhooks?.suspended ?? 0,
        pollLeases: this.leases.size,
      }),
    };
  }

  /** Whether the server was configured with events (and so advertises the extension). */
  get enabled(): boolean {
    return this.config !== undefined;
  }

  /** Registers the `events/*` handlers on one 2026-07-28 instance and declares the extension. */
  attach(server: Server, scope: EventsScope): void {
    if (!this.enabled) return;
    server.registerCapabilities({ extensions: { [EVENTS_EXTENSION_ID]: {} } });
    server.setRequestHandler(
      EVENTS_METHODS.list,
      { params: requestParams(ListEventsParamsSchema) },
      (params) => this.types.page(params.cursor, this.listPageSize, scope.streaming),
    );
    server.setRequestHandler(
      EVENTS_METHODS.poll,
      { params: requestParams(PollEventsParamsSchema) },
      (params, ctx) => this.poll(params, authInfoOf(ctx)),
    );
    server.setRequestHandler(
      EVENTS_METHODS.stream,
      { params: requestParams(StreamEventsParamsSchema) },
      (params, ctx) => this.stream(params, ctx, scope),
    );
    const webhooks = this.webhooks;
    if (!webhooks) return;
    server.setRequestHandler(
      EVENTS_METHODS.subscribe,
      { params: requestParams(SubscribeEventsParamsSchema) },
      (params, ctx) => this.open(() => webhooks.subscribe(params, authInfoOf(ctx))),
    );
    server.setRequestHandler(
      EVENTS_METHODS.unsubscribe,
      { params: requestParams(UnsubscribeEventsParamsSchema) },
      async (params, ctx) => {
        await this.open(() => webhooks.unsubscribe(params, authInfoOf(ctx)));
        return {};
      },
    );
  }

  /** Ends every push stream and webhook subscription, then stops: no timer or request is left. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unwatch?.();
    const reason = this.config?.onClose === 'terminate' ? serverClosing() : 'end';
    for (const stream of this.streams) stream.stop(reason);
    // A stream blocked on a client that stopped reading is not waited for beyond the grace period.
    const grace = new AbortController();
    const streams = Promise.race([this.streamsEnded(), sleep(CLOSE_GRACE_MS, grace.signal)]);
    await Promise.allSettled([this.webhooks?.close(reason), streams]);
    grace.abort();
    // Let the SDK write each stream's final result before the caller closes the transports.
    await new Promise((resolve) => setImmediate(resolve));
    this.leases.clear();
  }

  private streamsEnded(): Promise<void> {
    if (this.streams.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.streamWaiters.add(resolve));
  }

  private open<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(serverClosing());
    return work();
  }

  private wake(name: string): void {
    for (const stream of this.streams) if (stream.name === name) stream.wake();
    this.webhooks?.wake(name);
  }

  private define(name: string, type: MCPEventTypeConfig): void {
    if (!this.enabled) {
      throw mcpError(
        MCPErrorCode.SERVER_EVENTS_NOT_CONFIGURED,
        'events: configure `events` on the MCPServer to define event types',
        { event: name },
      );
    }
    this.types.define(name, type);
  }

  private async remove(name: string): Promise<boolean> {
    if (!this.types.remove(name)) return false;
    const reason = eventRemoved(name);
    for (const stream of this.streams) if (stream.name === name) stream.stop(reason);
    for (const key of this.leases.keys()) if (JSON.parse(key)[1] === name) this.leases.delete(key);
    await this.webhooks?.terminate(name, reason);
    return true;
  }

  private async emit(
    name: string,
    data: Record<string, unknown>,
    options: MCPEmitOptions = {},
  ): Promise<MCPEmittedEvent> {
    if (this.closed)
      throw mcpError(MCPErrorCode.SERVER_EVENTS_CLOSED, `events: cannot emit '${name}' after close()`, {
        event: name,
      });
    const type = this.types.get(name);
    if (!type)
      throw mcpError(MCPErrorCode.SERVER_UNKNOWN_EVENT_TYPE, `events: unknown event type '${name}'`, {
        event: name,
      });
    let payload: unknown = data;
    if (type.payload) {
      const outcome = await type.payload.validate(data);
      if ('issues' in outcome)
        throw mcpError(
          MCPErrorCode.SERVER_INVALID_EVENT_DATA,
          `Invalid data for event '${name}': ${outcome.issues.join('; ')}`,
          { event: name },
        );
      payload = outcome.value;
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      throw mcpError(
        MCPErrorCode.SERVER_INVALID_EVENT_DATA,
        `Invalid data for event '${name}': an occurrence's data is a JSON object`,
        { event: name },
      );
    }
    const timestamp = options.timestamp ?? new Date();
    const occurrence = {
      eventId: options.eventId ?? randomUUID(),
      name,
      timestamp: typeof timestamp === 'string' ? new Date(timestamp).toISOString() : timestamp.toISOString(),
      data: payload as Record<string, unknown>,
      ...(options._meta ? { _meta: options._meta } : {}),
    };
    const stored = await this.log.store.append(occurrence);
    if (!this.log.store.watch) this.wake(name);
    await this.webhooks?.published(stored);
    return { ...occurrence, cursor: this.log.cursor(type, stored.position) };
  }

  private async poll(params: PollEventsParams, authInfo: AuthInfo | undefined): Promise<PollEventsResult> {
    if (this.closed) throw serverClosing();
    const subscription = await this.types.resolve(params.name, params.arguments, 'poll', authInfo);
    const limit = Math.min(params.maxEvents ?? this.maxPollEvents, this.maxPollEvents);
    const base = { nextPollMs: this.pollIntervalMs };
    if (!subscription.type.replay) {
      const key = canonicalJson([this.principalOf(authInfo) ?? null, params.name, params.arguments ?? {}]);
      const lease = this.lease(key);
      if (!lease) {
        this.leases.set(key, { position: await this.log.head(), expiresAt: this.leaseExpiry() });
        return { events: [], cursor: null, truncated: false, hasMore: false, ...base };
      }
      const read = await this.log.read(subscription, lease.position, limit);
      this.leases.set(key, { position: read.position, expiresAt: this.leaseExpiry() });
      const events = read.events.map((event) => event.occurrence);
      return { events, cursor: null, truncated: false, hasMore: read.hasMore, ...base };
    }
    // A null cursor starts now; a cursor of another store epoch starts now too, as a gap.
    const position =
      params.cursor === null || params.cursor === undefined ? null : this.log.position(params.cursor);
    if (position === null || position === undefined) {
      const head = await this.log.head();
      const truncated = position === undefined;
      return {
        events: [],
        cursor: this.log.cursor(subscription.type, head),
        truncated,
        hasMore: false,
        ...base,
      };
    }
    const read = await this.log.read(subscription, position, limit, notBeforeOf(params.maxAgeMs));
    return {
      events: read.events.map((event) => event.occurrence),
      cursor: this.log.cursor(subscription.type, read.position),
      truncated: read.truncated,
      hasMore: read.hasMore,
      ...base,
    };
  }

  private async stream(
    params: StreamEventsParams,
    ctx: ServerContext,
    scope: EventsScope,
  ): Promise<StreamEventsResult> {
    if (this.closed) throw serverClosing();
    if (!scope.streaming) {
      throw unsupported('This endpoint answers in JSON and cannot hold a push stream open', {
        feature: 'deliveryMode',
        value: 'push',
      });
    }
    const subscription = await this.types.resolve(params.name, params.arguments, 'push', authInfoOf(ctx));
    const start = await this.log.start(subscription, params.cursor, params.maxAgeMs);
    const stream = new PushStream({
      log: this.log,
      subscription,
      start,
      heartbeatIntervalMs: this.heartbeatIntervalMs,
      ctx,
      onStoreError: (error) => this.logger().warn(`MCP events: store read failed: ${describe(error)}`),
    });
    this.streams.add(stream);
    try {
      return await stream.run();
    } finally {
      this.streams.delete(stream);
      if (this.streams.size === 0) {
        for (const resolve of this.streamWaiters) resolve();
        this.streamWaiters.clear();
      }
    }
  }

  private principalOf(authInfo: AuthInfo | undefined): string | undefined {
    return authInfo ? this.principal(authInfo) : undefined;
  }

  private lease(key: string): PollLease | undefined {
    const now = Date.now();
    if (now >= this.nextLeaseSweep) {
      this.nextLeaseSweep = now + 10_000;
      for (const [leaseKey, lease] of this.leases) if (lease.expiresAt <= now) this.leases.delete(leaseKey);
    }
    const lease = this.leases.get(key);
    return lease && lease.expiresAt > now ? lease : undefined;
  }

  /** A lease outlives a generous number of missed polls. */
  private leaseExpiry(): number {
    return Date.now() + Math.max(60_000, this.pollIntervalMs * 10);
  }
}

function authInfoOf(ctx: ServerContext): AuthInfo | undefined {
  return ctx.http?.authInfo;
}
