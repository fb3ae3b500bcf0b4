/**
 * Resumability of legacy (2025) Streamable HTTP sessions with a RedisResumabilityEventStore: an MCPServer
 * process (test/fixtures/redis-instance.ts) stores every SSE message in Redis Streams. A client
 * whose stream is cut while the server keeps sending progress reconnects with Last-Event-ID and
 * gets what it missed, in order; sessions sharing the store never see each other's events; the
 * events outlive the process that stored them (the session does not); and while Redis is down the
 * messages still reach a connected client, only without event ids, until Redis returns.
 *
 * The client side is raw HTTP so the test decides exactly where a stream is cut.
 */
import { MastraError } from '@mastra/core/error';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisResumabilityEventStore } from '../../src/redis/index.js';
import { type Instance, startInstance } from '../fixtures/instance-process.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { type SseEvent, sseEvents } from '../support/sse.js';
import { eventually } from '../support/wait.js';

const PREFIX = 'mastra-mcp:sse:';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

let nextId = 0;

class LegacySession {
  constructor(
    readonly url: URL,
    readonly id: string,
  ) {}

  static async open(url: URL): Promise<LegacySession> {
    const response = await fetch(url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++nextId,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    await response.text();
    const session = new LegacySession(url, response.headers.get('mcp-session-id') as string);
    await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' }).then((r) => r.text());
    return session;
  }

  post(message: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': this.id },
      body: JSON.stringify(message),
      ...(signal ? { signal } : {}),
    });
  }

  /** The standalone stream, or a resumed one with `lastEventId`. */
  get(lastEventId?: string, signal?: AbortSignal): Promise<Response> {
    return fetch(this.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': this.id,
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      ...(signal ? { signal } : {}),
    });
  }

  /** Starts `paced` and reads its stream until `before` progress messages arrived, then cuts it. */
  async pacedUntilCut(before: number, after: number): Promise<SseEvent[]> {
    const cut = new AbortController();
    const response = await this.post(
      {
        jsonrpc: '2.0',
        id: ++nextId,
        method: 'tools/call',
        params: { name: 'paced', arguments: { before, after }, _meta: { progressToken: `p${nextId}` } },
      },
      cut.signal,
    );
    const seen: SseEvent[] = [];
    for await (const event of sseEvents(response)) {
      seen.push(event);
      if (seen.length === before) break;
    }
    cut.abort();
    return seen;
  }
}

/** Everything a resumed stream replays, up to the end of the request it belongs to. */
async function replay(session: LegacySession, lastEventId: string): Promise<SseEvent[]> {
  const response = await session.get(lastEventId);
  expect(response.status).toBe(200);
  const events: SseEvent[] = [];
  for await (const event of sseEvents(response)) events.push(event);
  return events;
}

const progressOf = (events: SseEvent[]) =>
  events.map((e) => (e.message.method === 'notifications/progress' ? e.message.params?.progress : 'result'));

const streamKey = (eventId: string) =>
  PREFIX + decodeURIComponent(eventId.slice(0, eventId.lastIndexOf(':')));

let redis: RedisServer;
let admin: ReturnType<typeof createClient>;
let instance: Instance;
const instances: Instance[] = [];

async function storedResults(key: string): Promise<number> {
  const entries = (await admin.sendCommand(['XRANGE', key, '-', '+'])) as Array<[string, string[]]>;
  return entries.filter(([, fields]) => fields[1]?.includes('"result"')).length;
}

beforeAll(async () => {
  redis = await startRedisServer();
  admin = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  admin.on('error', () => {});
  await admin.connect();
  instance = await startInstance(redis.url, { legacyEventStore: { timeoutMs: 300 } });
  instances.push(instance);
}, 60_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.kill()));
  await admin?.close();
  await redis?.close();
});

/** The event id the first test's client last saw, and what it missed after it. */
let resumedFrom: { lastEventId: string; missed: SseEvent[] };

describe('RedisResumabilityEventStore behind legacy Streamable HTTP sessions', () => {
  it('a stream cut while progress is sent is resumed with Last-Event-ID: the missed messages, in order', async () => {
    const session = await LegacySession.open(instance.url);
    const seen = await session.pacedUntilCut(2, 3);
    expect(progressOf(seen)).toEqual([1, 2]);
    const lastEventId = seen[1]?.id as string;
    expect(lastEventId).toMatch(new RegExp(`^${encodeURIComponent(session.id)}%2F.+:\\d+-\\d+$`));

    // The tool finishes while nobody listens; its last steps and its result are only in Redis.
    await instance.send({ action: 'release' });
    await eventually('the result stored', async () => (await storedResults(streamKey(lastEventId))) === 1);

    const missed = await replay(session, lastEventId);
    expect(progressOf(missed)).toEqual([3, 4, 5, 'result']);
    expect(missed.at(-1)?.message.result).toMatchObject({ content: [{ type: 'text', text: 'paced 5' }] });
    const ids = missed.map((e) => e.id as string);
    expect(ids.every((id) => streamKey(id) === streamKey(lastEventId))).toBe(true);
    expect(
      [...ids].sort(
        (x, y) => Number(x.split(':')[1]?.split('-')[0]) - Number(y.split(':')[1]?.split('-')[0]),
      ),
    ).toEqual(ids);
    // Resuming again from the middle replays only what follows.
    expect(progressOf(await replay(session, ids[1] as string))).toEqual([5, 'result']);
    resumedFrom = { lastEventId, missed };
  });

  it("sessions sharing the store keep their own streams, and one cannot replay another's events", async () => {
    const [one, two] = await Promise.all([
      LegacySession.open(instance.url),
      LegacySession.open(instance.url),
    ]);
    const listen = async (session: LegacySession) => {
      const stop = new AbortController();
      const events = sseEvents(await session.get(undefined, stop.signal));
      return { events, stop };
    };
    const [first, second] = await Promise.all([listen(one), listen(two)]);
    const added = instance.send({ action: 'addTool', name: 'echo' });
    const [heardByOne, heardByTwo] = await Promise.all([first.events.next(), second.events.next()]);
    await added;
    expect(heardByOne.value?.message.method).toBe('notifications/tools/list_changed');
    expect(heardByTwo.value?.message.method).toBe('notifications/tools/list_changed');
    first.stop.abort();
    second.stop.abort();
    await first.events.return(undefined);
    await second.events.return(undefined);

    // Missed by both while disconnected; each resumes only its own standalone stream.
    await instance.send({ action: 'removeTool', name: 'echo' });
    for (const [session, heard] of [
      [one, heardByOne],
      [two, heardByTwo],
    ] as const) {
      const resumed = await session.get(heard.value?.id);
      const stop = new AbortController();
      const events = sseEvents(resumed);
      const next = await events.next();
      expect(next.value?.message.method).toBe('notifications/tools/list_changed');
      expect(streamKey(next.value?.id as string)).toBe(`${PREFIX}${session.id}/_GET_stream`);
      stop.abort();
      await events.return(undefined);
      await resumed.body?.cancel().catch(() => {});
    }
    const foreign = await one.get(heardByTwo.value?.id);
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ error: { message: 'Invalid event ID format' } });
  });

  it('events outlive the process that stored them (and a Redis restart), while the session itself is gone', async () => {
    const session = await LegacySession.open(instance.url);
    expect(await instance.stop()).toBe(0);
    const restarted = await startInstance(redis.url, { legacyEventStore: { timeoutMs: 300 } });
    instances.push(restarted);
    const gone = await new LegacySession(restarted.url, session.id).get(resumedFrom.lastEventId);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      error: { message: expect.stringContaining('Session not found') },
    });

    await redis.restart();
    await eventually('Redis answers again', async () => admin.isReady && (await admin.ping()) === 'PONG');
    const store = new RedisResumabilityEventStore({ client: admin });
    const replayed: JSONRPCMessage[] = [];
    const streamId = await store.replayEventsAfter(resumedFrom.lastEventId, {
      send: async (_id, message) => {
        replayed.push(message);
      },
    });
    expect(PREFIX + streamId).toBe(streamKey(resumedFrom.lastEventId));
    expect(replayed).toEqual(resumedFrom.missed.map((e) => e.message));
    instance = restarted;
  });

  it('while Redis is down a tool call still completes live without event ids, the failure is logged, and resuming works once Redis is back', async () => {
    const session = await LegacySession.open(instance.url);
    await redis.stop();
    await instance.send({ action: 'release' });
    const response = await session.post({
      jsonrpc: '2.0',
      id: ++nextId,
      method: 'tools/call',
      params: { name: 'paced', arguments: { before: 2, after: 0 }, _meta: { progressToken: 'down' } },
    });
    const live: SseEvent[] = [];
    for await (const event of sseEvents(response)) live.push(event);
    expect(progressOf(live)).toEqual([1, 2, 'result']);
    expect(live.map((e) => e.id)).toEqual([undefined, undefined, undefined]);
    const logged = instance.logged.filter((m) => m.includes('an event was sent without an id'));
    expect(logged.length).toBeGreaterThanOrEqual(3);
    expect(logged[0]).toMatch(
      new RegExp(
        `legacy session '${session.id}': an event was sent without an id and cannot be resumed: RedisResumabilityEventStore: storeEvent of '${PREFIX}${session.id}/[^']+' \\(prefix '${PREFIX}'\\) (got no answer from Redis within 300 ms|failed while Redis is not connected)`,
      ),
    );

    const direct = new RedisResumabilityEventStore({ client: admin, timeoutMs: 300 });
    const refused = await direct
      .storeEvent('s1', { jsonrpc: '2.0', method: 'ping' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MastraError);
    expect((refused as MastraError).id).toBe('MCP_REDIS_UNAVAILABLE');
    expect((refused as MastraError).message).toContain(
      `RedisResumabilityEventStore: storeEvent of '${PREFIX}s1'`,
    );

    await redis.restart();
    await eventually('Redis answers again', async () => admin.isReady && (await admin.ping()) === 'PONG');
    const seen = await session.pacedUntilCut(1, 2);
    await instance.send({ action: 'release' });
    const lastEventId = seen[0]?.id as string;
    await eventually('the result stored', async () => (await storedResults(streamKey(lastEventId))) === 1);
    expect(progressOf(await replay(session, lastEventId))).toEqual([2, 3, 'result']);
    expect(instance.child.exitCode).toBeNull();
  });

  it('keeps the last maxLength events of a stream, and refuses options that cannot work', async () => {
    const store = new RedisResumabilityEventStore({
      client: admin,
      keyPrefix: 'bounded:',
      maxLength: 3,
      ttlSeconds: 60,
    });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) {
      ids.push(
        await store.storeEvent('s', { jsonrpc: '2.0', method: 'notifications/progress', params: { n } }),
      );
    }
    const replayed: unknown[] = [];
    await store.replayEventsAfter(ids[0] as string, {
      send: async (_id, message) => {
        replayed.push((message as unknown as { params: { n: number } }).params.n);
      },
    });
    expect(replayed).toEqual([3, 4, 5]);
    expect(await admin.ttl('bounded:s')).toBeGreaterThan(50);
    expect(await store.getStreamIdForEventId('no-entry-id')).toBeUndefined();

    const invalid = (options: Record<string, number>) => {
      try {
        new RedisResumabilityEventStore({ client: admin, ...options });
      } catch (error) {
        return error as MastraError;
      }
      throw new Error('constructed');
    };
    expect(invalid({ maxLength: 0 }).id).toBe('MCP_REDIS_INVALID_OPTION');
    expect(invalid({ ttlSeconds: 1.5 }).message).toBe(
      "RedisResumabilityEventStore: option 'ttlSeconds' must be a positive whole number, got 1.5",
    );
  });

  it('the instance exits by itself once closed', async () => {
    expect(await instance.stop()).toBe(0);
  });
});
