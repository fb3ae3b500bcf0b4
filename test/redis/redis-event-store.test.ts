/**
 * RedisMCPEventStore against a real redis-server (test/fixtures/redis-server.ts), each "instance"
 * with its own node-redis connections: the same answers as InMemoryMCPEventStore for the same
 * appends and reads (retention, truncated, filters, limits), age retention, one epoch shared by
 * every instance and a new one after a wipe (old positions answered like foreign cursors), two
 * instances appending at once (one total order, nothing lost), wakeups across instances, and an
 * outage: named MCP_REDIS_UNAVAILABLE errors, acknowledged appends kept, recovery by itself.
 */
import { MastraError } from '@mastra/core/error';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  InMemoryMCPEventStore,
  type MCPEventOccurrence,
  type MCPEventStore,
  type MCPEventStoreFilter,
} from '../../src/index.js';
import {
  REDIS_UNAVAILABLE,
  RedisMCPEventStore,
  type RedisMCPEventStoreOptions,
} from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let redis: RedisServer;
let admin: Awaited<ReturnType<typeof connect>>;
beforeAll(async () => {
  redis = await startRedisServer();
  admin = await connect();
});
afterAll(async () => {
  await admin?.close();
  await redis?.close();
});

afterEach(async () => {
  if (admin.isReady) await admin.flushAll();
});

async function connect() {
  const client = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** One instance's store on its own two connections. */
async function instance(options: Partial<RedisMCPEventStoreOptions> = {}) {
  const client = await connect();
  const subscriber = await connect();
  cleanups.push(() => Promise.all([client.close(), subscriber.close()]));
  const errors: Error[] = [];
  const store = new RedisMCPEventStore({
    client,
    subscriber,
    serverId: 'srv',
    onError: (error) => errors.push(error),
    ...options,
  });
  return { store, client, errors };
}

let nextId = 0;
function occurrence(name: string, data: Record<string, unknown> = {}, timestamp = new Date()) {
  return { eventId: `evt-${++nextId}`, name, timestamp: timestamp.toISOString(), data };
}

/** A read with positions as their numbers and occurrences as their data, comparable across stores. */
async function readOf(store: MCPEventStore, after: number, filter: MCPEventStoreFilter, limit: number) {
  const prefix = (await store.head()).replace(/\d+$/, '');
  const read = await store.readAfter(`${prefix}${after}`, filter, limit);
  const n = (position: string) => Number(position.slice(prefix.length));
  return {
    events: read.events.map((event) => [n(event.position), event.occurrence.data]),
    from: n(read.from),
    position: n(read.position),
    truncated: read.truncated,
    hasMore: read.hasMore,
  };
}

describe('RedisMCPEventStore', () => {
  it('answers every read exactly as the in-memory store does: positions, retention, truncated, filters, limits', async () => {
    const memory = new InMemoryMCPEventStore({ maxEvents: 3 });
    const { store } = await instance({ maxEvents: 3 });
    const old = new Date(Date.now() - 60_000);
    const appends: MCPEventOccurrence[] = [
      occurrence('a', { i: 1 }, old),
      occurrence('b', { i: 2 }),
      occurrence('a', { i: 3 }, old),
      occurrence('a', { i: 4 }),
      occurrence('b', { i: 5 }),
      occurrence('a', { i: 6 }),
      occurrence('a', { i: 7 }),
      occurrence('b', { i: 8 }),
    ];
    const reads: Array<[number, MCPEventStoreFilter, number]> = [];
    for (const name of ['a', 'b', 'never']) {
      for (const after of [0, 1, 3, 4, 6, 8]) {
        for (const limit of [0, 1, 2, 100]) {
          reads.push([after, { name }, limit]);
          reads.push([after, { name, match: (o) => (o.data.i as number) % 2 === 0 }, limit]);
          reads.push([after, { name, notBefore: Date.now() - 30_000 }, limit]);
        }
      }
    }
    const compare = async (appended: number) => {
      for (const [after, filter, limit] of reads) {
        if (after > appended) continue;
        const expected = await readOf(memory, after, filter, limit);
        expect(await readOf(store, after, filter, limit), JSON.stringify([after, filter, limit])).toEqual(
          expected,
        );
      }
    };
    for (const [index, each] of appends.entries()) {
      const [inMemory, inRedis] = await Promise.all([memory.append(each), store.append(each)]);
      expect(inRedis.position.split(':')[1]).toBe(inMemory.position);
      expect(inRedis.occurrence).toEqual(each);
      if (index === 2) await compare(3);
    }
    await compare(appends.length);
    expect(await readOf(store, 0, { name: 'a' }, 100)).toMatchObject({
      events: [
        [4, { i: 4 }],
        [6, { i: 6 }],
        [7, { i: 7 }],
      ],
      from: 3,
      position: 8,
      truncated: true,
    });
    // Retention is exact: the stream holds maxEvents entries, not an approximation.
    expect(await admin.xLen('mastra-mcp:events:srv:stream:a')).toBe(3);
    await expect(
      store.readAfter(`${(await store.head()).split(':')[0]}:9`, { name: 'a' }, 1),
    ).rejects.toThrow(RangeError);
    await expect(store.readAfter('8', { name: 'a' }, 1)).rejects.toThrow(RangeError);
  });

  it('reads spanning several script runs match the in-memory store too; retention overtaking one between runs ends it early', async () => {
    const memory = new InMemoryMCPEventStore({ maxEvents: 300 });
    const { store } = await instance({ maxEvents: 300 });
    for (let i = 1; i <= 250; i += 1) {
      const each = occurrence(i % 7 === 0 ? 'b' : 'a', { i });
      await Promise.all([memory.append(each), store.append(each)]);
    }
    const rare = (o: MCPEventOccurrence) => (o.data.i as number) % 50 === 0;
    for (const [after, filter, limit] of [
      [0, { name: 'a', match: rare }, 0],
      [0, { name: 'a', match: rare }, 2],
      [3, { name: 'a', match: rare }, 100],
      [0, { name: 'a' }, 150],
      [120, { name: 'a' }, 100],
      [0, { name: 'b', match: () => false }, 5],
    ] as Array<[number, MCPEventStoreFilter, number]>) {
      expect(await readOf(store, after, filter, limit)).toEqual(await readOf(memory, after, filter, limit));
    }

    // Appends made while a read is between two script runs push retention past where it stopped.
    const appended: Array<Promise<unknown>> = [];
    let examined = 0;
    const racing = await readOf(
      store,
      0,
      {
        name: 'a',
        match: () => {
          examined += 1;
          if (examined === 1) for (let i = 0; i < 300; i += 1) appended.push(store.append(occurrence('a')));
          return false;
        },
      },
      0,
    );
    await Promise.all(appended);
    expect(racing).toMatchObject({ events: [], truncated: false, hasMore: true });
    const next = await readOf(store, racing.position, { name: 'a' }, 0);
    expect(next.truncated).toBe(true);
    expect(next.from).toBeGreaterThan(racing.position);
  });

  it('drops occurrences older than maxAgeMs by Redis clock, and reports them as truncated', async () => {
    const { store } = await instance({ maxAgeMs: 300 });
    const start = await store.head();
    await store.append(occurrence('a', { i: 1 }));
    // Retention reads Redis' clock, so wait on that clock: until it is past the entry's stored time + maxAgeMs.
    const storedAt = Number((await admin.xRange('mastra-mcp:events:srv:stream:a', '-', '+'))?.[0]?.message.t);
    expect(storedAt).toBeGreaterThan(0);
    await eventually('Redis clock past the retention', async () => {
      const [seconds, micros] = await admin.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) > storedAt + 300;
    });
    const read = await store.readAfter(start, { name: 'a' }, 10);
    expect(read).toMatchObject({ events: [], truncated: true });
    expect(read.from).toBe(read.position);
    const fresh = await store.append(occurrence('a', { i: 2 }));
    expect((await store.readAfter(start, { name: 'a' }, 10)).events).toEqual([fresh]);
    expect(await admin.xLen('mastra-mcp:events:srv:stream:a')).toBe(1);
  });

  it('shares one epoch between instances, so positions resume anywhere; a wiped Redis makes them foreign', async () => {
    const [one, two] = [await instance(), await instance()];
    expect(one.store.epoch).toBe(two.store.epoch);
    const first = await one.store.append(occurrence('a', { i: 1 }));
    const second = await two.store.append(occurrence('a', { i: 2 }));
    expect(first.position.split(':')[0]).toBe(second.position.split(':')[0]);
    expect(await one.store.head()).toBe(second.position);
    const onTwo = await two.store.readAfter(first.position, { name: 'a' }, 10);
    expect(onTwo.events.map((event) => event.occurrence.data)).toEqual([{ i: 2 }]);
    expect(onTwo.truncated).toBe(false);
    // Another server id is another history, even in the same Redis.
    const other = await instance({ serverId: 'other' });
    expect(await other.store.readAfter(first.position, { name: 'a' }, 10)).toMatchObject({
      events: [],
      truncated: true,
    });

    await admin.flushAll();
    const foreign = await two.store.readAfter(first.position, { name: 'a' }, 10);
    const head = await one.store.head();
    expect(head).toMatch(/:0$/);
    expect(head.split(':')[0]).not.toBe(first.position.split(':')[0]);
    expect(foreign).toEqual({ events: [], from: head, position: head, truncated: true, hasMore: false });
    const after = await one.store.append(occurrence('a', { i: 3 }));
    expect(after.position).toBe(`${head.split(':')[0]}:1`);
    expect((await two.store.readAfter(head, { name: 'a' }, 10)).events).toEqual([after]);
  });

  it('two instances appending at once: one total order, every occurrence once, each instance in its own order', async () => {
    const [one, two] = [await instance({ maxEvents: 1000 }), await instance({ maxEvents: 1000 })];
    const start = await one.store.head();
    const names = ['a', 'b', 'c'];
    const burst = (store: RedisMCPEventStore, who: string) =>
      Promise.all(
        Array.from({ length: 150 }, (_, i) => store.append(occurrence(names[i % 3] as string, { who, i }))),
      );
    const [fromOne, fromTwo] = await Promise.all([burst(one.store, 'one'), burst(two.store, 'two')]);
    const numbers = [...fromOne, ...fromTwo].map((stored) => Number(stored.position.split(':')[1]));
    expect(new Set(numbers).size).toBe(300);
    expect(Math.min(...numbers)).toBe(1);
    expect(Math.max(...numbers)).toBe(300);
    for (const name of names) {
      const read = await two.store.readAfter(start, { name }, 1000);
      expect(read.events).toHaveLength(100);
      const positions = read.events.map((event) => Number(event.position.split(':')[1]));
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
      for (const who of ['one', 'two']) {
        const order = read.events
          .filter((e) => e.occurrence.data.who === who)
          .map((e) => e.occurrence.data.i);
        expect(order).toEqual([...order].sort((x, y) => (x as number) - (y as number)));
      }
    }
  });

  it('wakes watchers on other instances (once, not for their own appends) and stops listening when unwatched', async () => {
    const [one, two] = [await instance(), await instance()];
    const heard = { one: [] as string[], two: [] as string[] };
    const unwatchOne = one.store.watch((name) => heard.one.push(name));
    const unwatchTwo = two.store.watch((name) => heard.two.push(name));
    const channel = 'mastra-mcp:events:srv:appended';
    await eventually('both subscribed', async () => (await admin.pubSubNumSub(channel))[channel] === 2);

    await one.store.append(occurrence('a'));
    expect(heard.one).toEqual(['a']);
    await eventually('the other instance heard', () => heard.two.length === 1);
    await two.store.append(occurrence('b'));
    await eventually('the first instance heard back', () => heard.one.length === 2);
    expect(heard).toEqual({ one: ['a', 'b'], two: ['a', 'b'] });

    await admin.publish(channel, 'not json');
    await eventually('the malformed message reported', () => one.errors.length === 1);
    expect(one.errors[0]?.message).toBe(`RedisMCPEventStore: dropped a malformed message on '${channel}'`);

    unwatchOne();
    unwatchTwo();
    await eventually('both unsubscribed', async () => (await admin.pubSubNumSub(channel))[channel] === 0);
  });

  it('refuses options that cannot work', async () => {
    const { client } = await instance();
    const cases: Array<[Partial<RedisMCPEventStoreOptions>, string]> = [
      [{ serverId: '' }, 'serverId'],
      [{ maxEvents: 0 }, 'maxEvents'],
      [{ maxEvents: 2.5 }, 'maxEvents'],
      [{ maxAgeMs: -1 }, 'maxAgeMs'],
      [{ timeoutMs: 0 }, 'timeoutMs'],
    ];
    for (const [options, field] of cases) {
      let error: unknown;
      try {
        new RedisMCPEventStore({ client, subscriber: client, serverId: 'srv', ...options });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(MastraError);
      expect((error as MastraError).id).toBe('MCP_REDIS_INVALID_OPTION');
      expect((error as MastraError).message).toContain(`RedisMCPEventStore: option '${field}'`);
    }
  });
});

describe('RedisMCPEventStore during a Redis outage', () => {
  it('fails appends and reads with a named error, keeps what was acknowledged, and wakes watchers when Redis is back', async () => {
    const one = await instance({ timeoutMs: 300 });
    const two = await instance({ timeoutMs: 300 });
    const start = await one.store.head();
    const kept = await one.store.append(occurrence('a', { i: 1 }));
    expect((await two.store.readAfter(start, { name: 'a' }, 10)).events).toEqual([kept]);
    const heard: string[] = [];
    const unwatch = two.store.watch((name) => heard.push(name));
    cleanups.push(async () => unwatch());

    await redis.stop();
    const [append, read, head] = await Promise.all([
      rejectionOf(one.store.append(occurrence('a', { i: 2 })), Error),
      rejectionOf(two.store.readAfter(start, { name: 'a' }, 10), Error),
      rejectionOf(two.store.head(), Error),
    ]);
    for (const error of [append, read, head]) {
      expect(error).toBeInstanceOf(MastraError);
      expect((error as MastraError).id).toBe(REDIS_UNAVAILABLE);
    }
    expect(append.message).toContain(
      "RedisMCPEventStore: append of 'mastra-mcp:events:srv:stream:a' (prefix 'mastra-mcp:events:srv:')",
    );
    expect(append.message).toContain('check that Redis is running');
    expect((read as MastraError).details).toMatchObject({
      store: 'RedisMCPEventStore',
      operation: 'readAfter',
    });

    await redis.restart();
    // Nothing was appended meanwhile, yet the watcher is woken for the type it reads once the
    // subscription is back, so a delivery that failed during the outage is retried at once.
    await eventually('the watcher was woken after the reconnect', () => heard.includes('a'));
    const after = await two.store.readAfter(start, { name: 'a' }, 10);
    expect(after.events).toEqual([kept]);
    expect(after.truncated).toBe(false);
    const next = await one.store.append(occurrence('a', { i: 3 }));
    expect(next.position.split(':')[0]).toBe(kept.position.split(':')[0]);
    expect((await two.store.readAfter(kept.position, { name: 'a' }, 10)).events).toEqual([next]);
  });
});
