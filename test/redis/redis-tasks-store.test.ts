/**
 * What a task store keeps of a task, against a private redis-server: results come back exactly
 * (through either store, end to end: MCPServer over HTTP, MCPClient checking the output schema),
 * the Redis store keeps finished tasks within their bounds, and a task request while Redis is down
 * is answered without the store's internals (which go to the server's log).
 */
import { createTool } from '@mastra/core/tools';
import { ProtocolError } from '@modelcontextprotocol/server';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InMemoryMCPTaskStore,
  MCPClient,
  MCPServer,
  type MCPStoredTask,
  type MCPTaskStore,
} from '../../src/index.js';
import {
  REDIS_INVALID_OPTION,
  RedisMCPTaskStore,
  type RedisMCPTaskStoreOptions,
} from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { type TaskReply as Reply, TASKS_DECLARED as TASKS } from '../fixtures/task-tools.js';
import { modernRequest, replyOf, serveHttp } from '../helpers.js';
import { RecordingLogger } from '../support/logger.js';
import { eventually } from '../support/wait.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis?.close();
});
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Values JSON round trips have got wrong: Redis' cjson turned `[]` into `{}` and cut numbers to 14 digits. */
const EXACT = {
  items: [],
  empty: {},
  nested: { lists: [[], {}, [null, { deeper: null }]], nothing: null },
  pi: Math.PI,
  huge: 1e300,
  tiny: 5e-324,
  beyondSafe: 2 ** 53 + 1,
  sum: 0.1 + 0.2,
  negativeZero: -0,
  precise: 123456789.12345679,
  text: 'héllo 😀 𝄞 \u2028 "quoted" \\ / <b>',
};
/** What any JSON round trip gives back (2 ** 53 + 1 is 2 ** 53, -0 is 0, as in JS). */
const EXPECTED = JSON.parse(JSON.stringify(EXACT));

async function connect() {
  const client = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  client.on('error', () => {});
  await client.connect();
  cleanups.push(() => client.close());
  return client;
}

async function redisStore(serverId: string, options: Partial<RedisMCPTaskStoreOptions> = {}) {
  const [client, subscriber] = await Promise.all([connect(), connect()]);
  return { client, store: new RedisMCPTaskStore({ client, subscriber, serverId, ...options }) };
}

/** A number schema only `value` itself passes (a rounded one does not). */
const exactly = (value: number) => z.number().refine((n) => n === value, `not exactly ${value}`);

/** An MCPServer over HTTP whose tools run as tasks in `store`. */
async function serve(store: MCPTaskStore) {
  const exact = createTool({
    id: 'exact',
    description: 'Returns values a lossy store would change',
    inputSchema: z.object({}),
    // Loose: the tool's own output check would strip the members it does not name.
    outputSchema: z.looseObject({
      items: z.array(z.unknown()).max(0),
      pi: exactly(Math.PI),
      huge: exactly(1e300),
      tiny: exactly(5e-324),
      sum: exactly(0.1 + 0.2),
    }),
    execute: async () => EXACT,
  });
  const refuses = createTool({
    id: 'refuses',
    description: 'Fails with data a lossy store would change',
    inputSchema: z.object({}),
    execute: async () => {
      throw new ProtocolError(-32099, 'refused', EXACT);
    },
  });
  const server = new MCPServer({
    name: 'exact',
    version: '1.0.0',
    tools: { exact, refuses },
    tasks: { tools: { exact: 'optional', refuses: 'optional' }, store, pollIntervalMs: 20 },
  });
  const logger = new RecordingLogger();
  server.__setLogger(logger);
  const http = await serveHttp(server);
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  let id = 0;
  const rpc = async (method: string, params: Record<string, unknown>) =>
    replyOf<Reply>(
      await fetch(http.mcpUrl, modernRequest(method, params, { id: ++id, capabilities: TASKS })),
    );
  const settled = (taskId: string) =>
    eventually(`task ${taskId} to finish`, async () => {
      const reply = await rpc('tasks/get', { taskId });
      return ['completed', 'failed'].includes(reply.result?.status ?? '') && reply.result;
    });
  return { http, rpc, settled, logger };
}

function task(taskId: string, owner?: string): MCPStoredTask {
  const now = new Date().toISOString();
  return {
    taskId,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: null,
    toolName: 'exact',
    instanceId: 'i',
    ...(owner ? { owner } : {}),
  };
}

describe('task results come back exactly', () => {
  it.each([
    ['in memory', async () => new InMemoryMCPTaskStore()],
    ['in Redis', async () => (await redisStore('exact-e2e')).store],
  ])(
    '%s: tasks/get and MCPClient (checking the output schema) get what the tool returned',
    async (_, make) => {
      const { http, rpc, settled } = await serve(await make());
      const created = await rpc('tools/call', { name: 'exact', arguments: {} });
      const done = await settled(String(created.result?.taskId));
      // toEqual tells [] from {} and compares numbers exactly; key order is the tool's output check's.
      expect((done.result as { structuredContent?: unknown }).structuredContent).toEqual(EXPECTED);
      const failed = await settled(
        String((await rpc('tools/call', { name: 'refuses', arguments: {} })).result?.taskId),
      );
      expect(JSON.stringify(failed.error)).toBe(
        JSON.stringify({ code: -32099, message: 'refused', data: EXPECTED }),
      );

      const mcp = new MCPClient({ id: `exact-${Math.random()}`, servers: { exact: { url: http.mcpUrl } } });
      cleanups.push(() => mcp.disconnect());
      const { exact_exact } = await mcp.listTools();
      const output = await exact_exact?.execute?.({}, {} as never);
      expect(output).toEqual(EXPECTED);
    },
  );

  it('the Redis store keeps every field of a task exactly: result, error data, input requests, workflow', async () => {
    const { store } = await redisStore('exact-fields');
    await store.create(task('t', 'sub:ann'));
    const asked = await store.update('t', {
      status: 'input_required',
      inputRequests: {
        'input-1': {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: '😀?',
            requestedSchema: { type: 'object', properties: {}, required: [] },
          },
        },
      },
      workflow: { key: 'w', runId: 'r' },
    });
    expect(JSON.stringify(asked?.inputRequests)).toContain('"properties":{},"required":[]');
    await store.update('t', { status: 'working', inputRequests: undefined });
    const done = await store.update('t', {
      status: 'completed',
      result: { structuredContent: EXACT, content: [] },
      error: { code: 1, message: 'x', data: EXACT },
    });
    const read = await store.get('t');
    for (const stored of [done, read]) {
      expect(JSON.stringify(stored?.result)).toBe(
        JSON.stringify({ structuredContent: EXPECTED, content: [] }),
      );
      expect(JSON.stringify(stored?.error?.data)).toBe(JSON.stringify(EXPECTED));
      expect(stored).toMatchObject({ owner: 'sub:ann', workflow: { key: 'w', runId: 'r' }, ttlMs: null });
      expect(stored).not.toHaveProperty('inputRequests');
    }
  });
});

describe('finished tasks in Redis stay within their bounds', () => {
  const finish = (store: RedisMCPTaskStore, taskId: string, bytes: number) =>
    store.update(taskId, {
      status: 'completed',
      result: { content: [{ type: 'text', text: 'x'.repeat(bytes) }] },
    });
  const kept = async (store: RedisMCPTaskStore, ids: string[]) =>
    (await Promise.all(ids.map(async (taskId) => ((await store.get(taskId)) ? taskId : undefined)))).filter(
      Boolean,
    );

  it('per principal and per server, in bytes and in count, oldest finished first; the task that just finished is kept', async () => {
    const { client, store } = await redisStore('bounds', {
      maxFinishedTaskBytesPerPrincipal: 10_000,
      maxFinishedTaskBytes: 25_000,
      maxFinishedTasksPerPrincipal: 4,
      maxFinishedTasks: 5,
    });
    for (const id of ['a1', 'a2', 'a3', 'b1', 'n1', 'n2']) {
      await store.create(
        task(id, id.startsWith('a') ? 'sub:ann' : id.startsWith('b') ? 'sub:bob' : undefined),
      );
    }
    // Ann's bytes (about 4.3 KB a task): her oldest goes at the third.
    for (const id of ['a1', 'a2', 'a3']) await finish(store, id, 4000);
    expect(await kept(store, ['a1', 'a2', 'a3'])).toEqual(['a2', 'a3']);
    // A result over the per-principal bound by itself is kept.
    await finish(store, 'b1', 12_000);
    expect(await store.get('b1')).toMatchObject({ status: 'completed' });
    // The server's bytes: about 8.5 + 12.3 + 6.3 KB is over 25 KB, so the oldest finished (a2) goes.
    await finish(store, 'n1', 6000);
    expect(await kept(store, ['a2', 'a3', 'b1', 'n1'])).toEqual(['a3', 'b1', 'n1']);
    // Unfinished tasks count for nothing and are never touched.
    expect(await store.get('n2')).toMatchObject({ status: 'working' });

    // Counts: 5 finished tasks on the server (a3 goes at c2), 4 for the anonymous callers together.
    for (let n = 0; n < 6; n++) {
      await store.create(task(`c${n}`));
      await finish(store, `c${n}`, 10);
    }
    expect(await kept(store, ['a3', 'b1', 'n1', 'c0', 'c1', 'c2', 'c3', 'c4', 'c5'])).toEqual([
      'b1',
      'c2',
      'c3',
      'c4',
      'c5',
    ]);
    // The accounting is what is left: Ann's total is gone with her last task.
    const base = 'mastra-mcp:tasks:bounds:';
    const totals = await client.hGetAll(`${base}held-bytes`);
    expect(Object.keys(totals).sort()).toEqual(['', '"sub:bob"', '*']);
    const sizes = Object.values(await client.hGetAll(`${base}held-sizes`)).map((entry) =>
      Number.parseInt(entry, 10),
    );
    expect(Number(totals['*'])).toBe(sizes.reduce((sum, size) => sum + size, 0));
    expect(await client.zCard(`${base}held`)).toBe(5);
  });

  it('refuses a bound that is not a positive whole number, naming it', async () => {
    const { client } = await redisStore('options');
    for (const field of [
      'maxFinishedTaskBytes',
      'maxFinishedTaskBytesPerPrincipal',
      'maxFinishedTasks',
      'maxFinishedTasksPerPrincipal',
    ]) {
      expect(
        () => new RedisMCPTaskStore({ client, subscriber: client, serverId: 's', [field]: 1.5 }),
      ).toThrow(
        expect.objectContaining({
          id: REDIS_INVALID_OPTION,
          message: `RedisMCPTaskStore: option '${field}' must be a positive whole number, got 1.5`,
        }),
      );
    }
  });
});

describe('a task store that is down', () => {
  it('answers -32603 "the task store is unavailable" naming no key, logs the cause, and serves again once Redis is back', async () => {
    const { store } = await redisStore('down', { timeoutMs: 300 });
    const { rpc, settled, logger } = await serve(store);
    const taskId = String((await rpc('tools/call', { name: 'exact', arguments: {} })).result?.taskId);
    await settled(taskId);
    await redis.stop();
    try {
      const got = await rpc('tasks/get', { taskId });
      expect(got.error).toEqual({
        code: -32603,
        message: "'tasks/get' could not be served: the task store is unavailable; try again later",
      });
      const call = await rpc('tools/call', { name: 'exact', arguments: {} });
      expect(call.error).toEqual({
        code: -32603,
        message: "Tool 'exact' could not start a task: the task store is unavailable; try again later",
      });
      const listen = await rpc('subscriptions/listen', { notifications: { taskIds: [taskId] } });
      expect(listen.error).toEqual({
        code: -32603,
        message: "'subscriptions/listen' could not be served: the task store is unavailable; try again later",
      });
      for (const method of ['tasks/cancel', 'tasks/update']) {
        expect((await rpc(method, { taskId, inputResponses: {} })).error?.message).toContain(
          'the task store is unavailable',
        );
      }
      expect(logger.errors.join('\n')).toContain(`mastra-mcp:tasks:down:task:${taskId}`);
    } finally {
      await redis.restart();
    }
    const again = await eventually(
      'the store to answer again',
      async () => (await rpc('tasks/get', { taskId })).result,
    );
    expect(again.status).toBe('completed');
  });
});
