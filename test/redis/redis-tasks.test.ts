/**
 * Tasks (SEP-2663) on several instances of one MCPServer sharing a RedisMCPTaskStore, each its own
 * process: any instance answers for any task (its input answers and cancels reach the instance
 * running it), and a task whose instance was SIGKILLed is reported failed, never left `working`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, MCPErrorCode } from '../../src/index.js';
import { RedisMCPTaskStore } from '../../src/redis/index.js';
import { startBalancer } from '../fixtures/balancer.js';
import { type Instance, startInstance } from '../fixtures/instance-process.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { type TaskReply as Reply, TASKS_DECLARED as TASKS } from '../fixtures/task-tools.js';
import { modernRequest, replyOf } from '../helpers.js';
import { rejectionOf, textOf } from '../support/results.js';
import { ListenStream } from '../support/sse.js';
import { eventually } from '../support/wait.js';

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

async function instance(options: { instanceTimeoutMs?: number } = {}, workflowDb?: string) {
  const started = await startInstance(redis.url, { tasks: options, ...(workflowDb ? { workflowDb } : {}) });
  instances.push(started);
  return started;
}

let id = 0;
// These callers answer input requests: they declare form elicitation (a suspended workflow asks only then).
const ASKING = { ...TASKS, elicitation: { form: {} } };
async function rpc(on: Instance, method: string, params: Record<string, unknown>) {
  return replyOf<Reply>(
    await fetch(on.url, modernRequest(method, params, { id: ++id, capabilities: ASKING })),
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

  it('a listen stream on one instance is told what another instance does with a task, and when that instance died', async () => {
    const [a, b] = await Promise.all([
      instance({ instanceTimeoutMs: 600 }),
      instance({ instanceTimeoutMs: 600 }),
    ]);
    if (!a || !b) throw new Error('instances did not start');
    const asked = String((await rpc(a, 'tools/call', { name: 'ask', arguments: {} })).result?.taskId);
    const lingering = String(
      (await rpc(a, 'tools/call', { name: 'linger', arguments: { ms: 60_000 } })).result?.taskId,
    );
    const stream = await ListenStream.open(b.url, (signal) =>
      modernRequest(
        'subscriptions/listen',
        { notifications: { taskIds: [asked, lingering] } },
        { id: 'listen-b', capabilities: TASKS, signal },
      ),
    );
    try {
      expect((await stream.next('the acknowledgement')).params).toMatchObject({
        notifications: { taskIds: [asked, lingering] },
      });
      const question = await stream.task(asked, 'input_required');
      const key = Object.keys(question.inputRequests as object)[0] as string;
      await rpc(a, 'tasks/update', {
        taskId: asked,
        inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
      });
      const done = await stream.task(asked, 'completed');
      expect(JSON.stringify(done.result)).toContain(`hello Ada from ${a.child.pid}`);

      a.child.kill('SIGKILL');
      await a.exit;
      const failed = await stream.task(lingering, 'failed');
      expect(failed.error).toMatchObject({
        message: expect.stringContaining('stopped before the task finished'),
      });
    } finally {
      stream.close();
    }
  });

  it('a run_<workflow> task outlives its SIGKILLed instance: another one sharing the Mastra storage resumes the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mastra-mcp-runs-'));
    try {
      const db = join(dir, 'runs.db');
      const [a, b] = await Promise.all([
        instance({ instanceTimeoutMs: 600 }, db),
        instance({ instanceTimeoutMs: 600 }, db),
      ]);
      if (!a || !b) throw new Error('instances did not start');
      const taskId = String(
        (await rpc(a, 'tools/call', { name: 'run_payment', arguments: { amount: 70 } })).result?.taskId,
      );
      // Two instances and a workflow store starting beside a full test run can take seconds: the
      // wait is long, and a task that ended instead of asking fails at once with what it said.
      const before = await eventually(
        'the question, read on the other instance',
        async () => {
          const reply = await rpc(b, 'tasks/get', { taskId });
          const status = reply.result?.status;
          if (status === 'failed' || status === 'completed' || status === 'cancelled') {
            throw new Error(
              `the task ended (${String(status)}) before asking: ${JSON.stringify(reply.result)}`,
            );
          }
          return status === 'input_required' && reply.result;
        },
        30_000,
      );
      a.child.kill('SIGKILL');
      await a.exit;
      // Once a's heartbeat lapsed, b claims the task and resumes the run from its stored snapshot.
      const after = await eventually('the question asked again by the other instance', async () => {
        const reply = await rpc(b, 'tasks/get', { taskId });
        const keys = Object.keys((reply.result?.inputRequests as object | undefined) ?? {});
        return (
          reply.result?.status === 'input_required' &&
          !keys.includes(Object.keys(before.inputRequests as object)[0] ?? '') &&
          reply.result
        );
      });
      const [key, request] =
        Object.entries(after.inputRequests as Record<string, { params: { message: string } }>)[0] ?? [];
      expect(request?.params.message).toBe('Approve a payment of 70?');
      await rpc(b, 'tasks/update', {
        taskId,
        inputResponses: { [String(key)]: { action: 'accept', content: { approver: 'Kim' } } },
      });
      const done = await eventually('the run to finish on the other instance', async () => {
        const reply = await rpc(b, 'tasks/get', { taskId });
        return reply.result?.status === 'completed' && reply.result;
      });
      expect(textOf(done.result)).toContain('"approvedBy":"Kim"');
    } finally {
      for (const started of instances.splice(0)) await started.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

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

  it('MCPClient behind a balancer: answers reach the running instance, and a SIGKILLed one fails its task', async () => {
    const [a, b] = await Promise.all([
      instance({ instanceTimeoutMs: 600 }),
      instance({ instanceTimeoutMs: 600 }),
    ]);
    if (!a || !b) throw new Error('instances did not start');
    // Round robin: the task's polls and its answer reach both instances, whichever runs it.
    const spread = await startBalancer([a.url, b.url], { policy: 'round-robin' });
    const mcp = new MCPClient({
      id: 'balanced-tasks',
      servers: {
        scaled: {
          url: spread.url,
          inputRequests: async () => ({ action: 'accept', content: { name: 'Ines' } }),
        },
      },
    });
    try {
      const { scaled_ask } = await mcp.listTools();
      const greeting = await scaled_ask?.execute?.({}, {} as never);
      expect(JSON.stringify(greeting)).toMatch(new RegExp(`hello Ines from (${a.child.pid}|${b.child.pid})`));
      expect(new Set(spread.routed.map((routed) => routed.upstream))).toEqual(new Set([0, 1]));
    } finally {
      await mcp.disconnect();
      await spread.close();
    }

    // Failover: everything goes to a until it dies, then to b, which reports a's task failed.
    const failover = await startBalancer([a.url, b.url], { policy: 'failover' });
    const follower = new MCPClient({ id: 'failover-tasks', servers: { scaled: { url: failover.url } } });
    try {
      const { scaled_linger } = await follower.listTools();
      const outcome = rejectionOf(scaled_linger?.execute?.({ ms: 60_000 }, {} as never) ?? Promise.resolve());
      await eventually('the task to run on a', () =>
        failover.routed.some((routed) => routed.method === 'tasks/get'),
      );
      a.child.kill('SIGKILL');
      expect(await outcome).toMatchObject({
        id: MCPErrorCode.CLIENT_TOOL_CALL_FAILED,
        message: expect.stringMatching(
          /task [\w-]+ failed: The server instance running this task \([\w-]+\) stopped before the task finished \(JSON-RPC -32603\)/,
        ),
      });
    } finally {
      await follower.disconnect();
      await failover.close();
    }
  }, 60_000);
});
