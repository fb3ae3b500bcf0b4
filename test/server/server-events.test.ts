/**
 * MCPServer's events (SEP-3415) over real transports against the SDK's own Client: HTTP on
 * 127.0.0.1 and a stdio child process, pinned to 2026-07-28, with the wire schemas of
 * src/shared/events-wire.ts. Webhooks go to a real https receiver with a certificate made for the test.
 */
import {
  type Client,
  ProtocolError,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InMemoryMCPEventStore,
  MCPErrorCode,
  type MCPServer,
  type MCPServerEventsConfig,
} from '../../src/index.js';
import {
  EVENTS_EXTENSION_ID,
  EVENTS_NOTIFICATIONS,
  generateWebhookSecret,
  ListEventsResultSchema,
  PollEventsResultSchema,
  StreamEventsResultSchema,
  SUBSCRIPTION_ID_META_KEY,
  SubscribeEventsResultSchema,
  UnsubscribeEventsResultSchema,
} from '../../src/shared/events-wire.js';
import { eventsServer } from '../fixtures/events.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { bearerAuth, connectStdio, type Era, type HttpHarness, newClient, serveHttp } from '../helpers.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

interface Frame {
  method: string;
  params: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

/** Every notification the client receives, in order. */
function collect(client: Client): Frame[] {
  const frames: Frame[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    frames.push(notification as Frame);
  };
  return frames;
}

const framesOf = (frames: Frame[], id: unknown) =>
  frames.filter((frame) => frame.params._meta?.[SUBSCRIPTION_ID_META_KEY] === id);

async function serve(events: Partial<MCPServerEventsConfig> = {}, options = {}) {
  const server = eventsServer({ heartbeatIntervalMs: 50, pollIntervalMs: 1500, ...events });
  const http = await serveHttp(server, { before: bearerAuth, options });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

async function connect(http: HttpHarness, era: Era = 'modern', token?: string): Promise<Client> {
  const client = newClient(era);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(http.mcpUrl, { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

const poll = (client: Client, params: Record<string, unknown>) =>
  client.request({ method: 'events/poll', params }, PollEventsResultSchema);

/** Polls repo.push for `args` from `cursor`. */
const pollRepo = (
  client: Client,
  args: { repo: string },
  cursor: unknown,
  extra: Record<string, unknown> = {},
) => poll(client, { name: 'repo.push', arguments: args, cursor, ...extra });

async function rejection(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

const push = (repo: string, sha: string) => ({ repo, sha });

/** `events/subscribe` params for repo.push on repo 'hooked'. */
const webhookParams = (url: string, secret: string) => ({
  name: 'repo.push',
  arguments: { repo: 'hooked' },
  delivery: { mode: 'webhook', url, secret },
  cursor: null,
});

describe('events: discovery and listing', () => {
  it('advertises the extension to 2026-07-28 clients and lists every type across pages', async () => {
    const { http } = await serve({ listPageSize: 3 });
    const client = await connect(http);
    expect(client.getServerCapabilities()?.extensions?.[EVENTS_EXTENSION_ID]).toEqual({});

    const first = await client.request({ method: 'events/list', params: {} }, ListEventsResultSchema);
    expect(first.events.map((event) => event.name)).toEqual(['repo.push', 'alert', 'vault.opened']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.request(
      { method: 'events/list', params: { cursor: first.nextCursor } },
      ListEventsResultSchema,
    );
    expect(second.events.map((event) => event.name)).toEqual(['report.ready']);
    expect(second.nextCursor).toBeUndefined();

    const [repoPush] = first.events;
    expect(repoPush).toMatchObject({
      description: 'A push to a repository',
      delivery: ['poll', 'push', 'webhook'],
      inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] },
      payloadSchema: { type: 'object', properties: { sha: { type: 'string' } } },
    });
    expect(second.events[0]?.delivery).toEqual(['poll']);

    const bad = await rejection(
      client.request({ method: 'events/list', params: { cursor: 'nope' } }, ListEventsResultSchema),
    );
    expect(bad.code).toBe(-32602);
  });

  it('legacy clients see no capability and get -32601 for events/*', async () => {
    const { http } = await serve();
    const client = await connect(http, 'legacy');
    expect(client.getServerCapabilities()?.extensions?.[EVENTS_EXTENSION_ID]).toBeUndefined();
    const error = await rejection(
      client.request({ method: 'events/list', params: {} }, ListEventsResultSchema),
    );
    expect(error.code).toBe(-32601);
  });

  it('a JSON-only serverless endpoint lists no push delivery and refuses events/stream with Unsupported', async () => {
    const { http } = await serve({}, { serverless: true });
    const client = await connect(http);
    const listed = await client.request({ method: 'events/list', params: {} }, ListEventsResultSchema);
    expect(listed.events[0]?.delivery).toEqual(['poll', 'webhook']);
    const error = await rejection(
      client.request(
        { method: 'events/stream', params: { name: 'repo.push', arguments: { repo: 'a' }, cursor: null } },
        StreamEventsResultSchema,
      ),
    );
    expect(error.code).toBe(-32026);
    expect(error.data).toMatchObject({ feature: 'deliveryMode', value: 'push' });
  });
});

describe('events: poll', () => {
  it('starts now, replays from a cursor in pages of maxEvents, and keeps only matching occurrences', async () => {
    const { server, http } = await serve();
    const client = await connect(http);
    const args = { repo: 'mastra' };

    const start = await pollRepo(client, args, null);
    expect(start).toMatchObject({ events: [], truncated: false, hasMore: false, nextPollMs: 1500 });
    expect(start.cursor).toEqual(expect.any(String));

    const emitted = await server.events.emit('repo.push', push('mastra', 'a1'), { eventId: 'evt-1' });
    expect(emitted).toMatchObject({ eventId: 'evt-1', name: 'repo.push', data: push('mastra', 'a1') });
    expect(Number.isNaN(Date.parse(emitted.timestamp))).toBe(false);
    await server.events.emit('repo.push', push('other', 'x'));
    await server.events.emit('repo.push', push('mastra', 'a2'));
    await server.events.emit('repo.push', push('mastra', 'a3'));

    const page = await pollRepo(client, args, start.cursor, { maxEvents: 2 });
    expect(page.events.map((event) => event.data.sha)).toEqual(['a1', 'a2']);
    expect(page.events[0]).toMatchObject({
      eventId: 'evt-1',
      name: 'repo.push',
      timestamp: emitted.timestamp,
    });
    expect(page.events[0]?.cursor).toBeUndefined();
    expect(page.hasMore).toBe(true);

    const rest = await pollRepo(client, args, page.cursor, { maxEvents: 2 });
    expect(rest.events.map((event) => event.data.sha)).toEqual(['a3']);
    expect(rest.hasMore).toBe(false);

    // The same cursor again replays (the server keeps no per-client state).
    const again = await pollRepo(client, args, start.cursor);
    expect(again.events.map((event) => event.data.sha)).toEqual(['a1', 'a2', 'a3']);
    const quiet = await pollRepo(client, args, rest.cursor);
    expect(quiet.events).toEqual([]);
  });

  it('reports truncated when the cursor is older than retention, from another store, or before maxAgeMs', async () => {
    const { server, http } = await serve({ store: new InMemoryMCPEventStore({ maxEvents: 2 }) });
    const client = await connect(http);
    const args = { repo: 'r' };
    const start = await pollRepo(client, args, null);
    for (const sha of ['1', '2', '3', '4']) await server.events.emit('repo.push', push('r', sha));

    const late = await pollRepo(client, args, start.cursor);
    expect(late.truncated).toBe(true);
    expect(late.events.map((event) => event.data.sha)).toEqual(['3', '4']);
    const next = await pollRepo(client, args, late.cursor);
    expect(next).toMatchObject({ events: [], truncated: false });

    // A cursor of a store this server does not have (a restarted in-memory store): a fresh start.
    const other = await serve();
    const otherClient = await connect(other.http);
    const foreign = await poll(otherClient, { name: 'repo.push', arguments: args, cursor: null });
    const reset = await pollRepo(client, args, foreign.cursor);
    expect(reset).toMatchObject({ events: [], truncated: true });
    expect(reset.cursor).toEqual(expect.any(String));

    // maxAgeMs: occurrences older than the floor are skipped, and that is a gap.
    const old = new Date(Date.now() - 60_000);
    const before = await pollRepo(client, args, null);
    await server.events.emit('repo.push', push('r', 'old'), { timestamp: old });
    await server.events.emit('repo.push', push('r', 'new'));
    const bounded = await pollRepo(client, args, before.cursor, { maxAgeMs: 10_000 });
    expect(bounded.truncated).toBe(true);
    expect(bounded.events.map((event) => event.data.sha)).toEqual(['new']);

    const malformed = await rejection(pollRepo(client, args, 'garbage'));
    expect(malformed.code).toBe(-32602);
  });

  it('types without replay hand out null cursors and still deliver through a poll lease', async () => {
    const { server, http } = await serve();
    const client = await connect(http);
    const first = await poll(client, { name: 'alert', arguments: {}, cursor: null });
    expect(first).toMatchObject({ events: [], cursor: null, truncated: false });
    const emitted = await server.events.emit('alert', { level: 'high' });
    expect(emitted.cursor).toBeNull();
    const second = await poll(client, { name: 'alert', arguments: {}, cursor: null });
    expect(second.cursor).toBeNull();
    expect(second.events.map((event) => event.data)).toEqual([{ level: 'high' }]);
    expect(server.events.stats().pollLeases).toBe(1);
  });

  it('answers unknown events, bad arguments, refused callers and modes not offered with their codes', async () => {
    const { server, http } = await serve();
    const client = await connect(http);
    const unknown = await rejection(poll(client, { name: 'nope', arguments: {}, cursor: null }));
    expect({ code: unknown.code, data: unknown.data }).toEqual({ code: -32023, data: { kind: 'event' } });

    const badArgs = await rejection(
      poll(client, { name: 'repo.push', arguments: { repo: 7 }, cursor: null }),
    );
    expect(badArgs.code).toBe(-32602);
    expect(badArgs.message).toContain('repo');

    const refused = await rejection(
      poll(client, { name: 'vault.opened', arguments: { vault: 'secret' }, cursor: null }),
    );
    expect(refused.code).toBe(-32024);
    await expect(
      poll(client, { name: 'vault.opened', arguments: { vault: 'public' }, cursor: null }),
    ).resolves.toMatchObject({
      events: [],
    });

    const pollOnly = await rejection(
      client.request(
        { method: 'events/stream', params: { name: 'report.ready', arguments: {}, cursor: null } },
        StreamEventsResultSchema,
      ),
    );
    expect(pollOnly.code).toBe(-32026);
    expect(pollOnly.data).toMatchObject({ feature: 'deliveryMode', value: 'push' });

    await expect(server.events.emit('repo.push', { repo: 'r' })).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_EVENT_DATA,
      message: expect.stringMatching(/Invalid data for event 'repo.push'/),
    });
    expect(() => server.events.define('', {})).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_INVALID_EVENT_TYPE,
        message: 'an event type needs a name',
      }),
    );
    await expect(server.events.emit('nope', {})).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_UNKNOWN_EVENT_TYPE,
      message: expect.stringMatching(/unknown event type 'nope'/),
    });
  });
});

describe('events: push streams over Streamable HTTP', () => {
  it('confirms with active, delivers occurrences and heartbeats with cursors, and frees the stream on abort', async () => {
    const { server, http } = await serve({ onClose: 'terminate' });
    const client = await connect(http);
    const frames = collect(client);
    const controller = new AbortController();
    const stream = client
      .request(
        { method: 'events/stream', params: { name: 'repo.push', arguments: { repo: 'm' }, cursor: null } },
        StreamEventsResultSchema,
        { signal: controller.signal },
      )
      .catch((error: unknown) => error);

    const active = await eventually('active', () =>
      frames.find((f) => f.method === EVENTS_NOTIFICATIONS.active),
    );
    const id = active.params._meta?.[SUBSCRIPTION_ID_META_KEY];
    expect(id).toBeDefined();
    expect(active.params).toMatchObject({ truncated: false, cursor: expect.any(String) });
    expect(server.events.stats().streams).toBe(1);

    await server.events.emit('repo.push', push('elsewhere', '0'));
    await server.events.emit('repo.push', push('m', '1'), { eventId: 'push-1' });
    const event = await eventually('event', () =>
      framesOf(frames, id).find((f) => f.method === EVENTS_NOTIFICATIONS.event),
    );
    expect(event.params).toMatchObject({
      eventId: 'push-1',
      name: 'repo.push',
      data: push('m', '1'),
      cursor: expect.any(String),
    });
    const heartbeat = await eventually('heartbeat after the event', () =>
      framesOf(frames, id)
        .slice(framesOf(frames, id).indexOf(event))
        .find((f) => f.method === EVENTS_NOTIFICATIONS.heartbeat),
    );
    expect(heartbeat.params.cursor).toEqual(event.params.cursor);
    expect(framesOf(frames, id).filter((f) => f.method === EVENTS_NOTIFICATIONS.event)).toHaveLength(1);
    expect(frames.every((f) => f.params._meta?.[SUBSCRIPTION_ID_META_KEY] === id)).toBe(true);

    controller.abort();
    expect(await stream).toBeInstanceOf(Error);
    await eventually('the stream to be released', () => server.events.stats().streams === 0);

    // Resuming from the event's cursor replays what came after it, and a cursor from before it replays it.
    await server.events.emit('repo.push', push('m', '2'));
    const resumed = collect(client);
    const resume = client.request(
      {
        method: 'events/stream',
        params: { name: 'repo.push', arguments: { repo: 'm' }, cursor: active.params.cursor },
      },
      StreamEventsResultSchema,
    );
    await eventually(
      'the replayed events',
      () => resumed.filter((f) => f.method === EVENTS_NOTIFICATIONS.event).length === 2,
    );
    expect(resumed[0]?.method).toBe(EVENTS_NOTIFICATIONS.active);
    expect(
      resumed
        .filter((f) => f.method === EVENTS_NOTIFICATIONS.event)
        .map((f) => (f.params.data as { sha: string }).sha),
    ).toEqual(['1', '2']);

    // With onClose: 'terminate', close() ends open streams with terminated, then their empty result.
    await server.close();
    const result = await resume;
    expect(result._meta?.[SUBSCRIPTION_ID_META_KEY]).toBe(
      resumed[0]?.params._meta?.[SUBSCRIPTION_ID_META_KEY],
    );
    const terminated = resumed.find((f) => f.method === EVENTS_NOTIFICATIONS.terminated);
    expect(terminated?.params.error).toMatchObject({ code: -32023, data: { kind: 'subscription' } });
    expect(server.events.stats().streams).toBe(0);
  });

  it('by default, close() ends streams with their empty result and no terminated frame (clients resume)', async () => {
    const { server, http } = await serve();
    const client = await connect(http);
    const frames = collect(client);
    const stream = client.request(
      { method: 'events/stream', params: { name: 'alert', arguments: {}, cursor: null } },
      StreamEventsResultSchema,
    );
    const active = await eventually('active', () =>
      frames.find((f) => f.method === EVENTS_NOTIFICATIONS.active),
    );
    expect(active.params.cursor).toBeNull();
    await server.events.emit('alert', { level: 'low' });
    const event = await eventually('event', () =>
      frames.find((f) => f.method === EVENTS_NOTIFICATIONS.event),
    );
    expect(event.params.cursor).toBeNull();
    await server.close();
    expect((await stream)._meta?.[SUBSCRIPTION_ID_META_KEY]).toBe(
      active.params._meta?.[SUBSCRIPTION_ID_META_KEY],
    );
    expect(frames.some((f) => f.method === EVENTS_NOTIFICATIONS.terminated)).toBe(false);
    await expect(server.events.emit('alert', { level: 'low' })).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_EVENTS_CLOSED,
      message: "events: cannot emit 'alert' after close()",
    });
  });

  it('starts with active {truncated: true} when the cursor fell out of retention, and terminates streams of a removed type', async () => {
    const { server, http } = await serve({ store: new InMemoryMCPEventStore({ maxEvents: 1 }) });
    const client = await connect(http);
    const start = await poll(client, { name: 'repo.push', arguments: { repo: 'r' }, cursor: null });
    await server.events.emit('repo.push', push('r', '1'));
    await server.events.emit('repo.push', push('r', '2'));
    const frames = collect(client);
    const stream = client.request(
      {
        method: 'events/stream',
        params: { name: 'repo.push', arguments: { repo: 'r' }, cursor: start.cursor },
      },
      StreamEventsResultSchema,
    );
    await eventually('the retained event', () => frames.some((f) => f.method === EVENTS_NOTIFICATIONS.event));
    expect(frames[0]).toMatchObject({ method: EVENTS_NOTIFICATIONS.active, params: { truncated: true } });
    expect(
      frames
        .filter((f) => f.method === EVENTS_NOTIFICATIONS.event)
        .map((f) => (f.params.data as { sha: string }).sha),
    ).toEqual(['2']);

    expect(await server.events.remove('repo.push')).toBe(true);
    await stream;
    expect(frames.find((f) => f.method === EVENTS_NOTIFICATIONS.terminated)?.params.error).toMatchObject({
      code: -32023,
      data: { kind: 'event' },
    });
    const gone = await rejection(poll(client, { name: 'repo.push', arguments: { repo: 'r' }, cursor: null }));
    expect(gone.code).toBe(-32023);
  });
});

describe('events over stdio', () => {
  async function spawnStdio(era: Era) {
    const { client } = await connectStdio(era, newClient(era), 'test/fixtures/events-stdio-server.ts');
    cleanups.push(() => client.close());
    return client;
  }
  const stats = async (client: Client) =>
    JSON.parse(textOf(await client.callTool({ name: 'eventStats', arguments: {} }))) as { streams: number };

  it('lists, polls and streams (active, events, heartbeats) and notifications/cancelled frees the stream', async () => {
    const client = await spawnStdio('modern');
    expect(client.getServerCapabilities()?.extensions?.[EVENTS_EXTENSION_ID]).toEqual({});
    const listed = await client.request({ method: 'events/list', params: {} }, ListEventsResultSchema);
    expect(listed.events).toHaveLength(4);

    const start = await poll(client, { name: 'repo.push', arguments: { repo: 's' }, cursor: null });
    await client.callTool({ name: 'emitEvent', arguments: { name: 'repo.push', data: push('s', '1') } });
    const polled = await poll(client, { name: 'repo.push', arguments: { repo: 's' }, cursor: start.cursor });
    expect(polled.events.map((event) => event.data)).toEqual([push('s', '1')]);

    const frames = collect(client);
    const controller = new AbortController();
    const stream = client
      .request(
        {
          method: 'events/stream',
          params: { name: 'repo.push', arguments: { repo: 's' }, cursor: polled.cursor },
        },
        StreamEventsResultSchema,
        { signal: controller.signal },
      )
      .catch((error: unknown) => error);
    await eventually('active', () => frames.some((f) => f.method === EVENTS_NOTIFICATIONS.active));
    await client.callTool({
      name: 'emitEvent',
      arguments: { name: 'repo.push', data: push('s', '2'), eventId: 'e2' },
    });
    const event = await eventually('event', () =>
      frames.find((f) => f.method === EVENTS_NOTIFICATIONS.event),
    );
    expect(event.params).toMatchObject({ eventId: 'e2', data: push('s', '2') });
    await eventually('heartbeat', () => frames.some((f) => f.method === EVENTS_NOTIFICATIONS.heartbeat));
    const id = frames[0]?.params._meta?.[SUBSCRIPTION_ID_META_KEY];
    expect(framesOf(frames, id)).toHaveLength(frames.length);
    expect((await stats(client)).streams).toBe(1);

    controller.abort();
    expect(await stream).toBeInstanceOf(Error);
    await eventually(
      'the stream to be released after notifications/cancelled',
      async () => (await stats(client)).streams === 0,
    );
  });

  it('a legacy stdio client gets -32601, and webhook subscriptions over stdio are Forbidden', async () => {
    const legacy = await spawnStdio('legacy');
    const error = await rejection(
      legacy.request({ method: 'events/list', params: {} }, ListEventsResultSchema),
    );
    expect(error.code).toBe(-32601);

    const modern = await spawnStdio('modern');
    const forbidden = await rejection(
      modern.request(
        {
          method: 'events/subscribe',
          params: webhookParams('https://example.com/hook', generateWebhookSecret()),
        },
        SubscribeEventsResultSchema,
      ),
    );
    expect(forbidden.code).toBe(-32024);
  });
});

describe('events: webhooks', () => {
  async function setup(webhook: Record<string, unknown> = {}, events: Partial<MCPServerEventsConfig> = {}) {
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const { server, http } = await serve({
      ...events,
      webhook: {
        fetch: receiver.fetch,
        allowPrivateAddresses: true,
        retry: { attempts: 4, initialDelayMs: 10, maxDelayMs: 40 },
        ...webhook,
      },
    });
    const client = await connect(http, 'modern', 'alice');
    return { server, http, client, receiver };
  }

  const subscribe = (
    client: Client,
    receiver: Pick<WebhookReceiver, 'url'>,
    extra: Record<string, unknown> = {},
  ) =>
    client.request(
      {
        method: 'events/subscribe',
        params: { ...webhookParams(receiver.url, (extra.secret as string) ?? SECRET), ...extra },
      },
      SubscribeEventsResultSchema,
    );

  const SECRET = generateWebhookSecret();
  const deliveries = (receiver: WebhookReceiver) =>
    receiver.received.filter((r) => r.json.type !== 'verification');

  it('verifies the endpoint, then delivers signed occurrences with the subscription id; refresh and unsubscribe', async () => {
    const { server, client, receiver } = await setup();
    const subscribed = await subscribe(client, receiver, { ttlMs: 120_000 });
    expect(subscribed).toMatchObject({
      id: expect.stringMatching(/^sub_[0-9a-f]{32}$/),
      truncated: false,
      cursor: expect.any(String),
      deliveryStatus: { active: true, lastDeliveryAt: null, lastError: null },
    });
    const granted = Date.parse(subscribed.refreshBefore as string) - Date.now();
    expect(granted).toBeGreaterThan(60_000);
    expect(granted).toBeLessThanOrEqual(120_000);

    const [verification] = receiver.received;
    expect(verification?.json).toMatchObject({ type: 'verification', challenge: expect.any(String) });
    expect(verification?.headers['webhook-id']).toMatch(/^msg_verification_/);
    expect(() =>
      new Webhook(SECRET).verify(verification?.body ?? '', verification?.headers ?? {}),
    ).not.toThrow();

    await server.events.emit('repo.push', push('hooked', 'w1'), { eventId: 'evt-w1' });
    await server.events.emit('repo.push', push('not-this-one', 'w0'));
    const delivery = await eventually('the delivery', () => deliveries(receiver)[0]);
    expect(delivery.headers['x-mcp-subscription-id']).toBe(subscribed.id);
    expect(delivery.headers['webhook-id']).toBe('evt-w1');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(new Webhook(SECRET).verify(delivery.body, delivery.headers)).toMatchObject({
      eventId: 'evt-w1',
      name: 'repo.push',
      data: push('hooked', 'w1'),
      cursor: subscribed.cursor,
    });

    // Refresh: same id, the new secret signs (the old one too, during the grace window).
    const rotated = generateWebhookSecret();
    const refreshed = await eventually('the acknowledgement', async () => {
      const result = await subscribe(client, receiver, { secret: rotated });
      return result.deliveryStatus?.lastDeliveryAt ? result : undefined;
    });
    expect(refreshed.id).toBe(subscribed.id);
    expect(refreshed.deliveryStatus).toMatchObject({ active: true, lastError: null });
    expect(refreshed.cursor).not.toBe(subscribed.cursor);
    expect(receiver.received.filter((r) => r.json.type === 'verification')).toHaveLength(1);
    await server.events.emit('repo.push', push('hooked', 'w2'));
    const second = await eventually('the second delivery', () => deliveries(receiver)[1]);
    expect(new Webhook(rotated).verify(second.body, second.headers)).toMatchObject({
      data: push('hooked', 'w2'),
    });
    expect(new Webhook(SECRET).verify(second.body, second.headers)).toMatchObject({
      data: push('hooked', 'w2'),
    });
    expect(second.headers['webhook-signature']?.split(' ')).toHaveLength(2);

    const params = { name: 'repo.push', arguments: { repo: 'hooked' }, delivery: { url: receiver.url } };
    await client.request({ method: 'events/unsubscribe', params }, UnsubscribeEventsResultSchema);
    expect(server.events.stats().webhookSubscriptions).toBe(0);
    const again = await rejection(
      client.request({ method: 'events/unsubscribe', params }, UnsubscribeEventsResultSchema),
    );
    expect({ code: again.code, data: again.data }).toEqual({ code: -32023, data: { kind: 'subscription' } });
  });

  it('refuses unauthenticated callers, http URLs, malformed secrets and subscriptions beyond the cap', async () => {
    const { http, client, receiver } = await setup({ maxSubscriptions: 1 });
    const anonymous = await connect(http);
    const forbidden = await rejection(subscribe(anonymous, receiver));
    expect(forbidden.code).toBe(-32024);

    const plain = await rejection(subscribe(client, { url: receiver.url.replace('https:', 'http:') }));
    expect(plain.code).toBe(-32602);
    expect(plain.message).toContain('https');
    const badSecret = await rejection(subscribe(client, receiver, { secret: 'whsec_c2hvcnQ=' }));
    expect(badSecret.code).toBe(-32602);

    await subscribe(client, receiver);
    const full = await rejection(subscribe(client, receiver, { arguments: { repo: 'another' } }));
    expect({ code: full.code, data: full.data }).toEqual({
      code: -32025,
      data: { limit: 'subscriptions', max: 1 },
    });
    // Refreshing the one that exists is still fine.
    await expect(subscribe(client, receiver)).resolves.toMatchObject({ truncated: false });
  });

  it('fails the subscription when the endpoint does not echo the challenge, or cannot be trusted', async () => {
    const { client, receiver } = await setup();
    receiver.respond = () => ({ status: 200, body: JSON.stringify({ challenge: 'wrong' }) });
    const wrong = await rejection(subscribe(client, receiver));
    expect({ code: wrong.code, data: wrong.data }).toEqual({
      code: -32027,
      data: { reason: 'challenge_failed' },
    });

    // A receiver not ready yet (503) is asked again: the second answer counts.
    let notReady = 1;
    receiver.respond = () => (notReady-- > 0 ? { status: 503 } : undefined);
    await expect(subscribe(client, receiver)).resolves.toMatchObject({ truncated: false });
    expect(receiver.received.filter((r) => r.json.type === 'verification')).toHaveLength(3);

    // The global fetch does not trust the test certificate: a TLS failure, not a silent success.
    const untrusted = await setup({ fetch: undefined });
    const tls = await rejection(subscribe(untrusted.client, untrusted.receiver));
    expect({ code: tls.code, data: tls.data }).toEqual({ code: -32027, data: { reason: 'tls_error' } });
  });

  it('retries a 500 with a fresh signature, gives up on 410 at once, and reports failures in deliveryStatus', async () => {
    const { server, client, receiver } = await setup();
    await subscribe(client, receiver);
    let failures = 2;
    receiver.respond = (request) => {
      if (request.json.eventId === 'flaky' && failures > 0) {
        failures -= 1;
        return { status: 500 };
      }
      if (request.json.eventId === 'unwanted') return { status: 410 };
      return undefined;
    };
    await server.events.emit('repo.push', push('hooked', '1'), { eventId: 'flaky' });
    await server.events.emit('repo.push', push('hooked', '2'), { eventId: 'unwanted' });
    await server.events.emit('repo.push', push('hooked', '3'), { eventId: 'after' });
    await eventually('the delivery after the others', () =>
      deliveries(receiver).some((r) => r.json.eventId === 'after'),
    );
    const ids = deliveries(receiver).map((r) => r.json.eventId);
    expect(ids).toEqual(['flaky', 'flaky', 'flaky', 'unwanted', 'after']);
    for (const attempt of deliveries(receiver)) {
      expect(() => new Webhook(SECRET).verify(attempt.body, attempt.headers)).not.toThrow();
    }

    // Everything fails from now on: each occurrence is abandoned after its attempts, then delivery is suspended.
    receiver.respond = (request) => (request.json.type === 'verification' ? undefined : { status: 503 });
    for (const n of [4, 5, 6]) await server.events.emit('repo.push', push('hooked', String(n)));
    await eventually('suspension', () => server.events.stats().suspendedWebhooks === 1);
    expect(deliveries(receiver)).toHaveLength(5 + 3 * 4);
    const status = await subscribe(client, receiver);
    expect(status.deliveryStatus).toMatchObject({
      active: false,
      lastError: 'http_5xx',
      failedSince: expect.any(String),
    });
    // That refresh reactivated it.
    receiver.respond = undefined;
    await server.events.emit('repo.push', push('hooked', '7'), { eventId: 'back' });
    await eventually('delivery after reactivation', () =>
      deliveries(receiver).some((r) => r.json.eventId === 'back'),
    );
    const healthy = await eventually('a healthy status', async () => {
      const result = await subscribe(client, receiver);
      return result.deliveryStatus?.lastError === null ? result : undefined;
    });
    expect(healthy.deliveryStatus).toMatchObject({ active: true, failedSince: null });
  });

  it('sends a gap when retention overtook a stalled subscription, and terminated when the server closes', async () => {
    const { server, client, receiver } = await setup(
      { retry: { attempts: 1000, initialDelayMs: 5, maxDelayMs: 20 } },
      { store: new InMemoryMCPEventStore({ maxEvents: 2 }), onClose: 'terminate' },
    );
    const subscribed = await subscribe(client, receiver);
    let stalled = true;
    receiver.respond = (request) =>
      request.json.eventId === 'first' && stalled ? { status: 503 } : undefined;
    await server.events.emit('repo.push', push('hooked', '1'), { eventId: 'first' });
    await eventually('a failed attempt', () => deliveries(receiver).length > 0);
    for (const n of [2, 3, 4, 5])
      await server.events.emit('repo.push', push('hooked', String(n)), { eventId: `e${n}` });
    stalled = false;
    await eventually('the newest event', () => deliveries(receiver).some((r) => r.json.eventId === 'e5'));
    const after = deliveries(receiver).filter((r) => r.json.eventId !== 'first');
    expect(after.map((r) => r.json.type ?? r.json.eventId)).toEqual(['gap', 'e4', 'e5']);
    expect(after[0]?.json.cursor).toEqual(expect.any(String));
    expect(after[0]?.headers['webhook-id']).toMatch(/^msg_gap_/);
    expect(after[0]?.headers['x-mcp-subscription-id']).toBe(subscribed.id);

    await server.close();
    const terminated = receiver.received.at(-1);
    expect(terminated?.json).toMatchObject({
      type: 'terminated',
      error: { code: -32023, data: { kind: 'subscription' } },
    });
    expect(() => new Webhook(SECRET).verify(terminated?.body ?? '', terminated?.headers ?? {})).not.toThrow();
    expect(server.events.stats().webhookSubscriptions).toBe(0);
  });

  it('resumes from a cursor with truncated when it is older than retention', async () => {
    const { server, client, receiver } = await setup(
      {},
      { store: new InMemoryMCPEventStore({ maxEvents: 1 }) },
    );
    const start = await poll(client, { name: 'repo.push', arguments: { repo: 'hooked' }, cursor: null });
    await server.events.emit('repo.push', push('hooked', 'gone'));
    await server.events.emit('repo.push', push('hooked', 'kept'), { eventId: 'kept' });
    const resumed = await subscribe(client, receiver, { cursor: start.cursor });
    expect(resumed.truncated).toBe(true);
    await eventually('the retained event', () => deliveries(receiver).some((r) => r.json.eventId === 'kept'));
    expect(deliveries(receiver).map((r) => r.json.eventId)).toEqual(['kept']);
  });
});

describe('events: configuration', () => {
  it('without webhook delivery the type lists no webhook mode and events/subscribe is not served', async () => {
    const { http } = await serve({ webhook: false });
    const client = await connect(http, 'modern', 'alice');
    const listed = await client.request({ method: 'events/list', params: {} }, ListEventsResultSchema);
    expect(listed.events[0]?.delivery).toEqual(['poll', 'push']);
    // Over 2026-07-28 HTTP an unknown method is a 404 whose body is the JSON-RPC -32601 error.
    const error = (await subscribe404(client).catch((reason: unknown) => reason)) as SdkHttpError;
    expect(error).toBeInstanceOf(SdkHttpError);
    expect(error.status).toBe(404);
    expect(JSON.parse(String(error.data.text)).error.code).toBe(-32601);
  });

  it('a server without events neither advertises them nor lets emit() through', async () => {
    const { MCPServer } = await import('../../src/index.js');
    const server: MCPServer = new MCPServer({ name: 'plain', version: '1.0.0', tools: {} });
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const client = await connect(http);
    expect(client.getServerCapabilities()?.extensions?.[EVENTS_EXTENSION_ID]).toBeUndefined();
    await expect(server.events.emit('x', {})).rejects.toThrow(/unknown event type/);
    expect(() => server.events.define('x', {})).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_EVENTS_NOT_CONFIGURED,
        message: expect.stringMatching(/configure `events`/),
      }),
    );
  });
});

const subscribe404 = (client: Client) =>
  client.request(
    { method: 'events/subscribe', params: webhookParams('https://example.com/h', generateWebhookSecret()) },
    z.looseObject({}),
  );
