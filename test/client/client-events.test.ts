/**
 * MCPClient's events (SEP-3415) against MCPServer's `events` option over real transports: HTTP on
 * 127.0.0.1 and stdio child processes, pinned to 2026-07-28. Webhook deliveries go from the
 * server to a real https endpoint (certificate made for the test, trusted through the server's
 * webhook `fetch` option) that calls `mcp.events.handleWebhook()`.
 */
import { MastraError } from '@mastra/core/error';
import { afterEach, describe, expect, it } from 'vitest';
import {
  InMemoryMCPEventStore,
  type MastraMCPServerDefinition,
  MCPClient,
  type MCPClientOptions,
  type MCPClientWebhookOptions,
  type MCPEventSubscribeOptions,
  type MCPEventSubscription,
  type MCPReceivedEvent,
  MCPServer,
  type MCPServerEventsConfig,
  type MCPServerWebhookOptions,
} from '../../src/index.js';
import { generateWebhookSecret } from '../../src/shared/events-wire.js';
import { eventsServer, pushOccurrence } from '../fixtures/events.js';
import { signedDelivery, startWebhookEndpoint } from '../fixtures/webhook-endpoint.js';
import { bearerAuth, type HttpHarness, serveHttp, serveReplaceable } from '../helpers.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function serve(events: Partial<MCPServerEventsConfig> = {}) {
  const server = eventsServer({ heartbeatIntervalMs: 50, pollIntervalMs: 50, ...events });
  const http = await serveHttp(server, { before: bearerAuth });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

let nextId = 0;
function client(servers: Record<string, MastraMCPServerDefinition>, extra: Partial<MCPClientOptions> = {}) {
  const mcp = new MCPClient({ id: `events-${++nextId}`, registerProcessHooks: false, servers, ...extra });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

const remote = (
  http: HttpHarness,
  extra: Partial<MastraMCPServerDefinition> = {},
): MastraMCPServerDefinition =>
  ({
    url: http.mcpUrl,
    protocolVersion: '2026-07-28',
    requestInit: { headers: { authorization: 'Bearer alice' } },
    ...extra,
  }) as MastraMCPServerDefinition;

const local = (extra: Partial<MastraMCPServerDefinition> = {}): MastraMCPServerDefinition =>
  ({
    command: process.execPath,
    args: ['--import', 'tsx', 'test/fixtures/client-events-stdio-server.ts'],
    protocolVersion: '2026-07-28',
    ...extra,
  }) as MastraMCPServerDefinition;

/** A subscription to `repo.push` for repo a (polls as often as the server suggests). */
const repoA = (mcp: MCPClient, options: MCPEventSubscribeOptions = {}, server = 'remote') =>
  mcp.events.subscribe(server, 'repo.push', { repo: 'a' }, { minPollIntervalMs: 0, ...options });

/** Reads `count` occurrences without ending the subscription, with `truncated` and `cursor` as seen at each. */
async function read(subscription: MCPEventSubscription, count: number) {
  const iterator = subscription[Symbol.asyncIterator]();
  const seen: Array<MCPReceivedEvent & { truncated: boolean; cursor: string | null }> = [];
  while (seen.length < count) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the subscription ended after ${seen.length} occurrences`);
    seen.push({ ...next.value, truncated: subscription.truncated, cursor: subscription.cursor });
  }
  return seen;
}

async function causeId(promise: Promise<unknown>): Promise<{ id: string; causeId: unknown; cause: unknown }> {
  const { id, cause } = await thrown(promise);
  return { id, causeId: (cause as { id?: unknown } | undefined)?.id, cause };
}

/** Emits through the stdio server's tool. */
async function emitVia(
  mcp: MCPClient,
  server: string,
  name: string,
  data: Record<string, unknown>,
  eventId?: string,
) {
  const tools = await mcp.listTools();
  // biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
  const emit = tools[`${server}_emitEvent`] as any;
  return emit.execute({ name, data, ...(eventId ? { eventId } : {}) }, {});
}

describe('events.list', () => {
  it('lists every event type across pages, over HTTP and stdio', async () => {
    const { http } = await serve({ listPageSize: 1 });
    const mcp = client({ remote: remote(http), local: local() });
    for (const name of ['remote', 'local']) {
      const events = await mcp.events.list(name);
      expect(events.map((event) => event.name)).toEqual([
        'repo.push',
        'alert',
        'vault.opened',
        'report.ready',
      ]);
      expect(events[0]).toMatchObject({
        name: 'repo.push',
        description: 'A push to a repository',
        delivery: expect.arrayContaining(['poll', 'push']),
        inputSchema: { type: 'object', properties: { repo: { type: 'string' } } },
      });
      expect(events[3]?.delivery).toEqual(['poll']);
    }
  });
});

describe('events.subscribe: push and poll', () => {
  it.each(['push', 'poll'] as const)('%s over HTTP: occurrences, cursor and mode', async (delivery) => {
    const { server, http } = await serve();
    const mcp = client({ remote: remote(http) });
    const subscription = await repoA(mcp, { delivery });
    expect(subscription.mode).toBe(delivery);
    expect(subscription.cursor).toEqual(expect.any(String));
    const first = await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    await server.events.emit('repo.push', { repo: 'b', sha: 'x' });
    const second = await server.events.emit('repo.push', { repo: 'a', sha: '2' });
    const seen = await read(subscription, 2);
    expect(seen.map((event) => event.data)).toEqual([
      { repo: 'a', sha: '1' },
      { repo: 'a', sha: '2' },
    ]);
    expect(seen[0]).toMatchObject({
      eventId: first.eventId,
      name: 'repo.push',
      timestamp: first.timestamp,
      truncated: false,
    });
    expect(seen[1]?.eventId).toBe(second.eventId);
    expect(seen[1]?.cursor).toEqual(expect.any(String));
    await subscription.cancel();
  });
});

/** Calls a tool of a stdio server. */
async function callTool(mcp: MCPClient, server: string, tool: string, input: Record<string, unknown>) {
  const tools = await mcp.listTools();
  // biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
  return (tools[`${server}_${tool}`] as any).execute(input, {});
}

/** Runs the loop to its end; resolves with what it read, or rejects with what the iterator threw. */
async function drain(subscription: MCPEventSubscription): Promise<MCPReceivedEvent[]> {
  const seen: MCPReceivedEvent[] = [];
  for await (const event of subscription) seen.push(event);
  return seen;
}

async function thrown(promise: Promise<unknown>): Promise<MastraError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MastraError);
  return error as MastraError;
}

/** Collects what onError receives. */
function errorsOf(subscription: MCPEventSubscription): MastraError[] {
  const errors: MastraError[] = [];
  subscription.onError((error) => errors.push(error as MastraError));
  return errors;
}

describe('events over stdio', () => {
  it('push, poll and webhook (refused without an authenticated caller: push instead); a crashed server is resumed with truncated', async () => {
    const mcp = client({ local: local() }, { webhook: { url: 'https://127.0.0.1:9/hooks' } });
    const push = await repoA(mcp, { delivery: 'push' }, 'local');
    const poll = await repoA(mcp, { delivery: 'poll' }, 'local');
    const fallback = await repoA(mcp, {}, 'local');
    const fallbackErrors = errorsOf(fallback);
    expect([push.mode, poll.mode, fallback.mode]).toEqual(['push', 'poll', 'push']);
    await eventually('the held error', () => fallbackErrors.length > 0);
    expect(fallbackErrors[0]).toMatchObject({
      id: 'MCP_EVENTS_WEBHOOK_UNAVAILABLE',
      details: { code: -32024, fallback: 'push' },
    });
    expect(fallback.deliveryStatus).toBeUndefined();
    const forced = await causeId(repoA(mcp, { delivery: 'webhook' }, 'local'));
    expect(forced.id).toBe('MCP_CLIENT_SUBSCRIBE_EVENT_FAILED');
    expect(forced.cause).toMatchObject({ code: -32024 });

    await emitVia(mcp, 'local', 'repo.push', { repo: 'a', sha: '1' });
    await emitVia(mcp, 'local', 'repo.push', { repo: 'a', sha: '2' });
    for (const subscription of [push, poll, fallback]) {
      const seen = await read(subscription, 2);
      expect(seen.map((event) => [event.data.sha, event.truncated])).toEqual([
        ['1', false],
        ['2', false],
      ]);
    }
    const before = [push.cursor, poll.cursor];
    await callTool(mcp, 'local', 'exitProcess', {});
    // The client reconnects (a fresh process with a fresh in-memory store) and resumes from its
    // cursors, which the new server does not know: the next occurrence comes with truncated.
    await eventually('both to resume', () => push.cursor !== before[0] && poll.cursor !== before[1], 25_000);
    await emitVia(mcp, 'local', 'repo.push', { repo: 'a', sha: '3' });
    for (const subscription of [push, poll]) {
      const [after] = await read(subscription, 1);
      expect(after).toMatchObject({ data: { sha: '3' }, truncated: true });
    }
    await mcp.disconnect();
    await expect(drain(push)).resolves.toEqual([]);
  }, 60_000);
});

/** An HTTP endpoint whose MCPServer can be replaced, as a restarted process would be. */
async function restartable(events: Partial<MCPServerEventsConfig> = {}) {
  const make = () => eventsServer({ heartbeatIntervalMs: 50, pollIntervalMs: 50, ...events });
  let current = make();
  const http = await serveReplaceable(() => current, { before: bearerAuth });
  cleanups.push(
    () => http.close(),
    () => current.close(),
  );
  return {
    http,
    server: () => current,
    /** The old process dies without a word (connections cut), a new one with an empty store takes over. */
    restart: async () => {
      const old = current;
      current = make();
      http.server.closeAllConnections();
      await old.close();
    },
    /** The server closes (its streams end, later requests are refused) and keeps answering until `start()`. */
    close: () => current.close(),
    /** A new server with an empty store takes over. */
    start: () => {
      current = make();
    },
  };
}

describe('events over HTTP: push and poll', () => {
  it.each(['push', 'poll'] as const)(
    '%s: resumes after a restart from its cursor, with truncated',
    async (delivery) => {
      const { http, server, restart } = await restartable();
      const mcp = client({ remote: remote(http) });
      const subscription = await repoA(mcp, { delivery });
      await server().events.emit('repo.push', { repo: 'a', sha: '1' });
      expect((await read(subscription, 1))[0]).toMatchObject({ data: { sha: '1' }, truncated: false });
      const before = subscription.cursor;
      await restart();
      await eventually('the subscription to resume', () => subscription.cursor !== before);
      await server().events.emit('repo.push', { repo: 'a', sha: '2' });
      expect((await read(subscription, 1))[0]).toMatchObject({ data: { sha: '2' }, truncated: true });
    },
  );

  it.each(['push', 'poll'] as const)(
    '%s: a closing server refusing the subscription (NotFound, kind subscription) is retried until a new one is up',
    async (delivery) => {
      const { http, server, close, start } = await restartable();
      const mcp = client({ remote: remote(http) });
      const subscription = await repoA(mcp, { delivery, retry: { initialDelayMs: 50 } });
      const errors = errorsOf(subscription);
      await close();
      await eventually('a refused attempt', () => errors.some((error) => error.details?.code === -32023));
      const before = subscription.cursor;
      start();
      await eventually('the subscription to resume', () => subscription.cursor !== before);
      await server().events.emit('repo.push', { repo: 'a', sha: '1' });
      expect((await read(subscription, 1))[0]).toMatchObject({ data: { sha: '1' }, truncated: true });
      expect(errors.map((error) => error.id)).not.toContain('MCP_EVENTS_SUBSCRIPTION_FAILED');
    },
  );

  it.each(['push', 'poll'] as const)(
    '%s: a saved cursor older than retention resumes with truncated on the first occurrence',
    async (delivery) => {
      const { server, http } = await serve({ store: new InMemoryMCPEventStore({ maxEvents: 2 }) });
      const first = await server.events.emit('repo.push', { repo: 'a', sha: '1' });
      for (const sha of ['2', '3', '4']) await server.events.emit('repo.push', { repo: 'a', sha });
      const mcp = client({ remote: remote(http) });
      const subscription = await repoA(mcp, { delivery, cursor: first.cursor });
      const seen = await read(subscription, 2);
      expect(seen.map((event) => [event.data.sha, event.truncated])).toEqual([
        ['3', true],
        ['4', false],
      ]);
      // The cursor moves with what the loop took: resuming from it replays nothing already read.
      await subscription.cancel();
      await server.events.emit('repo.push', { repo: 'a', sha: '5' });
      const resumed = await repoA(mcp, { delivery, cursor: seen[1]?.cursor });
      expect((await read(resumed, 1))[0]).toMatchObject({ data: { sha: '5' }, truncated: false });
    },
  );

  it('push: a stream the server cuts is reopened at once from the last cursor (not after the heartbeat timeout)', async () => {
    const { server, http } = await serve({ heartbeatIntervalMs: 60_000 });
    const mcp = client({ remote: remote(http) });
    const subscription = await repoA(mcp, { delivery: 'push', heartbeatTimeoutMs: 10 * 60_000 });
    const errors = errorsOf(subscription);
    await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    await read(subscription, 1);
    http.server.closeAllConnections();
    await server.events.emit('repo.push', { repo: 'a', sha: '2' });
    expect((await read(subscription, 1))[0]).toMatchObject({ data: { sha: '2' }, truncated: false });
    expect(errors.map((error) => error.id)).toContain('MCP_EVENTS_DELIVERY_INTERRUPTED');
  });

  it('push: reconnectServer() reopens the stream where it was', async () => {
    const { server, http } = await serve();
    const mcp = client({ remote: remote(http) });
    const subscription = await repoA(mcp, { delivery: 'push' });
    await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    await read(subscription, 1);
    await mcp.reconnectServer('remote');
    await server.events.emit('repo.push', { repo: 'a', sha: '2' });
    expect((await read(subscription, 1))[0]).toMatchObject({ data: { sha: '2' }, truncated: false });
  });

  it('poll: an event type without replay keeps a null cursor and still delivers', async () => {
    const { server, http } = await serve();
    const mcp = client({ remote: remote(http) });
    const subscription = await mcp.events.subscribe(
      'remote',
      'alert',
      {},
      { delivery: 'poll', minPollIntervalMs: 0 },
    );
    expect(subscription.cursor).toBeNull();
    await server.events.emit('alert', { level: 'high' });
    const [alert] = await read(subscription, 1);
    expect(alert).toMatchObject({ data: { level: 'high' }, cursor: null });
    expect(subscription.cursor).toBeNull();
  });

  it.each(['push', 'poll'] as const)(
    '%s: a slow reader loses the oldest unread occurrences, told by truncated and onError',
    async (delivery) => {
      const { server, http } = await serve();
      const mcp = client({ remote: remote(http) });
      const subscription = await repoA(mcp, { delivery, maxBufferedEvents: 2 });
      const errors = errorsOf(subscription);
      for (const sha of ['1', '2', '3', '4', '5']) await server.events.emit('repo.push', { repo: 'a', sha });
      await eventually('three occurrences dropped', () => errors.length >= 3);
      const seen = await read(subscription, 2);
      expect(seen.map((event) => [event.data.sha, event.truncated])).toEqual([
        ['4', true],
        ['5', false],
      ]);
      expect(errors.map((error) => error.id)).toEqual(Array(3).fill('MCP_EVENTS_BUFFER_OVERFLOW'));
    },
  );

  it.each(['push', 'poll'] as const)('%s: repeats of an event id reach the loop once', async (delivery) => {
    const { server, http } = await serve();
    const mcp = client({ remote: remote(http) });
    const subscription = await repoA(mcp, { delivery });
    await server.events.emit('repo.push', { repo: 'a', sha: '1' }, { eventId: 'evt-1' });
    await server.events.emit('repo.push', { repo: 'a', sha: '1' }, { eventId: 'evt-1' });
    await server.events.emit('repo.push', { repo: 'a', sha: '2' }, { eventId: 'evt-2' });
    const seen = await read(subscription, 2);
    expect(seen.map((event) => event.eventId)).toEqual(['evt-1', 'evt-2']);
  });

  it('push: a removed event type terminates the subscription; poll: the next poll fails it', async () => {
    const { server, http } = await serve();
    const mcp = client({ remote: remote(http) });
    const push = await repoA(mcp, { delivery: 'push' });
    const poll = await repoA(mcp, { delivery: 'poll' });
    await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    await read(push, 1);
    await read(poll, 1);
    await server.events.remove('repo.push');
    expect(await thrown(drain(push))).toMatchObject({
      id: 'MCP_EVENTS_SUBSCRIPTION_TERMINATED',
      details: { code: -32023 },
    });
    expect(await thrown(drain(poll))).toMatchObject({
      id: 'MCP_EVENTS_SUBSCRIPTION_FAILED',
      details: { code: -32023 },
    });
  });

  it('poll: retry.maxAttempts failures in a row end the subscription with MCP_EVENTS_RETRIES_EXHAUSTED', async () => {
    const { http } = await serve();
    const mcp = client({ remote: remote(http) });
    const subscription = await repoA(mcp, {
      delivery: 'poll',
      retry: { maxAttempts: 2, initialDelayMs: 10 },
    });
    const errors = errorsOf(subscription);
    await http.close();
    expect(await thrown(drain(subscription))).toMatchObject({
      id: 'MCP_EVENTS_RETRIES_EXHAUSTED',
      details: { attempts: 2 },
    });
    expect(errors.map((error) => error.id)).toEqual(['MCP_EVENTS_DELIVERY_INTERRUPTED']);
  });

  it('subscribe() rejects for unknown events, invalid arguments and forbidden subscriptions', async () => {
    const { http } = await serve();
    const mcp = client({ remote: remote(http) });
    const unknown = await causeId(mcp.events.subscribe('remote', 'nope'));
    expect(unknown).toMatchObject({ id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED', cause: { code: -32023 } });
    const invalid = await causeId(mcp.events.subscribe('remote', 'repo.push', { repo: 1 }));
    expect(invalid).toMatchObject({ id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED', cause: { code: -32602 } });
    const forbidden = await causeId(
      mcp.events.subscribe('remote', 'vault.opened', { vault: 'private' }, { delivery: 'poll' }),
    );
    expect(forbidden).toMatchObject({ id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED', cause: { code: -32024 } });
  });
});

/** An events server over HTTP whose webhook deliveries reach an https endpoint calling the client's handleWebhook. */
async function webhookSetup(
  options: {
    events?: Partial<MCPServerEventsConfig>;
    serverWebhook?: MCPServerWebhookOptions;
    webhook?: Partial<MCPClientWebhookOptions>;
    server?: Partial<MastraMCPServerDefinition>;
  } = {},
) {
  const holder: { mcp?: MCPClient } = {};
  const endpoint = await startWebhookEndpoint((request) =>
    (holder.mcp as MCPClient).events.handleWebhook(request),
  );
  cleanups.push(() => endpoint.close());
  const { server, http } = await serve({
    webhook: {
      allowPrivateAddresses: true,
      fetch: endpoint.fetch,
      retry: { initialDelayMs: 20, attempts: 20 },
      ...options.serverWebhook,
    },
    ...options.events,
  });
  const mcp = client(
    { remote: remote(http, options.server) },
    { webhook: { url: endpoint.url, ...options.webhook } },
  );
  holder.mcp = mcp;
  return { server, http, mcp, endpoint };
}

describe('events over HTTP: webhook', () => {
  it('registers, receives signed deliveries through handleWebhook, reports deliveryStatus; cancel unsubscribes', async () => {
    const { server, mcp, endpoint } = await webhookSetup();
    const subscription = await repoA(mcp);
    expect(subscription.mode).toBe('webhook');
    expect(subscription.deliveryStatus).toMatchObject({ active: true, lastError: null });
    expect(server.events.stats().webhookSubscriptions).toBe(1);
    // The verification handshake was answered through handleWebhook before the id was known.
    expect(endpoint.answered[0]).toMatchObject({ status: 200, body: expect.stringContaining('challenge') });
    await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    await server.events.emit('repo.push', { repo: 'a', sha: '2' });
    const seen = await read(subscription, 2);
    expect(seen.map((event) => [event.data.sha, event.truncated])).toEqual([
      ['1', false],
      ['2', false],
    ]);
    expect(subscription.cursor).toEqual(expect.any(String));
    await subscription.cancel();
    expect(server.events.stats().webhookSubscriptions).toBe(0);
    await expect(drain(subscription)).resolves.toEqual([]);
  });

  it('answers 503 to a delivery that arrives before the subscribe response, and takes the retry', async () => {
    const holder: { endpoint?: Awaited<ReturnType<typeof startWebhookEndpoint>> } = {};
    // The subscribe response is held back until the endpoint has answered a delivery with 503.
    const fetchHoldingSubscribe = async (url: string | URL, init?: RequestInit) => {
      const response = await fetch(url, init);
      if (new Headers(init?.headers).get('mcp-method') === 'events/subscribe') {
        await eventually('a 503', () => holder.endpoint?.answered.some((answer) => answer.status === 503));
      }
      return response;
    };
    const { server, mcp, endpoint } = await webhookSetup({ server: { fetch: fetchHoldingSubscribe } });
    holder.endpoint = endpoint;
    const first = await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    await server.events.emit('repo.push', { repo: 'a', sha: '2' });
    const subscription = await repoA(mcp, { cursor: first.cursor });
    expect((await read(subscription, 1))[0]).toMatchObject({ data: { sha: '2' }, truncated: false });
    await eventually('the retry answered', () => {
      const statuses = endpoint.answered.map((answer) => answer.status);
      return statuses.indexOf(503) < statuses.lastIndexOf(200);
    });
  });

  it('a saved cursor older than retention resumes with truncated on the first occurrence', async () => {
    const { server, mcp } = await webhookSetup({
      events: { store: new InMemoryMCPEventStore({ maxEvents: 2 }) },
    });
    const first = await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    for (const sha of ['2', '3', '4']) await server.events.emit('repo.push', { repo: 'a', sha });
    const subscription = await repoA(mcp, { cursor: first.cursor });
    const seen = await read(subscription, 2);
    expect(seen.map((event) => [event.data.sha, event.truncated])).toEqual([
      ['3', true],
      ['4', false],
    ]);
  });

  it('a slow reader loses the oldest unread occurrence; repeats of an event id reach the loop once', async () => {
    const { server, mcp } = await webhookSetup();
    const subscription = await repoA(mcp, { maxBufferedEvents: 2 });
    const errors = errorsOf(subscription);
    await server.events.emit('repo.push', { repo: 'a', sha: '1' }, { eventId: 'evt-1' });
    await server.events.emit('repo.push', { repo: 'a', sha: '1' }, { eventId: 'evt-1' });
    for (const sha of ['2', '3']) await server.events.emit('repo.push', { repo: 'a', sha });
    await eventually('one occurrence dropped', () => errors.length >= 1);
    const seen = await read(subscription, 2);
    expect(seen.map((event) => [event.data.sha, event.truncated])).toEqual([
      ['2', true],
      ['3', false],
    ]);
    expect(errors.map((error) => [error.id, error.details?.droppedEventId])).toEqual([
      ['MCP_EVENTS_BUFFER_OVERFLOW', 'evt-1'],
    ]);
  });

  it('subscriptions with the same event and arguments share one server-side subscription', async () => {
    const { server, mcp } = await webhookSetup();
    const one = await repoA(mcp);
    const two = await repoA(mcp);
    const other = await mcp.events.subscribe('remote', 'repo.push', { repo: 'b' });
    expect(server.events.stats().webhookSubscriptions).toBe(2);
    await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    expect((await read(one, 1))[0]?.data).toEqual({ repo: 'a', sha: '1' });
    expect((await read(two, 1))[0]?.data).toEqual({ repo: 'a', sha: '1' });
    await one.cancel();
    expect(server.events.stats().webhookSubscriptions).toBe(2);
    await server.events.emit('repo.push', { repo: 'a', sha: '2' });
    expect((await read(two, 1))[0]?.data).toEqual({ repo: 'a', sha: '2' });
    await two.cancel();
    expect(server.events.stats().webhookSubscriptions).toBe(1);
    await other.cancel();
    expect(server.events.stats().webhookSubscriptions).toBe(0);
  });

  it('refreshes before refreshBefore and reports failing delivery with lastError', async () => {
    const { server, mcp, endpoint } = await webhookSetup({
      serverWebhook: { retry: { initialDelayMs: 10, attempts: 2 }, minTtlMs: 1000 },
      webhook: { ttlMs: 1000, refreshMarginMs: 800 },
    });
    const subscription = await repoA(mcp);
    const errors = errorsOf(subscription);
    endpoint.override = (request) =>
      request.headers.get('webhook-id')?.startsWith('msg_verification')
        ? undefined
        : new Response(null, { status: 500 });
    await server.events.emit('repo.push', { repo: 'a', sha: '1' });
    await eventually('a failing delivery report', () =>
      errors.some((error) => error.id === 'MCP_EVENTS_WEBHOOK_DELIVERY_FAILING'),
    );
    const failing = errors.find((error) => error.id === 'MCP_EVENTS_WEBHOOK_DELIVERY_FAILING');
    expect(failing?.details).toMatchObject({ lastError: 'http_5xx' });
    expect(subscription.deliveryStatus?.lastError).toBe('http_5xx');
    endpoint.override = undefined;
    await server.events.emit('repo.push', { repo: 'a', sha: '2' });
    expect((await read(subscription, 1))[0]?.data).toMatchObject({ sha: expect.any(String) });
  });

  it('a removed event type sends terminated: the iterator throws MCP_EVENTS_SUBSCRIPTION_TERMINATED', async () => {
    const { server, mcp } = await webhookSetup();
    const subscription = await repoA(mcp);
    await server.events.remove('repo.push');
    expect(await thrown(drain(subscription))).toMatchObject({
      id: 'MCP_EVENTS_SUBSCRIPTION_TERMINATED',
      details: { code: -32023 },
    });
  });

  it('without an authenticated caller: push instead (MCP_EVENTS_WEBHOOK_UNAVAILABLE); forced webhook rejects', async () => {
    const { mcp } = await webhookSetup({ server: { requestInit: {} } });
    const subscription = await repoA(mcp);
    expect(subscription.mode).toBe('push');
    const first: MastraError[] = [];
    const second: MastraError[] = [];
    subscription.onError((error) => first.push(error as MastraError));
    subscription.onError((error) => second.push(error as MastraError));
    await eventually('the held error', () => first.length > 0);
    expect(first[0]).toMatchObject({
      id: 'MCP_EVENTS_WEBHOOK_UNAVAILABLE',
      details: { code: -32024, fallback: 'push' },
    });
    expect(second).toEqual([]);
    const forced = await causeId(repoA(mcp, { delivery: 'webhook' }));
    expect(forced).toMatchObject({ id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED', cause: { code: -32024 } });
  });
});

describe('events.handleWebhook', () => {
  it('answers 404 without webhook settings, 405 for other methods, 413 over 1 MiB (read first)', async () => {
    const plain = client({ none: { url: new URL('http://127.0.0.1:9/mcp') } });
    const url = 'https://agent.example/mcp/webhook';
    expect((await plain.events.handleWebhook(new Request(url, { method: 'POST', body: '{}' }))).status).toBe(
      404,
    );
    const mcp = client({ none: { url: new URL('http://127.0.0.1:9/mcp') } }, { webhook: { url } });
    expect((await mcp.events.handleWebhook(new Request(url, { method: 'GET' }))).status).toBe(405);
    expect((await mcp.events.handleWebhook(new Request(url, { method: 'PUT', body: '{}' }))).status).toBe(
      405,
    );
    const huge = 'x'.repeat(1024 * 1024 + 1);
    // A streamed body without a length is still cut off at the limit.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    expect(
      (
        await mcp.events.handleWebhook(
          new Request(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit),
        )
      ).status,
    ).toBe(413);
    expect(
      (
        await mcp.events.handleWebhook(
          new Request(url, { method: 'GET', headers: { 'content-length': String(huge.length) } }),
        )
      ).status,
    ).toBe(413);
    expect((await plain.events.handleWebhook(new Request(url, { method: 'POST', body: huge }))).status).toBe(
      413,
    );
  });

  it('verifies signatures first (401 forged or stale), 503 for an unknown id only when signed with webhook.secret, 400 signed but malformed', async () => {
    const secret = generateWebhookSecret();
    const { server, mcp, endpoint } = await webhookSetup({ webhook: { secret } });
    const subscription = await repoA(mcp);
    await server.events.emit('repo.push', { repo: 'a', sha: '1' }, { eventId: 'evt-1' });
    await read(subscription, 1);
    const id = await eventually(
      'the delivery answered',
      () =>
        endpoint.answered.find((answer) => answer.headers['webhook-id'] === 'evt-1')?.headers[
          'x-mcp-subscription-id'
        ],
    );
    expect(id).toEqual(expect.stringMatching(/^sub_/));
    const { url } = endpoint;
    const handle = (request: Request) =>
      mcp.events.handleWebhook(request).then((response) => response.status);

    // The same occurrence again, validly signed: acknowledged, and dropped as a repeat.
    expect(
      await handle(
        signedDelivery(url, pushOccurrence('evt-1', '1'), { secret, subscriptionId: id as string }),
      ),
    ).toBe(200);
    // Forged (another key), stale (over 5 minutes old), or unsigned: 401, whatever the body.
    expect(
      await handle(
        signedDelivery(url, pushOccurrence('evt-2', 'x'), {
          secret: generateWebhookSecret(),
          subscriptionId: id as string,
        }),
      ),
    ).toBe(401);
    const stale = new Date(Date.now() - 6 * 60_000);
    expect(
      await handle(
        signedDelivery(url, pushOccurrence('evt-2', 'x'), {
          secret,
          subscriptionId: id as string,
          at: stale,
        }),
      ),
    ).toBe(401);
    expect(
      await handle(
        new Request(url, {
          method: 'POST',
          body: 'not json',
          headers: { 'x-mcp-subscription-id': id as string },
        }),
      ),
    ).toBe(401);
    // Signed but malformed: 400.
    expect(await handle(signedDelivery(url, 'not json', { secret, subscriptionId: id as string }))).toBe(400);
    expect(
      await handle(
        signedDelivery(url, JSON.stringify({ eventId: 'evt-3' }), { secret, subscriptionId: id as string }),
      ),
    ).toBe(400);
    expect(
      await handle(
        signedDelivery(url, JSON.stringify({ type: 'mystery' }), { secret, subscriptionId: id as string }),
      ),
    ).toBe(400);
    // An id not known yet: 503 when it verifies with webhook.secret (the server retries), else 401.
    expect(
      await handle(
        signedDelivery(url, pushOccurrence('evt-4', '4'), { secret, subscriptionId: 'sub_unknown' }),
      ),
    ).toBe(503);
    expect(
      await handle(
        signedDelivery(url, pushOccurrence('evt-4', '4'), {
          secret: generateWebhookSecret(),
          subscriptionId: 'sub_unknown',
        }),
      ),
    ).toBe(401);
    // The verification handshake is echoed.
    const challenge = await mcp.events.handleWebhook(
      signedDelivery(url, JSON.stringify({ type: 'verification', challenge: 'abc' }), {
        secret,
        subscriptionId: 'sub_unknown',
        messageId: 'msg_verification_1',
      }),
    );
    expect(await challenge.json()).toEqual({ challenge: 'abc' });

    // A gap control body marks the next occurrence; a terminated one ends the subscription.
    expect(
      await handle(
        signedDelivery(url, JSON.stringify({ type: 'gap', cursor: null }), {
          secret,
          subscriptionId: id as string,
          messageId: 'msg_gap_1',
        }),
      ),
    ).toBe(200);
    expect(
      await handle(
        signedDelivery(url, pushOccurrence('evt-5', '5'), {
          secret,
          subscriptionId: id as string,
          messageId: 'evt-5',
        }),
      ),
    ).toBe(200);
    expect((await read(subscription, 1))[0]).toMatchObject({ eventId: 'evt-5', truncated: true });
    const terminated = JSON.stringify({ type: 'terminated', error: { code: -32023, message: 'gone' } });
    expect(
      await handle(
        signedDelivery(url, terminated, {
          secret,
          subscriptionId: id as string,
          messageId: 'msg_terminated_1',
        }),
      ),
    ).toBe(200);
    expect(await thrown(drain(subscription))).toMatchObject({ id: 'MCP_EVENTS_SUBSCRIPTION_TERMINATED' });
  });
});

describe('events: capability, modes and lifecycle', () => {
  it('a server without the extension, or on an older revision, is never sent events/*: MCP_EVENTS_NOT_SUPPORTED', async () => {
    const { http: eventsHttp } = await serve();
    // No `events` option: no capability.
    const bare = new MCPServer({ name: 'bare', version: '1.0.0', tools: {} });
    const bareHttp = await serveHttp(bare);
    cleanups.push(
      () => bareHttp.close(),
      () => bare.close(),
    );
    const methods: string[] = [];
    const recording = async (url: string | URL, init?: RequestInit) => {
      methods.push(new Headers(init?.headers).get('mcp-method') ?? '');
      return fetch(url, init);
    };
    const mcp = client({
      bare: { url: bareHttp.mcpUrl, protocolVersion: '2026-07-28', fetch: recording },
      legacy: { url: eventsHttp.mcpUrl, protocolVersion: 'legacy', fetch: recording },
    });
    for (const name of ['bare', 'legacy']) {
      expect(await causeId(mcp.events.list(name))).toMatchObject({
        id: 'MCP_CLIENT_LIST_EVENTS_FAILED',
        causeId: 'MCP_EVENTS_NOT_SUPPORTED',
      });
      expect(await causeId(mcp.events.subscribe(name, 'repo.push', { repo: 'a' }))).toMatchObject({
        id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED',
        causeId: 'MCP_EVENTS_NOT_SUPPORTED',
      });
    }
    expect(methods.filter((method) => method.startsWith('events/'))).toEqual([]);
  });

  it('forced modes: webhook without settings, a mode the event does not offer', async () => {
    const { server, http } = await serve();
    server.events.define('hook.only', { delivery: ['webhook'] });
    const mcp = client({ remote: remote(http) });
    expect(await causeId(repoA(mcp, { delivery: 'webhook' }))).toMatchObject({
      id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED',
      causeId: 'MCP_EVENTS_WEBHOOK_NOT_CONFIGURED',
    });
    expect(
      await causeId(mcp.events.subscribe('remote', 'report.ready', {}, { delivery: 'push' })),
    ).toMatchObject({
      id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED',
      causeId: 'MCP_EVENTS_NO_COMPATIBLE_DELIVERY_MODE',
    });
    expect(await causeId(mcp.events.subscribe('remote', 'hook.only'))).toMatchObject({
      id: 'MCP_CLIENT_SUBSCRIBE_EVENT_FAILED',
      causeId: 'MCP_EVENTS_NO_COMPATIBLE_DELIVERY_MODE',
    });
    const poll = await mcp.events.subscribe('remote', 'report.ready');
    expect(poll.mode).toBe('poll');
  });

  it('disconnect() ends every loop normally; cancel(), break and the signal stop delivery on the server', async () => {
    const { server, mcp } = await webhookSetup();
    const modes = ['push', 'poll', 'webhook'] as const;
    const subscriptions = await Promise.all(
      modes.map((delivery) => mcp.events.subscribe('remote', 'repo.push', { repo: delivery }, { delivery })),
    );
    const loops = subscriptions.map(drain);
    const push = await mcp.events.subscribe('remote', 'repo.push', { repo: 'x' }, { delivery: 'push' });
    const webhook = await mcp.events.subscribe('remote', 'repo.push', { repo: 'x' }, { delivery: 'webhook' });
    const controller = new AbortController();
    const signalled = await mcp.events.subscribe(
      'remote',
      'repo.push',
      { repo: 'y' },
      { delivery: 'push', signal: controller.signal },
    );
    expect(server.events.stats()).toMatchObject({ streams: 3, webhookSubscriptions: 2 });

    await server.events.emit('repo.push', { repo: 'x', sha: '1' });
    for await (const event of push) {
      expect(event.data.sha).toBe('1');
      break;
    }
    await webhook.cancel();
    controller.abort();
    await expect(drain(signalled)).resolves.toEqual([]);
    await eventually('the server to close the streams', () => server.events.stats().streams === 1);
    expect(server.events.stats().webhookSubscriptions).toBe(1);

    await mcp.disconnect();
    await expect(Promise.all(loops)).resolves.toEqual([[], [], []]);
    await eventually('the server to see everything closed', () => {
      const stats = server.events.stats();
      return stats.streams === 0 && stats.webhookSubscriptions === 0;
    });
  });
});
