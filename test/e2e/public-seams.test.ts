/**
 * The interfaces users implement, implemented here from the public entry point alone (nothing of
 * src/ but `../src/index.js`), in memory, and plugged into what they serve: an MCPServer with our
 * MCPEventStore and MCPWebhookQueue delivering an emitted occurrence to a webhook receiver on
 * 127.0.0.1; two MCPServers relaying a list change over our MCPServerEventBus; an MCPClient whose
 * MCPOAuthClientProvider keeps its token in our OAuthStorage, checked by our TokenValidator; an
 * MCPEventsSignalProvider keeping its resume cursor in our MCPEventCursorStore. If a type one of
 * them needs stops being exported, this file stops compiling.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createTool } from '@mastra/core/tools';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createOAuthMiddleware,
  MCPClient,
  type MCPEventCursorStore,
  type MCPEventStore,
  type MCPEventStoreFilter,
  type MCPEventStoreReadResult,
  MCPEventsSignalProvider,
  MCPOAuthClientProvider,
  MCPServer,
  type MCPServerBusEvent,
  type MCPServerConfig,
  type MCPServerEventBus,
  type MCPServerEventBusListener,
  type MCPStoredEvent,
  type MCPWebhookQueue,
  type OAuthStorage,
  type TokenValidator,
  type WebhookDelivery,
  type WebhookDeliveryContext,
  type WebhookRecord,
  type WebhookRefresh,
  type WebhookRegistry,
  type WebhookReport,
  type WebhookSubscription,
} from '../../src/index.js';
import { agentWith } from '../fixtures/signals-agent.js';
import { startWebhookReceiver } from '../fixtures/webhook-receiver.js';
import { bearerAuth, newClient, serveHttp } from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Occurrences in an array; a position is how many occurrences precede it ('0': the start). */
class ArrayEventStore implements MCPEventStore {
  readonly epoch = 'array-store';
  readonly events: MCPStoredEvent[] = [];

  async append(occurrence: MCPStoredEvent['occurrence']): Promise<MCPStoredEvent> {
    const stored = { position: String(this.events.length + 1), occurrence };
    this.events.push(stored);
    return stored;
  }

  async head(): Promise<string> {
    return String(this.events.length);
  }

  async readAfter(
    after: string,
    filter: MCPEventStoreFilter,
    limit: number,
  ): Promise<MCPEventStoreReadResult> {
    const start = Number(after);
    if (!/^\d+$/.test(after) || start > this.events.length) throw new RangeError(`no position '${after}'`);
    const events: MCPStoredEvent[] = [];
    let from = after;
    let position = after;
    for (const stored of this.events.slice(start)) {
      if (events.length === limit)
        return { events, from, position, truncated: from !== after, hasMore: true };
      position = stored.position;
      const { occurrence } = stored;
      if (occurrence.name !== filter.name) continue;
      // Timestamps only grow, so every skipped occurrence precedes the first returned one.
      if (filter.notBefore !== undefined && Date.parse(occurrence.timestamp) < filter.notBefore) {
        from = stored.position;
        continue;
      }
      if (filter.match?.(occurrence) === false) continue;
      events.push(stored);
    }
    return { events, from, position, truncated: from !== after, hasMore: false };
  }
}

/** Subscriptions in a Map; an expired one reads as absent. */
class MapWebhookRegistry implements WebhookRegistry {
  private readonly records = new Map<string, WebhookRecord>();
  private readonly verifiedUntil = new Map<string, number>();

  counts() {
    const live = [...this.records.values()].filter((record) => record.expiresAt > Date.now());
    return { subscriptions: live.length, suspended: live.filter((record) => !record.status.active).length };
  }

  async get(id: string) {
    const record = this.records.get(id);
    return record && record.expiresAt > Date.now() ? record : undefined;
  }

  async list(name?: string) {
    return [...this.records.values()].filter(
      (record) => (name === undefined || record.name === name) && record.expiresAt > Date.now(),
    );
  }

  async create(record: WebhookRecord, max: number) {
    if (await this.get(record.id)) return 'exists';
    this.records.delete(record.id);
    if (this.counts().subscriptions >= max) return 'full';
    this.records.set(record.id, record);
    return 'created';
  }

  async refresh(id: string, change: WebhookRefresh) {
    const record = await this.get(id);
    if (!record) return undefined;
    const before = { ...record, status: { ...record.status } };
    if (record.secret !== change.secret) {
      record.previous = { secret: record.secret, until: change.graceUntil };
      record.secret = change.secret;
    }
    record.expiresAt = change.expiresAt;
    record.abandonedInRow = 0;
    record.status.active = true;
    return before;
  }

  async delete(id: string) {
    const wasLive = (await this.get(id)) !== undefined;
    this.records.delete(id);
    return wasLive;
  }

  async report(id: string, report: WebhookReport) {
    const record = await this.get(id);
    if (!record) return;
    if (report.kind === 'delivered') {
      record.status = {
        ...record.status,
        lastDeliveryAt: new Date().toISOString(),
        lastError: null,
        failedSince: null,
      };
    }
    if (report.kind === 'failed') {
      record.status.lastError = report.error;
      record.status.failedSince ??= new Date().toISOString();
    }
    if (report.kind === 'delivered' || report.kind === 'rejected') record.abandonedInRow = 0;
    if (report.kind === 'abandoned' && ++record.abandonedInRow >= report.suspendAfter)
      record.status.active = false;
  }

  async verified(key: string) {
    return (this.verifiedUntil.get(key) ?? 0) > Date.now();
  }

  async markVerified(key: string, ttlMs: number) {
    this.verifiedUntil.set(key, Date.now() + ttlMs);
  }
}

/**
 * Sends each occurrence once, as `emit()` publishes it, to every matching subscription, and
 * `emit()` waits for those POSTs: no retries and no catching up, the least a queue may do.
 */
const fanOutQueue: MCPWebhookQueue = {
  open(context: WebhookDeliveryContext): WebhookDelivery {
    const registry = new MapWebhookRegistry();
    const subscriptions = new Map<string, WebhookSubscription>();
    const closing = new AbortController();
    const send = async (record: WebhookRecord, subscription: WebhookSubscription, stored: MCPStoredEvent) => {
      const previous = record.previous && record.previous.until > Date.now() ? [record.previous.secret] : [];
      const outcome = await context.sender.send({
        url: record.url,
        subscriptionId: record.id,
        messageId: stored.occurrence.eventId,
        body: JSON.stringify({
          ...stored.occurrence,
          cursor: context.log.cursor(subscription.type, stored.position),
        }),
        secrets: [record.secret, ...previous],
        signal: closing.signal,
      });
      await registry.report(
        record.id,
        outcome.ok ? { kind: 'delivered' } : { kind: 'failed', error: outcome.category },
      );
      record.watermark = stored.position;
    };
    return {
      registry,
      shared: false,
      async start(record, subscription, from) {
        record.watermark = from;
        subscriptions.set(record.id, subscription);
      },
      async refreshed(record, subscription) {
        subscriptions.set(record.id, subscription);
      },
      async published(stored) {
        const records = await registry.list(stored.occurrence.name);
        await Promise.all(
          records.flatMap((record) => {
            const subscription = subscriptions.get(record.id);
            return subscription?.match(stored.occurrence) ? [send(record, subscription, stored)] : [];
          }),
        );
      },
      wake() {},
      async stop(id) {
        subscriptions.delete(id);
      },
      async close() {
        closing.abort();
        subscriptions.clear();
      },
    };
  },
};

/** Members of each server id in one process; `publish` reaches the others, never the publisher. */
class LocalEventBus implements MCPServerEventBus {
  private readonly members = new Map<string, Set<MCPServerEventBusListener>>();

  join(serverId: string, listener: MCPServerEventBusListener) {
    const members = this.members.get(serverId) ?? new Set();
    this.members.set(serverId, members.add(listener));
    return {
      publish: async (event: MCPServerBusEvent) => {
        for (const member of members) if (member !== listener) member.deliver(event);
      },
      leave: async () => {
        members.delete(listener);
      },
    };
  }
}

/** Key-value entries in a Map, as a database table would hold them. */
class MapOAuthStorage implements OAuthStorage {
  readonly entries = new Map<string, string>();

  async get(key: string) {
    return this.entries.get(key);
  }

  async set(key: string, value: string) {
    this.entries.set(key, value);
  }

  async delete(key: string) {
    this.entries.delete(key);
  }
}

/** Resume cursors in a Map, as a database table would hold them. */
class MapCursorStore implements MCPEventCursorStore {
  readonly cursors = new Map<string, string>();

  get(key: string) {
    return this.cursors.get(key);
  }

  set(key: string, cursor: string) {
    this.cursors.set(key, cursor);
  }

  delete(key: string) {
    this.cursors.delete(key);
  }
}

const pingServer = (config: Partial<MCPServerConfig> = {}) => {
  const server = new MCPServer({ name: 'seams', version: '1.0.0', tools: {}, ...config });
  cleanups.push(() => server.close());
  return server;
};

async function modernClient(url: URL, token: string): Promise<Client> {
  const client = newClient('modern');
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

describe('public seams, implemented from the public entry point', () => {
  it('an MCPEventStore and an MCPWebhookQueue: an emitted occurrence is stored and delivered, signed', async () => {
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const store = new ArrayEventStore();
    const server = pingServer({
      events: {
        store,
        types: { 'seam.ping': { description: 'A ping', payloadSchema: z.object({ n: z.number() }) } },
        webhook: { queue: fanOutQueue, fetch: receiver.fetch, allowPrivateAddresses: true },
      },
    });
    const served = await serveHttp(server, { before: bearerAuth });
    cleanups.push(() => served.close());
    const client = await modernClient(served.mcpUrl, 'alice');
    const secret = `whsec_${randomBytes(32).toString('base64')}`;

    const subscribed = await client.request(
      {
        method: 'events/subscribe',
        params: {
          name: 'seam.ping',
          arguments: {},
          delivery: { mode: 'webhook', url: receiver.url, secret },
          cursor: null,
        },
      },
      z.looseObject({ id: z.string(), cursor: z.string() }),
    );
    expect(server.events.stats().webhookSubscriptions).toBe(1);
    await server.events.emit('seam.ping', { n: 1 }, { eventId: 'evt-1' });

    expect(store.events.map((stored) => stored.occurrence.eventId)).toEqual(['evt-1']);
    const deliveries = receiver.received.filter((request) => request.json.type !== 'verification');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.headers['x-mcp-subscription-id']).toBe(subscribed.id);
    const delivered = new Webhook(secret).verify(deliveries[0]?.body ?? '', deliveries[0]?.headers ?? {});
    expect(delivered).toMatchObject({ eventId: 'evt-1', name: 'seam.ping', data: { n: 1 } });
    // The cursor our store's position became reads back after that occurrence.
    const polled = await client.request(
      { method: 'events/poll', params: { name: 'seam.ping', arguments: {}, cursor: subscribed.cursor } },
      z.looseObject({ events: z.array(z.looseObject({ eventId: z.string() })) }),
    );
    expect(polled.events.map((event) => event.eventId)).toEqual(['evt-1']);
  });

  it('an MCPServerEventBus: a list change on one instance reaches a listener of the other', async () => {
    const bus = new LocalEventBus();
    const first = pingServer({ id: 'seams-bus', notifications: { bus } });
    const second = pingServer({ id: 'seams-bus', notifications: { bus } });
    const served = await serveHttp(second);
    cleanups.push(() => served.close());
    const client = await modernClient(served.mcpUrl, 'anyone');
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });
    const listen = await client.listen({ toolsListChanged: true });
    cleanups.push(() => listen.close());

    await first.toolActions.notifyListChanged();
    await eventually('the list change on the other instance', () => changes === 1);
  });

  it('an OAuthStorage: the provider keeps its token there and the client presents it', async () => {
    const presented: string[] = [];
    const validateToken: TokenValidator = async (token) => {
      presented.push(token);
      return { valid: token === 'stored-token' };
    };
    const server = pingServer({
      tools: {
        ping: createTool({ id: 'ping', description: 'Answers pong', execute: async () => 'pong' }),
      },
    });
    const guard = createOAuthMiddleware({
      oauth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://as.example.com'],
        validateToken,
      },
    });
    const listener = await listenLocal(
      http.createServer(async (req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if ((await guard(req, res, url)).proceed) await server.startHTTP({ url, httpPath: '/mcp', req, res });
      }),
    );
    cleanups.push(() => listener.close());

    const storage = new MapOAuthStorage();
    const options = {
      redirectUrl: 'http://127.0.0.1:5533/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1:5533/callback'] },
      clientInformation: { client_id: 'seams' },
      storage,
    };
    await new MCPOAuthClientProvider(options).saveTokens({
      access_token: 'stored-token',
      token_type: 'Bearer',
    });
    expect(JSON.parse(storage.entries.get('tokens') ?? '{}')).toMatchObject({ access_token: 'stored-token' });

    const mcp = new MCPClient({
      id: 'seams-oauth',
      registerProcessHooks: false,
      servers: {
        guarded: { url: new URL(`${listener.url}/mcp`), authProvider: new MCPOAuthClientProvider(options) },
      },
    });
    cleanups.push(() => mcp.disconnect());
    expect(Object.keys(await mcp.listTools())).toEqual(['guarded_ping']);
    expect(presented).toContain('stored-token');
  });

  it('an MCPEventCursorStore: the signal provider stores the cursor of what it delivered to a thread', async () => {
    const server = pingServer({
      events: { store: new ArrayEventStore(), types: { 'seam.ping': { description: 'A ping' } } },
    });
    const served = await serveHttp(server);
    cleanups.push(() => served.close());
    const mcp = new MCPClient({
      id: 'seams-cursors',
      registerProcessHooks: false,
      servers: { seams: { url: served.mcpUrl, protocolVersion: '2026-07-28' } },
    });
    cleanups.push(() => mcp.disconnect());
    const cursors = new MapCursorStore();
    const signals = new MCPEventsSignalProvider({ client: mcp, cursorStore: cursors });
    cleanups.push(() => signals.stop());
    agentWith(signals);
    const selection = { server: 'seams', event: 'seam.ping' };
    await signals.subscribeThread({ resourceId: 'user', threadId: 'thread' }, selection);

    const emitted = await server.events.emit('seam.ping', { n: 1 });
    const key = MCPEventsSignalProvider.key(selection);
    await eventually('the cursor stored', () => cursors.cursors.get(key) === emitted.cursor);
  });
});
