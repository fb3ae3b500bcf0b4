/**
 * MCPServer's `tasks` option (the MCP Tasks extension, SEP-2663) over real HTTP: which calls
 * become tasks, the lifecycle a client polls, input requests answered with tasks/update,
 * cancellation reaching the tool, callers kept apart, the caps and the TTL.
 */
import { createTool } from '@mastra/core/tools';
import { ProtocolError } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemoryMCPTaskStore, MCPErrorCode, MCPServer, type MCPServerTasksConfig } from '../../src/index.js';
import { type TaskReply as Reply, releasableWork, TASKS_DECLARED as TASKS } from '../fixtures/task-tools.js';
import { bearerAuth, connectHttp, type HttpHarness, modernRequest, replyOf, serveHttp } from '../helpers.js';
import { rejectionOf, textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Tools whose progress the tests drive: `work` waits for `release` or its abort signal. */
function fixture() {
  const { work, aborted, releases } = releasableWork();
  const ask = createTool({
    id: 'ask',
    description: 'Asks two questions at once',
    inputSchema: z.object({}),
    execute: async (_input, context) => {
      const send = context?.mcp?.elicitation.sendRequest;
      if (!send) throw new Error('no MCP context');
      const [name, age] = await Promise.all([
        send({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
        send({
          message: 'Age?',
          requestedSchema: { type: 'object', properties: { age: { type: 'number' } }, required: ['age'] },
        }),
      ]);
      return `${String(name.content?.name)} is ${String(age.content?.age)}`;
    },
  });
  const fails = createTool({
    id: 'fails',
    description: 'Reports a tool error',
    inputSchema: z.object({}),
    execute: async () => {
      throw new Error('the tool broke');
    },
  });
  const crashes = createTool({
    id: 'crashes',
    description: 'Fails with a JSON-RPC error',
    inputSchema: z.object({}),
    execute: async () => {
      throw new ProtocolError(-32099, 'deliberate protocol failure', { why: 'test' });
    },
  });
  const plain = createTool({
    id: 'plain',
    description: 'Never a task',
    inputSchema: z.object({}),
    execute: async () => 'plain result',
  });
  return { tools: { work, ask, fails, crashes, plain }, aborted, releases };
}

async function setup(tasks: Partial<MCPServerTasksConfig> = {}) {
  const { tools, aborted, releases } = fixture();
  const store = new InMemoryMCPTaskStore();
  const server = new MCPServer({
    name: 'tasks',
    version: '1.0.0',
    tools,
    tasks: {
      tools: { work: 'optional', ask: 'optional', fails: 'optional', crashes: 'required' },
      store,
      pollIntervalMs: 50,
      ...tasks,
    },
  });
  const http: HttpHarness = await serveHttp(server, { before: bearerAuth });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  let id = 0;
  const rpc = async (
    method: string,
    params: Record<string, unknown>,
    { declare = true, token }: { declare?: boolean; token?: string } = {},
  ) =>
    replyOf<Reply>(
      await fetch(
        http.mcpUrl,
        modernRequest(method, params, {
          id: ++id,
          // A task's tool asks only what the creating request declared (form elicitation here).
          capabilities: declare ? { ...TASKS, elicitation: {} } : {},
          ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        }),
      ),
    );
  const settled = (taskId: string, token?: string) =>
    eventually(`task ${taskId} to finish`, async () => {
      const reply = await rpc('tasks/get', { taskId }, { ...(token ? { token } : {}) });
      return ['completed', 'failed', 'cancelled'].includes(reply.result?.status ?? '') && reply.result;
    });
  return { server, http, store, rpc, settled, aborted, releases };
}

describe('MCPServer tasks', () => {
  it('advertises the extension and answers a declaring call with a task stored before the answer', async () => {
    const { rpc, releases, settled } = await setup();
    const discover = await rpc('server/discover', {});
    expect(discover.result?.capabilities).toMatchObject(TASKS);
    const listed = (await rpc('tools/list', {})).result?.tools as {
      name: string;
      _meta?: Record<string, unknown>;
    }[];
    expect(listed.find((tool) => tool.name === 'work')?._meta).toMatchObject({
      'mastra/taskSupport': 'optional',
    });
    expect(listed.find((tool) => tool.name === 'plain')?._meta?.['mastra/taskSupport']).toBeUndefined();

    const created = (await rpc('tools/call', { name: 'work', arguments: { label: 'a' } })).result;
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 50,
    });
    expect(created).not.toHaveProperty('content');
    expect(Date.parse(String(created?.createdAt))).not.toBeNaN();
    const taskId = String(created?.taskId);
    // Stored before the answer: the first poll finds it.
    const first = await rpc('tasks/get', { taskId });
    expect(first.result).toMatchObject({ taskId, resultType: 'complete' });
    expect(['working']).toContain(first.result?.status);
    await eventually('the progress message', async () => {
      const reply = await rpc('tasks/get', { taskId });
      return reply.result?.statusMessage === 'working on a';
    });
    releases.get('a')?.();
    const done = await settled(taskId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done a' }] },
    });
    expect(done).not.toHaveProperty('error');
  });

  it('runs the same tools synchronously for a request that did not declare the extension, and for legacy clients', async () => {
    const { rpc, http, releases } = await setup();
    const plain = await rpc('tools/call', { name: 'plain', arguments: {} });
    expect(plain.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'plain result' }],
    });
    const undeclared = rpc('tools/call', { name: 'work', arguments: { label: 'sync' } }, { declare: false });
    await eventually('the synchronous run to start', () => releases.has('sync'));
    releases.get('sync')?.();
    expect((await undeclared).result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'done sync' }],
    });

    const legacy = await connectHttp(http.mcpUrl, 'legacy');
    cleanups.push(() => legacy.close());
    expect(legacy.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/tasks']).toBeUndefined();
    const call = legacy.callTool({ name: 'work', arguments: { label: 'legacy' } });
    await eventually('the legacy run to start', () => releases.has('legacy'));
    releases.get('legacy')?.();
    expect(textOf(await call)).toBe('done legacy');
  });

  it('refuses a task-only tool and every tasks/* method to a request that did not declare the extension (-32021)', async () => {
    const { rpc } = await setup();
    const required = await rpc('tools/call', { name: 'crashes', arguments: {} }, { declare: false });
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    expect(required.error?.message).toContain("tool 'crashes'");
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const reply = await rpc(method, { taskId: 'anything', inputResponses: {} }, { declare: false });
      expect(reply.error?.code, method).toBe(-32021);
    }
    expect((await rpc('tasks/get', { taskId: 'no-such-task' })).error).toMatchObject({ code: -32602 });
    expect((await rpc('tasks/list', {})).error?.code).toBe(-32601);
  });

  it('completes a task whose tool reported an error with isError, and fails one whose tool threw a JSON-RPC error', async () => {
    const { rpc, settled } = await setup();
    const failing = String((await rpc('tools/call', { name: 'fails', arguments: {} })).result?.taskId);
    const failed = await settled(failing);
    expect(failed).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(textOf(failed.result)).toContain('the tool broke');
    const crashing = String((await rpc('tools/call', { name: 'crashes', arguments: {} })).result?.taskId);
    const crashed = await settled(crashing);
    expect(crashed).toMatchObject({
      status: 'failed',
      error: { code: -32099, message: 'deliberate protocol failure', data: { why: 'test' } },
    });
    expect(crashed).not.toHaveProperty('result');
  });

  it('asks through inputRequests, takes partial answers, ignores unknown keys and refuses malformed ones', async () => {
    const { rpc, settled } = await setup();
    const taskId = String((await rpc('tools/call', { name: 'ask', arguments: {} })).result?.taskId);
    const asking = await eventually('two input requests', async () => {
      const reply = await rpc('tasks/get', { taskId });
      const requests = reply.result?.inputRequests as Record<
        string,
        { method: string; params: { message: string } }
      >;
      return (
        reply.result?.status === 'input_required' && Object.keys(requests ?? {}).length === 2 && requests
      );
    });
    const keyOf = (message: string) =>
      Object.entries(asking).find(([, request]) => request.params.message === message)?.[0] as string;
    expect(Object.values(asking).every((request) => request.method === 'elicitation/create')).toBe(true);

    const malformed = await rpc('tasks/update', {
      taskId,
      inputResponses: { [keyOf('Age?')]: { action: 'accept', content: { age: 'old' } } },
    });
    expect(malformed.error?.code).toBe(-32602);
    expect(malformed.error?.message).toContain(keyOf('Age?'));

    const partial = await rpc('tasks/update', {
      taskId,
      inputResponses: {
        [keyOf('Name?')]: { action: 'accept', content: { name: 'Ada' } },
        'never-issued': { action: 'accept' },
      },
    });
    expect(partial.result).toMatchObject({ resultType: 'complete' });
    expect(partial.result).not.toHaveProperty('taskId');
    const waiting = await rpc('tasks/get', { taskId });
    expect(waiting.result?.status).toBe('input_required');
    expect(Object.keys(waiting.result?.inputRequests as object)).toEqual([keyOf('Age?')]);

    await rpc('tasks/update', {
      taskId,
      inputResponses: { [keyOf('Age?')]: { action: 'accept', content: { age: 36 } } },
    });
    expect(await settled(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'Ada is 36' }] },
    });
    // Answered keys are not pending any more: answering again changes nothing.
    expect(
      (await rpc('tasks/update', { taskId, inputResponses: { [keyOf('Name?')]: { action: 'decline' } } }))
        .result,
    ).toBeDefined();
  });

  it('cancels: the tool sees its abort signal, the task ends cancelled, and a second cancel is acknowledged', async () => {
    const { rpc, aborted, server } = await setup();
    const taskId = String(
      (await rpc('tools/call', { name: 'work', arguments: { label: 'c' } })).result?.taskId,
    );
    const ack = await rpc('tasks/cancel', { taskId });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(ack.result).not.toHaveProperty('status');
    await eventually('the tool to see its abort', () => aborted.includes('c'));
    expect((await rpc('tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    expect((await rpc('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect(server['tasksService'].running).toBe(0);
  });

  it("answers another caller's task exactly like an unknown one", async () => {
    const { rpc, releases } = await setup();
    const taskId = String(
      (await rpc('tools/call', { name: 'work', arguments: { label: 'mine' } }, { token: 'ann' })).result
        ?.taskId,
    );
    expect((await rpc('tasks/get', { taskId }, { token: 'ann' })).result?.status).toBe('working');
    const unknown = await rpc('tasks/get', { taskId: 'no-such-task' }, { token: 'bob' });
    for (const caller of [{ token: 'bob' }, {}]) {
      const theirs = await rpc('tasks/get', { taskId }, caller);
      expect(theirs.error).toMatchObject({ code: -32602 });
      expect(theirs.error?.message).toBe(unknown.error?.message.replace('no-such-task', taskId));
      expect((await rpc('tasks/cancel', { taskId }, caller)).error?.code).toBe(-32602);
    }
    expect((await rpc('tasks/get', { taskId }, { token: 'ann' })).result?.status).toBe('working');
    releases.get('mine')?.();
  });

  it('bounds unfinished tasks per server and per principal, and counts a finished one free again', async () => {
    const { rpc, releases, settled } = await setup({ maxTasks: 3, maxTasksPerPrincipal: 2 });
    const start = (label: string, token: string) =>
      rpc('tools/call', { name: 'work', arguments: { label } }, { token });
    const ann = [await start('a1', 'ann'), await start('a2', 'ann')];
    const third = await start('a3', 'ann');
    expect(third.error).toMatchObject({
      code: -32000,
      data: { tool: 'work', limit: 'maxTasksPerPrincipal' },
    });
    expect(third.error?.message).toContain('tasks.maxTasksPerPrincipal');
    await start('b1', 'bob');
    const full = await start('b2', 'bob');
    expect(full.error).toMatchObject({ data: { limit: 'maxTasks' } });
    releases.get('a1')?.();
    await settled(String(ann[0]?.result?.taskId), 'ann');
    expect((await start('a3', 'ann')).result?.resultType).toBe('task');
    for (const label of ['a2', 'a3', 'b1']) releases.get(label)?.();
  });

  it('forgets a task once its TTL passes: the run is stopped and tasks/get no longer finds it', async () => {
    const { rpc, aborted, store } = await setup({ ttlMs: 300 });
    const taskId = String(
      (await rpc('tools/call', { name: 'work', arguments: { label: 'ttl' } })).result?.taskId,
    );
    expect((await rpc('tasks/get', { taskId })).result?.ttlMs).toBe(300);
    await eventually('the run to stop at its TTL', () => aborted.includes('ttl'));
    await eventually(
      'the task to be forgotten',
      async () => (await rpc('tasks/get', { taskId })).error?.code === -32602,
    );
    await eventually('the store to drop it', async () => {
      await store.get('sweep');
      return store.size === 0;
    });
  });

  it('asks first with input_required rounds, then becomes a task (inputBeforeTask)', async () => {
    // Holds the run after its question until the test saw it become a task.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const greet = createTool({
      id: 'greet',
      description: 'Asks a name, then works',
      inputSchema: z.object({}),
      execute: async (_input, context) => {
        const answer = await context?.mcp?.elicitation.sendRequest({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        await released;
        return `hello ${String(answer?.content?.name)}`;
      },
    });
    const server = new MCPServer({
      name: 'compose',
      version: '1.0.0',
      tools: { greet },
      tasks: { tools: { greet: { support: 'required', inputBeforeTask: true } } },
    });
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const call = async (params: Record<string, unknown>, id: number) =>
      replyOf<Reply>(
        await fetch(
          http.mcpUrl,
          modernRequest('tools/call', params, { id, capabilities: { ...TASKS, elicitation: {} } }),
        ),
      );
    const round1 = await call({ name: 'greet', arguments: {} }, 1);
    expect(round1.result).toMatchObject({ resultType: 'input_required' });
    expect(round1.result).not.toHaveProperty('taskId');
    const key = Object.keys(round1.result?.inputRequests as object)[0] as string;
    const round2 = await call(
      {
        name: 'greet',
        arguments: {},
        inputResponses: { [key]: { action: 'accept', content: { name: 'Alice' } } },
        requestState: round1.result?.requestState,
      },
      2,
    );
    expect(round2.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(round2.result).not.toHaveProperty('requestState');
    const taskId = String(round2.result?.taskId);
    release();
    const done = await eventually('the task to finish', async () => {
      const reply = replyOf<Reply>(
        await fetch(http.mcpUrl, modernRequest('tasks/get', { taskId }, { id: 3, capabilities: TASKS })),
      );
      const result = (await reply).result;
      return result?.status === 'completed' && result;
    });
    expect(textOf(done.result)).toBe('hello Alice');
  });

  it('runs a tool as a task when it declares so itself (createTool mcp._meta), unless tasks.tools says otherwise', async () => {
    const declaring = (id: string) =>
      createTool({
        id,
        description: 'Declares its own task support',
        inputSchema: z.object({}),
        mcp: { _meta: { 'mastra/taskSupport': 'required', owner: 'reports' } },
        execute: async () => `${id} done`,
      });
    const server = new MCPServer({
      name: 'declared',
      version: '1.0.0',
      tools: { own: declaring('own'), overridden: declaring('overridden') },
      tasks: { tools: { overridden: 'forbidden' } },
    });
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const call = async (name: string, declare: boolean) =>
      replyOf<Reply>(
        await fetch(
          http.mcpUrl,
          modernRequest('tools/call', { name, arguments: {} }, { capabilities: declare ? TASKS : {} }),
        ),
      );
    const listed = (
      await replyOf<Reply>(await fetch(http.mcpUrl, modernRequest('tools/list', {}, { capabilities: TASKS })))
    ).result?.tools as { name: string; _meta?: Record<string, unknown> }[];
    expect(listed.find((tool) => tool.name === 'own')?._meta).toEqual({
      owner: 'reports',
      'mastra/taskSupport': 'required',
    });
    expect(listed.find((tool) => tool.name === 'overridden')?._meta).toEqual({ owner: 'reports' });
    expect((await call('own', true)).result?.resultType).toBe('task');
    expect((await call('own', false)).error?.code).toBe(-32021);
    expect((await call('overridden', true)).result).toMatchObject({
      content: [{ type: 'text', text: 'overridden done' }],
    });

    expect(
      () =>
        new MCPServer({
          name: 'bad',
          version: '1',
          tools: { odd: { ...declaring('odd'), mcp: { _meta: { 'mastra/taskSupport': 'sometimes' } } } },
        }),
    ).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
        message: expect.stringContaining("Tool 'odd': mcp._meta['mastra/taskSupport'] must be"),
      }),
    );
  });

  it('refuses a malformed tasks option with the field named', () => {
    const build = (tasks: unknown) => () =>
      new MCPServer({ name: 'bad', version: '1', tools: {}, tasks: tasks as MCPServerTasksConfig });
    for (const [tasks, field] of [
      [{ tools: { x: 'sometimes' } }, 'tools.x'],
      [{ tools: { x: { support: 'maybe' } } }, 'tools.x'],
      [{ ttlMs: -1 }, 'ttlMs'],
      [{ pollIntervalMs: 1.5 }, 'pollIntervalMs'],
      [{ maxTasks: 0 }, 'maxTasks'],
    ] as const) {
      expect(build(tasks)).toThrow(
        expect.objectContaining({
          id: MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
          details: expect.objectContaining({ field }),
        }),
      );
    }
  });
});

describe('InMemoryMCPTaskStore', () => {
  it('keeps a terminal status once set, and drops the oldest finished task when full', async () => {
    const store = new InMemoryMCPTaskStore({ maxTasks: 2 });
    const task = (taskId: string) => ({
      taskId,
      status: 'working' as const,
      createdAt: new Date().toISOString(),
      lastUpdatedAt: new Date().toISOString(),
      ttlMs: null,
      toolName: 't',
      instanceId: 'i',
    });
    await store.create(task('a'));
    await store.update('a', { status: 'cancelled' });
    expect((await store.update('a', { status: 'completed', result: { content: [] } }))?.status).toBe(
      'cancelled',
    );
    await store.create(task('b'));
    await store.create(task('c'));
    expect(await store.get('a')).toBeUndefined();
    expect(await rejectionOf(store.create(task('d')))).toMatchObject({
      id: MCPErrorCode.SERVER_TASKS_STORE_FULL,
    });
  });
});
