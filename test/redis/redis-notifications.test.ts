/**
 * Notifications across instances: three MCPServer processes (test/fixtures/redis-instance.ts, one
 * server id `scaled`) share a RedisMCPServerEventBus on a private redis-server, with a 2026-07-28
 * listener (`subscriptions/listen`) and a legacy session (`resources/subscribe`) on each. What one
 * instance sends reaches the listeners of all three exactly once; a malformed bus message and a
 * Redis restart are survived; and each instance exits by itself once closed.
 *
 * "Exactly once" is checked with a later event published on another instance: Redis delivers a
 * channel's messages in order, so once that later event has arrived everywhere, a duplicate or an
 * echo of the first one would have arrived too.
 */
import { MastraError } from '@mastra/core/error';
import type { Client } from '@modelcontextprotocol/client';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { RedisMCPServerEventBus } from '../../src/redis/index.js';
import { type Instance, startInstance } from '../fixtures/instance-process.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { connectHttp, type Era } from '../helpers.js';
import { eventually } from '../support/wait.js';

const CHANNEL = 'mastra-mcp:notifications:scaled';
const URI = 'file://data/1.txt';

type Method =
  | 'notifications/tools/list_changed'
  | 'notifications/prompts/list_changed'
  | 'notifications/resources/list_changed'
  | 'notifications/resources/updated'
  | 'notifications/message';

interface Listener {
  era: Era;
  instance: number;
  client: Client;
  seen: Map<Method, unknown[]>;
}

const METHODS: Method[] = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/message',
];

let redis: RedisServer;
let admin: ReturnType<typeof createClient>;
let instances: Instance[] = [];
let listeners: Listener[] = [];
/** Listen streams and clients to close before the instances stop. */
const onCleanup: Array<() => Promise<void>> = [];

async function subscribers(): Promise<number> {
  const counts = (await admin.pubSubNumSub(CHANNEL)) as Record<string, number>;
  return counts[CHANNEL] ?? 0;
}

async function listener(instance: number, era: Era): Promise<Listener> {
  const client = await connectHttp(instances[instance]?.url as URL, era);
  const seen = new Map<Method, unknown[]>(METHODS.map((method) => [method, []]));
  for (const method of METHODS) {
    client.setNotificationHandler(method, (notification) => {
      seen.get(method)?.push(notification.params ?? {});
    });
  }
  if (era === 'modern') {
    const listen = await client.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: [URI],
    });
    onCleanup.push(() => listen.close());
  } else {
    await client.subscribeResource({ uri: URI });
    await client.setLoggingLevel('info');
  }
  return { era, instance, client, seen };
}

const count = (l: Listener, method: Method) => l.seen.get(method)?.length ?? 0;

/** Waits until every listener in `who` has `n` notifications of `method`. */
function everyoneHas(method: Method, n: number, who = listeners) {
  return eventually(`${n} × ${method} at every listener`, () => who.every((l) => count(l, method) === n));
}

beforeAll(async () => {
  redis = await startRedisServer();
  admin = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  admin.on('error', () => {});
  await admin.connect();
  instances = await Promise.all([0, 1, 2].map(() => startInstance(redis.url)));
  await eventually('all three instances subscribed', async () => (await subscribers()) === 3);
  listeners = await Promise.all([0, 1, 2].flatMap((i) => [listener(i, 'modern'), listener(i, 'legacy')]));
}, 60_000);

afterAll(async () => {
  for (const close of onCleanup) await close().catch(() => {});
  await Promise.allSettled(listeners.map((l) => l.client.close()));
  await Promise.all(instances.map((instance) => instance.kill()));
  await admin?.close();
  await redis?.close();
});

describe('three instances sharing a RedisMCPServerEventBus', () => {
  it('list changes and resource updates sent on one instance reach both eras on every instance, exactly once', async () => {
    await instances[0]?.send({ action: 'addTool', name: 'echo' });
    await everyoneHas('notifications/tools/list_changed', 1);
    await instances[1]?.send({ action: 'promptsChanged' });
    await everyoneHas('notifications/prompts/list_changed', 1);
    await instances[2]?.send({ action: 'updated', uri: URI });
    await instances[2]?.send({ action: 'updated', uri: 'file://data/logo.png' });
    await everyoneHas('notifications/resources/updated', 1);
    // Published after everything above, from the first instance: once it is everywhere, so would be
    // any echo or duplicate of the events before it.
    await instances[0]?.send({ action: 'resourcesChanged' });
    await everyoneHas('notifications/resources/list_changed', 1);

    for (const l of listeners) {
      expect(count(l, 'notifications/tools/list_changed'), `${l.era}@${l.instance}`).toBe(1);
      expect(count(l, 'notifications/prompts/list_changed'), `${l.era}@${l.instance}`).toBe(1);
      expect(l.seen.get('notifications/resources/updated'), `${l.era}@${l.instance}`).toMatchObject([
        { uri: URI },
      ]);
    }
    // The tool was added to the first instance's registry: the others only relay the notification.
    const [onFirst] = listeners;
    expect((await onFirst?.client.listTools())?.tools.map((tool) => tool.name)).toEqual(['echo']);
    await instances[0]?.send({ action: 'removeTool', name: 'echo' });
    await everyoneHas('notifications/tools/list_changed', 2);
  });

  it('a log message sent on one instance reaches the legacy sessions of every instance at their level', async () => {
    const legacy = listeners.filter((l) => l.era === 'legacy');
    const modern = listeners.filter((l) => l.era === 'modern');
    const quiet = await listener(2, 'legacy');
    onCleanup.push(() => quiet.client.close());
    await quiet.client.setLoggingLevel('error');
    const before = modern.map((l) => count(l, 'notifications/message'));

    await instances[1]?.send({ action: 'log', level: 'warning', data: { disk: '91%' } });
    await instances[0]?.send({ action: 'log', level: 'critical', data: 'disk full' });
    await everyoneHas('notifications/message', 2, legacy);
    await eventually(
      'the critical message at the quiet session',
      () => count(quiet, 'notifications/message') === 1,
    );
    for (const l of legacy) {
      expect(l.seen.get('notifications/message')).toEqual([
        { level: 'warning', data: { disk: '91%' } },
        { level: 'critical', data: 'disk full' },
      ]);
    }
    expect(quiet.seen.get('notifications/message')).toEqual([{ level: 'critical', data: 'disk full' }]);
    // 2026-07-28 has no channel for server log messages outside a request.
    expect(modern.map((l) => count(l, 'notifications/message'))).toEqual(before);
  });

  it('a malformed bus message is logged and dropped by every instance, which keep working', async () => {
    await admin.publish(CHANNEL, 'not json');
    await admin.publish(
      CHANNEL,
      JSON.stringify({ origin: 'elsewhere', event: { kind: 'tools_list_changed_v9' } }),
    );
    await admin.publish(
      CHANNEL,
      JSON.stringify({ origin: 'elsewhere', event: { kind: 'logging_message', params: { level: 'loud' } } }),
    );
    await eventually('every instance logged the three drops', () =>
      instances.every((i) => i.logged.filter((m) => m.includes('dropped a malformed message')).length === 3),
    );
    expect(instances[0]?.logged.find((m) => m.includes('dropped'))).toContain(
      `MCP server 'scaled' notification bus: RedisMCPServerEventBus: dropped a malformed message on '${CHANNEL}'`,
    );
    const tools = count(listeners[0] as Listener, 'notifications/tools/list_changed');
    await instances[2]?.send({ action: 'toolsChanged' });
    await everyoneHas('notifications/tools/list_changed', tools + 1);
  });

  it('Redis restarted mid-run: publishing while it is down logs a clear error, local clients are still told, and delivery resumes', async () => {
    const tools = count(listeners[0] as Listener, 'notifications/tools/list_changed');
    await redis.stop();
    await instances[0]?.send({ action: 'toolsChanged' });
    const local = listeners.filter((l) => l.instance === 0);
    const remote = listeners.filter((l) => l.instance !== 0);
    await everyoneHas('notifications/tools/list_changed', tools + 1, local);
    const logged = instances[0]?.logged.find((m) => m.includes("'tools_list_changed' not shared"));
    expect(logged).toContain(
      `MCP notification 'tools_list_changed' not shared with other instances: RedisMCPServerEventBus: publish of '${CHANNEL}'`,
    );
    expect(logged).toMatch(/got no answer from Redis within 500 ms|while Redis is not connected/);

    await redis.restart();
    await eventually('the instances subscribed again', async () => {
      try {
        return (await subscribers()) === 3;
      } catch {
        return false;
      }
    });
    await instances[1]?.send({ action: 'promptsChanged' });
    await everyoneHas('notifications/prompts/list_changed', 2);
    // The notification published during the outage was lost for the other instances (at most once).
    for (const l of remote) expect(count(l, 'notifications/tools/list_changed')).toBe(tools);
    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
  });

  it('refuses a bus without an explicit server id, which every instance must share', async () => {
    const bus = new RedisMCPServerEventBus({ client: admin, subscriber: admin });
    let error: unknown;
    try {
      new MCPServer({ name: 'Unnamed', version: '1.0.0', tools: {}, notifications: { bus } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MastraError);
    expect((error as MastraError).id).toBe('MCP_SERVER_NOTIFICATION_BUS_NEEDS_ID');
    expect((error as MastraError).message).toContain(
      "MCP server 'Unnamed': notifications.bus needs an explicit `id`",
    );
  });

  it('each instance closes its server, leaves the bus and exits by itself', async () => {
    for (const close of onCleanup.splice(0)) await close();
    await Promise.all(listeners.map((l) => l.client.close()));
    listeners = [];
    const codes = await Promise.all(instances.map((instance) => instance.stop()));
    expect(codes).toEqual([0, 0, 0]);
    expect(await subscribers()).toBe(0);
  });
});
