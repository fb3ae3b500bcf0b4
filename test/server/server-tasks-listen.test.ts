/**
 * `notifications/tasks` on `subscriptions/listen` (the Tasks extension's push), over real HTTP and
 * stdio: the acknowledgement names the tasks the caller may follow, the stream is told each
 * task's state at once and after every change, the SDK's own part of a mixed filter still works,
 * refusals (-32021 undeclared, -32602 malformed or too many), and the graceful end on close.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createTool } from '@mastra/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemoryMCPTaskStore, MCPServer, type MCPServerTasksConfig } from '../../src/index.js';
import { type TaskReply as Reply, releasableWork, TASKS_DECLARED as TASKS } from '../fixtures/task-tools.js';
import {
  bearerAuth,
  type HttpHarness,
  modernEnvelope,
  modernRequest,
  replyOf,
  serveHttp,
} from '../helpers.js';
import { ListenStream } from '../support/sse.js';
import { eventually } from '../support/wait.js';

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(tasks: Partial<MCPServerTasksConfig> = {}) {
  const { work, releases } = releasableWork();
  const store = new InMemoryMCPTaskStore();
  const extra = createTool({
    id: 'extra',
    description: 'Added while a stream listens',
    inputSchema: z.object({}),
    execute: async () => 'extra',
  });
  const server = new MCPServer({
    name: 'listen',
    version: '1.0.0',
    tools: { work },
    tasks: { tools: { work: 'optional' }, store, pollIntervalMs: 50, ...tasks },
  });
  const http: HttpHarness = await serveHttp(server, { before: bearerAuth });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  let id = 0;
  const headersOf = (token?: string) => (token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const rpc = async (method: string, params: Record<string, unknown>, token?: string) =>
    replyOf<Reply>(
      await fetch(
        http.mcpUrl,
        modernRequest(method, params, { id: ++id, capabilities: TASKS, ...headersOf(token) }),
      ),
    );
  const start = async (label: string, token?: string) => {
    const reply = await rpc('tools/call', { name: 'work', arguments: { label } }, token);
    expect(reply.result?.resultType).toBe('task');
    return reply.result?.taskId as string;
  };
  const listen = async (
    notifications: Record<string, unknown>,
    {
      declare = true,
      token,
      listenId = 'listen-1',
    }: { declare?: boolean; token?: string; listenId?: string } = {},
  ) => {
    const abort = new AbortController();
    const response = await fetch(
      http.mcpUrl,
      modernRequest(
        'subscriptions/listen',
        { notifications },
        { id: listenId, capabilities: declare ? TASKS : {}, signal: abort.signal, ...headersOf(token) },
      ),
    );
    cleanups.push(async () => abort.abort());
    return new ListenStream(response, abort);
  };
  return { server, http, store, rpc, start, listen, releases, extra };
}

describe('notifications/tasks on subscriptions/listen', () => {
  it('acknowledges the caller’s tasks only, tells each task’s state at once and after every change', async () => {
    const { server, start, listen, releases } = await setup();
    const mine = await start('mine', 'alice');
    const theirs = await start('theirs', 'bob');
    const stream = await listen({ taskIds: [mine, theirs, 'no-such-task', mine] }, { token: 'alice' });
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');

    const ack = await stream.next('the acknowledgement');
    expect(ack.method).toBe('notifications/subscriptions/acknowledged');
    expect(ack.params).toMatchObject({
      notifications: { taskIds: [mine] },
      _meta: { [SUBSCRIPTION]: 'listen-1' },
    });

    const now = await stream.task(mine, 'working');
    expect(now).toMatchObject({ taskId: mine, ttlMs: expect.any(Number), pollIntervalMs: 50 });
    expect((now._meta as Record<string, unknown>)[SUBSCRIPTION]).toBe('listen-1');
    expect(now).not.toHaveProperty('owner');

    releases.get('mine')?.();
    const done = await stream.task(mine, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'done mine' }] });

    // Bob's task finishing is never told on Alice's stream.
    releases.get('theirs')?.();
    await expect(stream.next('anything more', 500)).rejects.toThrow(/timed out/);

    // The client going away stops the following (nothing is held for a stream nobody reads).
    const tasks = (server as unknown as { tasksService: { following: number } }).tasksService;
    expect(tasks.following).toBe(1);
    stream.close();
    await eventually('the stream to stop following', () => tasks.following === 0);
  });

  it('keeps the SDK’s part of a mixed filter: list changes and task states share one stream', async () => {
    const { server, start, listen, releases, extra } = await setup();
    const taskId = await start('mixed');
    const stream = await listen({ toolsListChanged: true, taskIds: [taskId] });
    const ack = await stream.next('the acknowledgement');
    expect(ack.params).toMatchObject({ notifications: { toolsListChanged: true, taskIds: [taskId] } });
    await stream.task(taskId, 'working');

    await server.toolActions.add({ extra });
    releases.get('mixed')?.();
    const seen = new Set<string>();
    while (seen.size < 2) {
      const message = await stream.next('a list change and the completion');
      if (message.method === 'notifications/tools/list_changed') seen.add('tools');
      if (message.method === 'notifications/tasks' && message.params?.status === 'completed')
        seen.add('task');
    }
  });

  it('tells a change made between the stream’s first read of a task and its acknowledgement', async () => {
    // A second instance on the same store serves the stream; its read of the task is held back
    // until the task, running on the first instance, has completed meanwhile.
    let hold: Promise<void> | undefined;
    let held = 0;
    class HeldStore extends InMemoryMCPTaskStore {
      override async get(taskId: string) {
        const task = await super.get(taskId);
        if (hold) {
          held++;
          await hold;
        }
        return task;
      }
    }
    const store = new HeldStore();
    const { start, releases, rpc } = await setup({ store });
    const other = new MCPServer({ name: 'other', version: '1.0.0', tools: {}, tasks: { store } });
    const otherHttp = await serveHttp(other);
    cleanups.push(
      () => otherHttp.close(),
      () => other.close(),
    );
    const taskId = await start('raced');
    let letGo = () => {};
    hold = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const opening = ListenStream.open(otherHttp.mcpUrl, (signal) =>
      modernRequest(
        'subscriptions/listen',
        { notifications: { taskIds: [taskId] } },
        {
          id: 'raced',
          capabilities: TASKS,
          signal,
        },
      ),
    );
    await eventually('the listen request to read the task', () => held > 0);
    hold = undefined;
    releases.get('raced')?.();
    await expect
      .poll(async () => (await rpc('tasks/get', { taskId })).result?.status, { interval: 20 })
      .toBe('completed');
    letGo();
    const stream = await opening;
    cleanups.push(async () => stream.close());
    expect((await stream.next('the acknowledgement')).params).toMatchObject({
      notifications: { taskIds: [taskId] },
    });
    expect((await stream.task(taskId, 'completed')).result).toBeDefined();
  });

  it('refuses taskIds from a request that did not declare the extension (-32021), malformed ones and too many (-32602)', async () => {
    const { start, listen } = await setup({ maxListenTaskIds: 2 });
    const taskId = await start('refused');

    const undeclared = await replyOf<Reply>(
      (await listen({ taskIds: [taskId] }, { declare: false })).response,
    );
    expect(undeclared.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });

    const malformed = await replyOf<Reply>((await listen({ taskIds: [42] })).response);
    expect(malformed.error?.code).toBe(-32602);
    expect(malformed.error?.message).toContain('params.notifications.taskIds');

    const many = await replyOf<Reply>((await listen({ taskIds: ['a', 'b', 'c'] })).response);
    expect(many.error?.code).toBe(-32602);
    expect(many.error?.message).toContain('tasks.maxListenTaskIds');
  });

  it('tells a task that already finished once, and ends a task-only stream gracefully when the server closes', async () => {
    const { server, start, listen, releases, rpc } = await setup();
    const taskId = await start('early');
    releases.get('early')?.();
    await expect
      .poll(async () => (await rpc('tasks/get', { taskId })).result?.status, { interval: 20 })
      .toBe('completed');
    const stream = await listen({ taskIds: [taskId] });
    expect((await stream.next('the acknowledgement')).params).toMatchObject({
      notifications: { taskIds: [taskId] },
    });
    expect((await stream.task(taskId, 'completed')).result).toBeDefined();

    await server.close();
    const end = await stream.next('the graceful end');
    expect(end).toMatchObject({ id: 'listen-1', result: { _meta: { [SUBSCRIPTION]: 'listen-1' } } });
    await expect(stream.next('nothing after the end', 2000)).rejects.toThrow(/ended/);
  });

  it('over stdio: refuses undeclared and malformed taskIds, and acknowledges only tasks it knows', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/tasks-stdio-server.ts'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    cleanups.push(async () => {
      child.kill();
    });
    const replies = new Map<string | number, Record<string, unknown>>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown> & {
        params?: { _meta?: Record<string, unknown> };
      };
      const id = (message.id ?? message.params?._meta?.[SUBSCRIPTION]) as string | number | undefined;
      if (id !== undefined && !replies.has(id)) replies.set(id, message);
    });
    const send = (
      id: string,
      notifications: Record<string, unknown>,
      capabilities: Record<string, unknown> = TASKS,
    ) =>
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'subscriptions/listen',
          params: { notifications, _meta: modernEnvelope(capabilities) },
        })}\n`,
      );
    const reply = (id: string) => eventually(`the answer to ${id}`, () => replies.get(id));
    send('undeclared', { taskIds: ['a'] }, {});
    expect(await reply('undeclared')).toMatchObject({ error: { code: -32021 } });
    send('malformed', { taskIds: 'a' });
    expect(await reply('malformed')).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('params.notifications.taskIds') },
    });
    send('unknown', { toolsListChanged: true, taskIds: ['no-such-task'] });
    const ack = await reply('unknown');
    expect(ack).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    expect((ack.params as { notifications: Record<string, unknown> }).notifications).not.toHaveProperty(
      'taskIds',
    );
  });
});
