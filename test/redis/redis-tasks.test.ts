/**
 * Tasks (SEP-2663) on several instances of one MCPServer sharing a RedisMCPTaskStore, each its own
 * process: any instance answers for any task (its input answers and cancels reach the instance
 * running it), and a task whose instance was SIGKILLed is reported failed, never left `working`.
 */
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisMCPTaskStore } from '../../src/redis/index.js';
import { type Instance, startInstance } from '../fixtures/instance-process.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { modernRequest, replyOf } from '../helpers.js';
import { eventually } from '../support/wait.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

interface Reply {
  result?: Record<string, unknown> & { taskId?: string; status?: string };
  error?: { code: number; message: string };
}

let redis: RedisServer;
const instances: Instance[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis?.close();
});
afterEach(async () => {
  for (const instance of instances.splice(0)) await instance.kill();
});

async function instance(options: { instanceTimeoutMs?: number } = {}) {
  const started = await startInstance(redis.url, { tasks: options });
  instances.push(started);
  return started;
}

let id = 0;
async function rpc(on: Instance, method: string, params: Record<string, unknown>) {
  return replyOf<Reply>(
    await fetch(on.url, modernRequest(method, params, { id: ++id, capabilities: TASKS })),
  );
}

describe('tasks on Redis across instances', () => {
  it('any instance answers get, update and cancel for a task another one runs', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    if (!a || !b) throw new Error('instances did not start');
    const taskId = String((await rpc(a, 'tools/call', { name: 'ask', arguments: {} })).result?.taskId);
    const asking = await eventually('the question, read on the other instance', async () => {
      const reply = await rpc(b, 'tasks/get', { taskId });
      return reply.result?.status === 'input_required' && reply.result;
    });
    const key = Object.keys(asking.inputRequests as object)[0] as string;
    await rpc(b, 'tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
    });
    const done = await eventually('the answer to reach the running instance', async () => {
      const reply = await rpc(b, 'tasks/get', { taskId });
      return reply.result?.status === 'completed' && reply.result;
    });
    expect(JSON.stringify(done.result)).toContain(`hello Ada from ${a.child.pid}`);

    const lingering = String(
      (await rpc(a, 'tools/call', { name: 'linger', arguments: { ms: 30_000 } })).result?.taskId,
    );
    expect((await rpc(b, 'tasks/cancel', { taskId: lingering })).result).toMatchObject({
      resultType: 'complete',
    });
    expect((await rpc(a, 'tasks/get', { taskId: lingering })).result?.status).toBe('cancelled');
  });

  it('reports a task failed once the instance running it was SIGKILLed', async () => {
    const [a, b] = await Promise.all([
      instance({ instanceTimeoutMs: 600 }),
      instance({ instanceTimeoutMs: 600 }),
    ]);
    if (!a || !b) throw new Error('instances did not start');
    const taskId = String(
      (await rpc(a, 'tools/call', { name: 'linger', arguments: { ms: 60_000 } })).result?.taskId,
    );
    expect((await rpc(b, 'tasks/get', { taskId })).result?.status).toBe('working');
    a.child.kill('SIGKILL');
    await a.exit;
    const failed = await eventually('the task to be reported failed', async () => {
      const reply = await rpc(b, 'tasks/get', { taskId });
      return reply.result?.status === 'failed' && reply.result;
    });
    expect(failed).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('stopped before the task finished') },
    });
    expect((await rpc(b, 'tasks/get', { taskId })).result?.status).toBe('failed');
  });

  it('the store: one claim of a task wins, a terminal status sticks, heartbeats lapse', async () => {
    const connect = async () => {
      const client = createClient({ url: redis.url });
      client.on('error', () => {});
      await client.connect();
      return client;
    };
    const [client, subscriber] = await Promise.all([connect(), connect()]);
    try {
      const store = new RedisMCPTaskStore({ client, subscriber, serverId: 'claims' });
      const now = new Date().toISOString();
      await store.create({
        taskId: 't1',
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: null,
        toolName: 'x',
        instanceId: 'dead',
      });
      const claims = await Promise.all(
        ['b', 'c'].map((instanceId) => store.update('t1', { instanceId }, { instanceId: 'dead' })),
      );
      const winners = claims.filter((task, index) => task?.instanceId === ['b', 'c'][index]);
      expect(winners).toHaveLength(1);
      await store.update('t1', { status: 'cancelled' });
      expect((await store.update('t1', { status: 'completed', result: {} }))?.status).toBe('cancelled');
      expect(await store.update('missing', { status: 'failed' })).toBeUndefined();
      await store.heartbeat('b', 150);
      expect(await store.isAlive('b')).toBe(true);
      await eventually('the heartbeat to lapse', async () => !(await store.isAlive('b')));
    } finally {
      await Promise.all([client.close(), subscriber.close()]);
    }
  });
});
