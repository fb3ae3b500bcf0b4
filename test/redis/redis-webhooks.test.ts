/**
 * MCP Events webhooks across instances: three MCPServer processes (test/fixtures/redis-instance.ts
 * with `events` and `webhooks`, one server id `scaled`) share a RedisMCPEventStore and a
 * RedisWebhookQueue on a private redis-server, and deliver to a real https receiver in this
 * process (a certificate made for the test, which the instances trust).
 *
 * Counting is by Standard Webhooks `webhook-id`: each POST the receiver records is one attempt.
 * "Once" is checked after the queue drained (`XLEN` of the stream is 0 and nothing is pending), so
 * no job is left that could still deliver a duplicate.
 */
import { type Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createClient } from 'redis';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryMCPEventStore, MCPServer } from '../../src/index.js';
import { RedisWebhookQueue, WEBHOOK_ENQUEUE_FAILED } from '../../src/redis/index.js';
import {
  generateWebhookSecret,
  SubscribeEventsResultSchema,
  UnsubscribeEventsResultSchema,
} from '../../src/shared/events-wire.js';
import { eventTypes } from '../fixtures/events.js';
import { type Instance, startInstance } from '../fixtures/instance-process.js';
import type { InstanceWebhookOptions } from '../fixtures/redis-instance-webhooks.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../fixtures/webhook-receiver.js';
import { newClient } from '../helpers.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const PREFIX = 'mastra-mcp:webhooks:scaled:';
const QUEUE = `${PREFIX}queue`;
const SECRET = generateWebhookSecret();

interface Emitted {
  eventId: string;
  cursor: string;
}

let redis: RedisServer;
let admin: ReturnType<typeof createClient>;
let receiver: WebhookReceiver;
let webhookOptions: InstanceWebhookOptions;
let instances: Instance[] = [];
let subscriptionId: string;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const instance = (n: 1 | 2 | 3) => instances[n - 1] as Instance;

/** A 2026-07-28 client of instance `n` whose bearer token makes it subject alice. */
async function clientOf(n: 1 | 2 | 3): Promise<Client> {
  const client = newClient('modern');
  const requestInit = { headers: { authorization: 'Bearer alice' } };
  await client.connect(new StreamableHTTPClientTransport(instance(n).url, { requestInit }));
  cleanups.push(() => client.close());
  return client;
}

const target = (repo: string) => ({
  name: 'repo.push',
  arguments: { repo },
  delivery: { url: receiver.url },
});

function subscribe(client: Client, repo = 'hooked', extra: Record<string, unknown> = {}) {
  const { delivery, ...rest } = target(repo);
  return client.request(
    {
      method: 'events/subscribe',
      params: { ...rest, delivery: { ...delivery, mode: 'webhook', secret: SECRET }, cursor: null, ...extra },
    },
    SubscribeEventsResultSchema,
  );
}

const unsubscribe = (client: Client, repo = 'hooked') =>
  client.request({ method: 'events/unsubscribe', params: target(repo) }, UnsubscribeEventsResultSchema);

async function rejection(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

let nextSha = 0;
/** Emits `count` occurrences of repo.push on instance `n`; resolves with what was stored. */
async function emit(n: 1 | 2 | 3, count: number, repo = 'hooked'): Promise<Emitted[]> {
  const emitted: Emitted[] = [];
  for (let i = 0; i < count; i += 1) {
    const data = { repo, sha: String(++nextSha) };
    emitted.push((await instance(n).send({ action: 'emit', name: 'repo.push', data })) as Emitted);
  }
  return emitted;
}

const deliveries = () => receiver.received.filter((r) => r.json.type !== 'verification');
const attemptsOf = (eventId: string) => deliveries().filter((r) => r.headers['webhook-id'] === eventId);

/** Waits until every job was settled: nothing left in the stream, nothing pending. */
const drained = () =>
  eventually('the delivery queue to drain', async () => {
    const [length, pending] = await Promise.all([
      admin.xLen(QUEUE),
      admin.sendCommand(['XPENDING', QUEUE, 'deliveries']) as Promise<[number]>,
    ]);
    return length === 0 && Number(pending[0]) === 0;
  });

/** Waits until each of `ids` reached the receiver. */
const received = (ids: string[]) =>
  eventually(`${ids.length} deliveries`, () => ids.every((id) => attemptsOf(id).length > 0));

const statsOf = async (n: 1 | 2 | 3) =>
  (await instance(n).send({ action: 'stats' })) as {
    webhookSubscriptions: number;
    suspendedWebhooks: number;
  };

beforeAll(async () => {
  redis = await startRedisServer();
  admin = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  admin.on('error', () => {});
  await admin.connect();
  receiver = await startWebhookReceiver();
  webhookOptions = {
    cert: receiver.cert,
    reclaimIdleMs: 1500,
    maxSubscriptions: 3,
    retry: { attempts: 4, initialDelayMs: 50, maxDelayMs: 200 },
  };
  instances = await Promise.all(
    [1, 2, 3].map(() => startInstance(redis.url, { events: {}, webhooks: webhookOptions })),
  );
}, 60_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  for (const each of instances) await each.kill();
  await receiver?.close();
  await admin?.close();
  await redis?.close();
});

describe('MCP Events webhooks over three instances sharing a RedisWebhookQueue', () => {
  it('a subscription made on instance 1 gets what instances 2 and 3 emit, each once, signed; any instance refreshes it', async () => {
    const subscribed = await subscribe(await clientOf(1), 'hooked', { ttlMs: 120_000 });
    subscriptionId = subscribed.id;
    expect(receiver.received.map((r) => r.json.type)).toEqual(['verification']);
    // The subscription lives in Redis and expires there.
    const ttl = await admin.pTTL(`${PREFIX}sub:${subscribed.id}`);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);

    const emitted = [
      ...(await emit(2, 3)),
      ...(await emit(3, 3)),
      ...(await emit(2, 1, 'elsewhere')),
      ...(await emit(3, 1, 'elsewhere')),
    ];
    const wanted = emitted.slice(0, 6).map((event) => event.eventId);
    await received(wanted);
    await drained();
    expect(
      deliveries()
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual([...wanted].sort());
    for (const delivery of deliveries()) {
      expect(delivery.headers['x-mcp-subscription-id']).toBe(subscribed.id);
      expect(new Webhook(SECRET).verify(delivery.body, delivery.headers)).toMatchObject({
        name: 'repo.push',
        data: { repo: 'hooked' },
      });
    }
    // The store is shared too, so every cursor is one the others understand.
    expect(deliveries().every((r) => typeof r.json.cursor === 'string')).toBe(true);

    // A refresh on instance 2: same id, the status the deliveries recorded, no second handshake.
    const refreshed = await subscribe(await clientOf(2), 'hooked', { ttlMs: 120_000 });
    expect(refreshed.id).toBe(subscribed.id);
    expect(refreshed.deliveryStatus).toMatchObject({ active: true, lastError: null });
    expect(refreshed.deliveryStatus?.lastDeliveryAt).toEqual(expect.any(String));
    expect(refreshed.cursor).not.toBe(subscribed.cursor);
    expect(receiver.received.filter((r) => r.json.type === 'verification')).toHaveLength(1);
    for (const n of [1, 2, 3] as const) {
      await eventually(
        `instance ${n} counting the subscription`,
        async () => (await statsOf(n)).webhookSubscriptions === 1,
      );
    }
  });

  it('a subscription with a cursor gets what the store kept after it, and the cap counts every instance', async () => {
    const [first, second] = await emit(2, 2, 'late');
    const late = await subscribe(await clientOf(3), 'late', { cursor: first?.cursor });
    expect(late.truncated).toBe(false);
    await received([second?.eventId as string]);
    await drained();
    expect(attemptsOf(first?.eventId as string)).toHaveLength(0);
    expect(attemptsOf(second?.eventId as string)).toHaveLength(1);

    // Three live (hooked, late, third) is the cap, wherever they were made.
    await subscribe(await clientOf(2), 'third');
    const full = await rejection(subscribe(await clientOf(1), 'fourth'));
    expect({ code: full.code, data: full.data }).toEqual({
      code: -32025,
      data: { limit: 'subscriptions', max: 3 },
    });
    await unsubscribe(await clientOf(1), 'late');
    await unsubscribe(await clientOf(3), 'third');
  });

  it('an instance killed with deliveries in flight: another instance sends them again after the reclaim timeout', async () => {
    const held = new Map<string, () => void>();
    receiver.respond = (request) => {
      const id = request.headers['webhook-id'] ?? '';
      if (request.json.type || held.has(id)) return undefined;
      // First attempt of each: held open until the test lets go.
      return new Promise((resolve) => held.set(id, () => resolve({ status: 200 })));
    };
    const emitted = await emit(1, 4);
    const ids = emitted.map((event) => event.eventId);
    await eventually('every first attempt held', () => ids.every((id) => held.has(id)));

    // Who holds what, from the group's pending list: consumer names carry the process id.
    const pending = (await admin.sendCommand(['XPENDING', QUEUE, 'deliveries', '-', '+', '100'])) as Array<
      [string, string]
    >;
    const holders = new Map<string, number>();
    for (const [, consumer] of pending) holders.set(consumer, (holders.get(consumer) ?? 0) + 1);
    const [busiest] = [...holders.entries()].sort((a, b) => b[1] - a[1]);
    const pid = Number(busiest?.[0].split(':')[1]);
    const victimIndex = instances.findIndex((each) => each.child.pid === pid);
    expect(victimIndex).toBeGreaterThanOrEqual(0);
    const victim = instances[victimIndex] as Instance;
    await victim.kill();
    // The survivors' held requests are answered; the victim's died with it.
    for (const release of held.values()) release();
    await eventually('every delivery answered', () => ids.every((id) => attemptsOf(id).length >= 1));
    await drained();

    const again = ids.filter((id) => attemptsOf(id).length === 2);
    // Exactly the victim's jobs were sent a second time, with the same webhook-id and subscription.
    expect(again).toHaveLength(busiest?.[1] as number);
    expect(ids.filter((id) => attemptsOf(id).length > 2)).toEqual([]);
    for (const id of again) {
      const [first, second] = attemptsOf(id) as [ReceivedWebhook, ReceivedWebhook];
      expect(second.headers['x-mcp-subscription-id']).toBe(first.headers['x-mcp-subscription-id']);
      expect(new Webhook(SECRET).verify(second.body, second.headers)).toMatchObject({ eventId: id });
    }
    receiver.respond = undefined;

    // A new instance takes the victim's place.
    instances[victimIndex] = await startInstance(redis.url, { events: {}, webhooks: webhookOptions });
  });

  it('Redis restarted mid-run: emits fail clearly meanwhile, deliveries in flight settle afterwards, nothing acknowledged is lost', async () => {
    let release: () => void = () => {};
    const releasing = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.respond = async (request) => {
      if (!request.json.type) await releasing;
      return undefined;
    };
    const before = await emit(2, 3);
    await eventually('the deliveries in flight', () =>
      before.every((event) => attemptsOf(event.eventId).length > 0),
    );

    await redis.stop();
    const failed = await rejectionOf(
      instance(3).send({ action: 'emit', name: 'repo.push', data: { repo: 'hooked', sha: 'lost' } }),
    );
    expect(failed).toBeInstanceOf(Error);
    expect((failed as { errorId?: string }).errorId).toBe('MCP_REDIS_UNAVAILABLE');
    // The receiver answers while Redis is away: the jobs cannot be settled yet, and are not dropped.
    release();
    await eventually('an instance reporting that it waits for Redis', () =>
      instances.some((each) => each.logged.some((line) => line.includes('RedisWebhookQueue'))),
    );
    await redis.restart();
    receiver.respond = undefined;

    const after = await emit(1, 2);
    await received(after.map((event) => event.eventId));
    await drained();
    for (const event of [...before, ...after]) expect(attemptsOf(event.eventId).length).toBeGreaterThan(0);
    for (const event of after) expect(attemptsOf(event.eventId)).toHaveLength(1);
    for (const each of instances) expect(each.child.exitCode).toBeNull();
  });

  it('a 410 is final on every instance: that occurrence is not sent again, the next ones are', async () => {
    receiver.respond = (request) =>
      request.json.data && (request.json.data as { sha?: string }).sha === 'gone'
        ? { status: 410 }
        : undefined;
    const gone = (await instance(3).send({
      action: 'emit',
      name: 'repo.push',
      data: { repo: 'hooked', sha: 'gone' },
    })) as Emitted;
    const next = await emit(2, 2);
    await received([gone.eventId, ...next.map((event) => event.eventId)]);
    await drained();
    expect(attemptsOf(gone.eventId)).toHaveLength(1);
    receiver.respond = undefined;
    const status = await subscribe(await clientOf(3), 'hooked', { ttlMs: 120_000 });
    expect(status.id).toBe(subscriptionId);
    expect(status.deliveryStatus).toMatchObject({ active: true, lastError: null });
  });

  it('failures in a row suspend delivery on every instance; a refresh on another reactivates it and sends what came meanwhile', async () => {
    receiver.respond = (request) => (request.json.type ? undefined : { status: 503 });
    const failing = await emit(1, 3);
    await drained();
    // Each was tried `retry.attempts` times, then abandoned; three abandoned in a row suspend it.
    for (const event of failing) expect(attemptsOf(event.eventId)).toHaveLength(4);
    for (const n of [1, 2, 3] as const) {
      await eventually(
        `instance ${n} counting it suspended`,
        async () => (await statsOf(n)).suspendedWebhooks === 1,
      );
    }
    const meanwhile = await emit(2, 2);
    expect(await admin.xLen(QUEUE)).toBe(0);

    receiver.respond = undefined;
    const reactivated = await subscribe(await clientOf(3), 'hooked', { ttlMs: 120_000 });
    expect(reactivated.deliveryStatus).toMatchObject({ active: false, lastError: 'http_5xx' });
    await received(meanwhile.map((event) => event.eventId));
    await drained();
    for (const event of meanwhile) expect(attemptsOf(event.eventId)).toHaveLength(1);
    for (const event of failing) expect(attemptsOf(event.eventId)).toHaveLength(4);
    const healthy = await subscribe(await clientOf(2), 'hooked', { ttlMs: 120_000 });
    expect(healthy.deliveryStatus).toMatchObject({ active: true, lastError: null, failedSince: null });
  });

  it('unsubscribing on instance 3 stops deliveries from every instance', async () => {
    await unsubscribe(await clientOf(3));
    expect(await admin.exists(`${PREFIX}sub:${subscriptionId}`)).toBe(0);
    await emit(1, 2);
    await emit(2, 2);
    // emit() enqueues before it resolves: nothing was, so nothing can be delivered.
    expect(await admin.xLen(QUEUE)).toBe(0);
    const again = await rejection(unsubscribe(await clientOf(1)));
    expect({ code: again.code, data: again.data }).toEqual({ code: -32023, data: { kind: 'subscription' } });
    for (const n of [1, 2, 3] as const) {
      await eventually(
        `instance ${n} counting no subscription`,
        async () => (await statsOf(n)).webhookSubscriptions === 0,
      );
    }
  });

  it('an emit whose deliveries cannot be enqueued (Redis away, the store elsewhere) rejects naming the occurrence', async () => {
    const client = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } }).on(
      'error',
      () => {},
    );
    const reader = client.duplicate().on('error', () => {});
    await Promise.all([client.connect(), reader.connect()]);
    const server = new MCPServer({
      id: 'scaled',
      name: 'Scaled',
      version: '1.0.0',
      tools: {},
      events: {
        types: eventTypes(),
        store: new InMemoryMCPEventStore(),
        webhook: { queue: new RedisWebhookQueue({ client, reader, serverId: 'local', timeoutMs: 300 }) },
      },
    });
    cleanups.push(async () => {
      await server.close();
      await Promise.all([client.close(), reader.close()]);
    });
    await redis.stop();
    try {
      const error = await rejectionOf(
        server.events.emit('repo.push', { repo: 'hooked', sha: 'x' }, { eventId: 'evt-stranded' }),
      );
      expect((error as { id?: string }).id).toBe(WEBHOOK_ENQUEUE_FAILED);
      expect((error as Error).message).toContain(
        "MCP events: occurrence 'evt-stranded' of 'repo.push' is stored, but its webhook deliveries were not enqueued: RedisWebhookRegistry: list of 'mastra-mcp:webhooks:local:event:repo.push'",
      );
    } finally {
      await redis.restart();
    }
  });

  it('each instance closes its server and Redis connections and exits by itself', async () => {
    while (cleanups.length) await cleanups.pop()?.();
    const codes = await Promise.all(instances.map((each) => each.stop()));
    expect(codes).toEqual([0, 0, 0]);
  });
});
