/**
 * MCP Events across instances: three MCPServer processes (test/fixtures/redis-instance.ts with
 * `events`, one server id `scaled`) share a RedisMCPEventStore on a private redis-server. Our
 * MCPClient reaches them through two balancers (test/fixtures/balancer.ts): `push` prefers
 * instance 2, `poll` prefers instance 3; occurrences are emitted on instance 1. Subscriptions use
 * `dedupWindow: 0`, so a duplicate the servers sent would show.
 *
 * What is checked: delivery in emit order with no gap and no duplicate, on both modes; cursors
 * issued by one instance resume on another; instance 2 killed (SIGKILL) mid-stream, the stream
 * reopens on instance 3 and everything `emit()` resolved for arrives; Redis killed and restarted
 * (AOF): emits fail with MCP_REDIS_UNAVAILABLE meanwhile, polls get a JSON-RPC error naming the
 * store instead of hanging, and delivery resumes with nothing acknowledged lost.
 */
import type { MastraError } from '@mastra/core/error';
import { ProtocolError } from '@modelcontextprotocol/client';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPEventSubscribeOptions, type MCPEventSubscription } from '../../src/index.js';
import { PollEventsResultSchema, StreamEventsResultSchema } from '../../src/shared/events-wire.js';
import { type Balancer, startBalancer } from '../fixtures/balancer.js';
import { type Instance, startInstance } from '../fixtures/instance-process.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { connectHttp } from '../helpers.js';
import { eventually } from '../support/wait.js';

const CHANNEL = 'mastra-mcp:events:scaled:appended';

interface Emitted {
  eventId: string;
  cursor: string;
  data: { repo: string; sha: string };
}

let redis: RedisServer;
let admin: ReturnType<typeof createClient>;
let instances: Instance[] = [];
let balancers: { push: Balancer; poll: Balancer };
let mcp: MCPClient;
let nextSha = 0;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Connections listening on the store's channel (0 while Redis cannot answer). */
async function subscribers(): Promise<number> {
  const counts = (await admin.pubSubNumSub(CHANNEL).catch(() => ({}))) as Record<string, number>;
  return counts[CHANNEL] ?? 0;
}

const instance = (n: 1 | 2 | 3) => instances[n - 1] as Instance;

/** Emits `count` occurrences of `repo.push` on instance 1, one after another; resolves with what was stored. */
async function emit(count: number, repo = 'a'): Promise<Emitted[]> {
  const emitted: Emitted[] = [];
  for (let i = 0; i < count; i += 1) {
    const data = { repo, sha: String(++nextSha) };
    emitted.push((await instance(1).send({ action: 'emit', name: 'repo.push', data })) as Emitted);
  }
  return emitted;
}

/** Waits until instance `n` holds exactly `count` push streams (cancelled ones close asynchronously). */
const streamsOn = (n: 1 | 2 | 3, count: number) =>
  eventually(`${count} push stream(s) on instance ${n}`, async () => {
    const stats = (await instance(n).send({ action: 'stats' })) as { streams: number };
    return stats.streams === count;
  });

function subscribe(server: 'push' | 'poll', options: MCPEventSubscribeOptions = {}) {
  return mcp.events.subscribe(
    server,
    'repo.push',
    { repo: 'a' },
    {
      delivery: server,
      minPollIntervalMs: 0,
      dedupWindow: 0,
      retry: { initialDelayMs: 50, maxDelayMs: 200 },
      ...options,
    },
  );
}

/** Reads `count` occurrences without ending the subscription: their event ids, and any marked truncated. */
async function read(subscription: MCPEventSubscription, count: number) {
  const iterator = subscription[Symbol.asyncIterator]();
  const ids: string[] = [];
  let truncated = false;
  while (ids.length < count) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the subscription ended after ${ids.length} occurrences`);
    ids.push(next.value.eventId);
    truncated ||= subscription.truncated;
  }
  return { ids, truncated, cursor: subscription.cursor };
}

const idsOf = (emitted: Emitted[]) => emitted.map((event) => event.eventId);

beforeAll(async () => {
  redis = await startRedisServer();
  admin = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  admin.on('error', () => {});
  await admin.connect();
  instances = await Promise.all([1, 2, 3].map(() => startInstance(redis.url, { events: {} })));
  await eventually('all three instances listen for appends', async () => (await subscribers()) === 3);
  balancers = {
    push: await startBalancer([instance(2).url, instance(3).url, instance(1).url], { policy: 'failover' }),
    poll: await startBalancer([instance(3).url, instance(1).url, instance(2).url], { policy: 'failover' }),
  };
  mcp = new MCPClient({
    id: 'redis-events',
    registerProcessHooks: false,
    servers: {
      push: { url: balancers.push.url, protocolVersion: '2026-07-28' },
      poll: { url: balancers.poll.url, protocolVersion: '2026-07-28' },
    },
  });
}, 60_000);

afterAll(async () => {
  await mcp?.disconnect();
  for (const each of instances) await each.kill();
  await balancers?.push.close();
  await balancers?.poll.close();
  await admin?.close();
  await redis?.close();
});

describe('MCP Events over three instances sharing a RedisMCPEventStore', () => {
  it('push on instance 2 and poll on instance 3 get what instance 1 emits: in order, no gap, no duplicate', async () => {
    const push = await subscribe('push');
    const poll = await subscribe('poll');
    cleanups.push(
      () => push.cancel(),
      () => poll.cancel(),
    );
    expect([push.mode, poll.mode]).toEqual(['push', 'poll']);
    await streamsOn(2, 1);
    expect(balancers.poll.served[0]).toBeGreaterThan(0);

    const [first, other, second] = [await emit(6), await emit(3, 'b'), await emit(6)];
    const expected = idsOf([...first, ...second]);
    const [pushed, polled] = await Promise.all([read(push, 12), read(poll, 12)]);
    expect(pushed).toMatchObject({ ids: expected, truncated: false });
    expect(polled).toMatchObject({ ids: expected, truncated: false });
    expect(expected).not.toContain(other[0]?.eventId);
    // Only instance 2 ever served the push stream, and only instance 3 the polls.
    expect(balancers.push.served.slice(1)).toEqual([0, 0]);
    expect(balancers.poll.served.slice(1)).toEqual([0, 0]);
  });

  it('a cursor issued by one instance resumes on another', async () => {
    const emitted = await emit(5);
    // The cursor emit() returned on instance 1, resumed by a push stream on instance 2.
    const fromEmit = await subscribe('push', { cursor: emitted[1]?.cursor });
    cleanups.push(() => fromEmit.cancel());
    const pushed = await read(fromEmit, 3);
    expect(pushed).toMatchObject({ ids: idsOf(emitted.slice(2)), truncated: false });
    // The cursor the push stream on instance 2 gave, resumed by polling instance 3.
    const more = await emit(2);
    const fromPush = await subscribe('poll', { cursor: pushed.cursor });
    cleanups.push(() => fromPush.cancel());
    expect(await read(fromPush, 2)).toMatchObject({ ids: idsOf(more), truncated: false });
  });

  it('instance 2 killed mid-stream: the stream reopens on instance 3 and everything acknowledged arrives once', async () => {
    const push = await subscribe('push');
    cleanups.push(() => push.cancel());
    await streamsOn(2, 1);
    const before = await emit(4);
    expect((await read(push, 4)).ids).toEqual(idsOf(before));

    const emitting = emit(12);
    await instance(2).kill();
    const during = await emitting;
    const after = await read(push, 12);
    expect(after).toMatchObject({ ids: idsOf(during), truncated: false });
    await streamsOn(3, 1);
  });

  it('Redis restarted mid-run: emits fail clearly meanwhile, polls get an error naming the store, delivery resumes with nothing acknowledged lost', async () => {
    const push = await subscribe('push');
    const poll = await subscribe('poll');
    const pollErrors: MastraError[] = [];
    poll.onError((error) => pollErrors.push(error as MastraError));
    cleanups.push(
      () => push.cancel(),
      () => poll.cancel(),
    );
    const raw = await connectHttp(instance(3).url, 'modern');
    cleanups.push(() => raw.close());
    const before = await emit(3);
    const resumeFrom = before[0]?.cursor;
    expect((await read(push, 3)).ids).toEqual(idsOf(before));
    expect((await read(poll, 3)).ids).toEqual(idsOf(before));

    await redis.stop();
    const failed = await emit(1).then(
      () => undefined,
      (error: Error & { errorId?: string }) => error,
    );
    expect(failed?.errorId).toBe('MCP_REDIS_UNAVAILABLE');
    expect(failed?.message).toContain(
      "RedisMCPEventStore: append of 'mastra-mcp:events:scaled:stream:repo.push' (prefix 'mastra-mcp:events:scaled:')",
    );
    const storeError = await eventually('a poll answered with the store error', () =>
      pollErrors.find((error) => error.message.includes('RedisMCPEventStore: readAfter of')),
    );
    expect(storeError.id).toBe('MCP_EVENTS_DELIVERY_INTERRUPTED');
    // On the wire: an internal error naming the store and what it could not do, not a hang.
    const target = { name: 'repo.push', arguments: { repo: 'a' } };
    const [polled, streamed] = await Promise.all(
      [
        raw.request(
          { method: 'events/poll', params: { ...target, cursor: resumeFrom } },
          PollEventsResultSchema,
        ),
        raw.request(
          { method: 'events/stream', params: { ...target, cursor: null } },
          StreamEventsResultSchema,
        ),
      ].map((request) =>
        request.then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    for (const [error, operation] of [
      [polled, 'readAfter'],
      [streamed, 'head'],
    ] as const) {
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32603);
      expect((error as ProtocolError).message).toContain(
        `RedisMCPEventStore: ${operation} of 'mastra-mcp:events:scaled:`,
      );
    }

    await redis.restart();
    await eventually('the live instances listen again', async () => (await subscribers()) === 2);
    const after = await emit(3);
    expect((await read(push, 3)).ids).toEqual(idsOf(after));
    expect((await read(poll, 3)).ids).toEqual(idsOf(after));
    // The history survived the crash (AOF) under the same epoch: a cursor from before it resumes
    // with no gap, and the emit that failed was never stored.
    const resumed = await subscribe('poll', { cursor: resumeFrom });
    cleanups.push(() => resumed.cancel());
    expect(await read(resumed, 5)).toMatchObject({
      ids: idsOf([...before.slice(1), ...after]),
      truncated: false,
    });
    expect(instance(1).child.exitCode).toBeNull();
    expect(instance(3).child.exitCode).toBeNull();
  });

  it('the live instances close their servers, stop listening and exit by themselves', async () => {
    await mcp.disconnect();
    expect(await Promise.all([instance(1).stop(), instance(3).stop()])).toEqual([0, 0]);
    expect(await subscribers()).toBe(0);
  });
});
