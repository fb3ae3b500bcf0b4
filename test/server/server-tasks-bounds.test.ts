/**
 * What finished tasks may hold in the in-memory store, over real HTTP: results bounded in bytes
 * and count, per principal and per server (anonymous callers share one budget), the oldest going
 * first and `tasks/get` saying which bound dropped a result; expiry on a timer that stops once
 * nothing is left to expire and at close.
 */
import { createTool } from '@mastra/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InMemoryMCPTaskStore,
  type InMemoryMCPTaskStoreOptions,
  MCPErrorCode,
  MCPServer,
  type MCPServerTasksConfig,
} from '../../src/index.js';
import { type TaskReply as Reply, releasableWork, TASKS_DECLARED as TASKS } from '../fixtures/task-tools.js';
import { bearerAuth, modernRequest, replyOf, serveHttp } from '../helpers.js';
import { eventually } from '../support/wait.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server whose tool `sized` returns `size` bytes of text as a task kept in `store` (`work` runs until released). */
async function setup(store: InMemoryMCPTaskStore, tasks: Partial<MCPServerTasksConfig> = {}) {
  const sized = createTool({
    id: 'sized',
    description: 'Returns as many bytes as asked',
    inputSchema: z.object({ size: z.number() }),
    execute: async ({ size }) => 'x'.repeat(size),
  });
  const { work, releases } = releasableWork();
  const server = new MCPServer({
    name: 'bounds',
    version: '1.0.0',
    tools: { sized, work },
    tasks: { tools: { sized: 'optional', work: 'optional' }, store, pollIntervalMs: 20, ...tasks },
  });
  const http = await serveHttp(server, { before: bearerAuth });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  let id = 0;
  const rpc = async (method: string, params: Record<string, unknown>, token?: string) =>
    replyOf<Reply>(
      await fetch(
        http.mcpUrl,
        modernRequest(method, params, {
          id: ++id,
          capabilities: TASKS,
          ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        }),
      ),
    );
  /** Runs `sized` as a task to its end; its id. */
  const run = async (size: number, token?: string) => {
    const taskId = String(
      (await rpc('tools/call', { name: 'sized', arguments: { size } }, token)).result?.taskId,
    );
    await eventually(`task ${taskId} to complete`, async () => {
      return (await rpc('tasks/get', { taskId }, token)).result?.status === 'completed';
    });
    return taskId;
  };
  return { server, rpc, run, releases };
}

function store(options: InMemoryMCPTaskStoreOptions) {
  return new InMemoryMCPTaskStore(options);
}

describe('finished tasks in the in-memory store', () => {
  it('keep at most their bytes per principal and per server: the oldest results go, and tasks/get says which bound dropped them', async () => {
    const kept = store({ maxFinishedTaskBytesPerPrincipal: 10_000, maxFinishedTaskBytes: 25_000 });
    const { rpc, run } = await setup(kept);
    // About 4.4 KB a task as JSON: the anonymous callers' third pushes out their first.
    const anonymous = [await run(4000), await run(4000), await run(4000)];
    const [first, second, third] = anonymous as [string, string, string];
    const dropped = await rpc('tasks/get', { taskId: first });
    expect(dropped.error).toEqual({
      code: -32602,
      message: `Failed to retrieve task: task '${first}' of tool 'sized' finished, but its result was dropped to keep finished tasks within the task store's maxFinishedTaskBytesPerPrincipal (older results go first); call the tool again, or raise maxFinishedTaskBytesPerPrincipal`,
    });
    expect((await rpc('tasks/cancel', { taskId: first })).error?.code).toBe(-32602);
    // Another caller is told nothing more about it than about an unknown task.
    expect((await rpc('tasks/get', { taskId: first }, 'bob')).error?.message).toContain('not found');
    // One result over the per-principal bound by itself is kept for its caller.
    const large = await run(12_000, 'ann');
    expect((await rpc('tasks/get', { taskId: large }, 'ann')).result?.status).toBe('completed');
    // The server's bound: 8.8 + 12.4 + 6.4 KB is over 25 KB, and the oldest result held goes.
    const bobs = await run(6000, 'bob');
    expect((await rpc('tasks/get', { taskId: second })).error?.message).toContain(
      "within the task store's maxFinishedTaskBytes (older results go first)",
    );
    expect((await rpc('tasks/get', { taskId: third })).result?.result).toMatchObject({
      content: [{ text: 'x'.repeat(4000) }],
    });
    expect((await rpc('tasks/get', { taskId: bobs }, 'bob')).result?.status).toBe('completed');
    expect(kept.finishedBytes).toBeLessThanOrEqual(25_000);
  });

  it('keep at most maxFinishedTasksPerPrincipal finished tasks per principal; older ones are forgotten', async () => {
    const { rpc, run } = await setup(store({ maxFinishedTasksPerPrincipal: 2 }));
    const [first, ...rest] = [await run(10), await run(10), await run(10)];
    expect((await rpc('tasks/get', { taskId: first })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('was dropped to keep finished tasks within the task store'),
    });
    for (const taskId of rest) expect((await rpc('tasks/get', { taskId })).result?.status).toBe('completed');
    expect((await rpc('tasks/get', { taskId: await run(10, 'ann') }, 'ann')).result?.status).toBe(
      'completed',
    );
  });

  it('a store full of unfinished tasks refuses the next one with -32000 naming maxTasks', async () => {
    const { rpc, releases } = await setup(store({ maxTasks: 1 }));
    expect((await rpc('tools/call', { name: 'work', arguments: { label: 'held' } })).result?.status).toBe(
      'working',
    );
    expect((await rpc('tools/call', { name: 'sized', arguments: { size: 1 } })).error).toEqual({
      code: -32000,
      message:
        "Tool 'sized' could not start a task: The in-memory task store holds 1 unfinished tasks (its maxTasks option); finish or cancel some first",
      data: { limit: 'maxTasks' },
    });
    await eventually('the held run to start', () => releases.has('held'));
    releases.get('held')?.();
  });

  it('expire on a timer, without another access; the timer stops when nothing is left and at close', async () => {
    const kept = new InMemoryMCPTaskStore();
    const { run } = await setup(kept, { ttlMs: 300 });
    await run(10);
    expect(kept.size).toBe(1);
    await eventually('the expired task to be dropped', () => kept.size === 0);
    expect(kept['sweeper']).toBeUndefined();

    // A server's own store is closed with it: its tasks and its timer go.
    const own = new MCPServer({ name: 'own', version: '1', tools: {}, tasks: {} });
    const defaultStore = own['tasksService'].store as InMemoryMCPTaskStore;
    await defaultStore.create({
      taskId: 'held',
      status: 'working',
      createdAt: '',
      lastUpdatedAt: '',
      ttlMs: 3_600_000,
      toolName: 'x',
      instanceId: 'i',
      expiresAt: Date.now() + 3_600_000,
    });
    expect(defaultStore['sweeper']).toBeDefined();
    await own.close();
    expect(defaultStore['sweeper']).toBeUndefined();
    expect(defaultStore.size).toBe(0);
  });

  it('refuses a bound that is not a positive integer, naming it', () => {
    for (const field of [
      'maxTasks',
      'maxFinishedTasksPerPrincipal',
      'maxFinishedTaskBytes',
      'maxFinishedTaskBytesPerPrincipal',
    ] as const) {
      expect(() => new InMemoryMCPTaskStore({ [field]: 0 })).toThrow(
        expect.objectContaining({
          id: MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
          message: `InMemoryMCPTaskStore: '${field}' must be a positive integer, got 0`,
          details: expect.objectContaining({ field }),
        }),
      );
    }
  });
});
