/**
 * MCPClient as a Tasks requester (SEP-2663) against MCPServer over real HTTP: a tool's execute
 * follows a task to its end (input requests, status and the tool's progress as progress, output
 * checked, abort cancels), and `mcp.tasks` starts, inspects, answers, cancels and waits for tasks
 * by id.
 */
import type { ToolsInput } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { ProtocolError } from '@modelcontextprotocol/server';
import { tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPErrorCode, type MCPProgressUpdate, MCPServer } from '../../src/index.js';
import { releasableWork } from '../fixtures/task-tools.js';
import { serveHttp } from '../helpers.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const nameQuestion = {
  message: 'Name?',
  requestedSchema: {
    type: 'object' as const,
    properties: { name: { type: 'string' as const } },
    required: ['name'],
  },
};

function tools() {
  const { work, aborted, releases } = releasableWork();
  const greet = createTool({
    id: 'greet',
    description: 'Asks a name, works a little, greets',
    inputSchema: z.object({}),
    outputSchema: z.object({ greeting: z.string() }),
    execute: async (_input, context) => {
      await context?.mcp?.progress?.({ progress: 1, message: 'looking up' });
      const answer = await context?.mcp?.elicitation.sendRequest(nameQuestion);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { greeting: `hello ${String(answer?.content?.name)}` };
    },
  });
  const crash = createTool({
    id: 'crash',
    description: 'Fails with a JSON-RPC error',
    inputSchema: z.object({}),
    execute: async () => {
      throw new ProtocolError(-32099, 'deliberate protocol failure');
    },
  });
  // An AI SDK tool: the server does not check its output, so its structured result breaks its schema.
  const wrongOutput = tool({
    description: 'Declares an output schema its result breaks',
    inputSchema: z.object({}),
    outputSchema: z.object({ count: z.number() }),
    execute: async () => ({ count: 'one' }) as unknown as { count: number },
  });
  // Its region is also sent as the Mcp-Param-Region header (x-mcp-header, SEP-2243).
  const regional = createTool({
    id: 'regional',
    description: 'Answers for a region',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    } as unknown as z.ZodType<{ region: string }>,
    execute: async ({ region }) => `served ${region}`,
  });
  // Reports its progress as a fraction of three steps.
  const measure = createTool({
    id: 'measure',
    description: 'Measures in three steps',
    inputSchema: z.object({}),
    execute: async (_input, context) => {
      for (const step of [1, 2, 3]) {
        await context?.mcp?.progress?.({ progress: step, total: 3, message: `step ${step}` });
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      return 'measured';
    },
  });
  return { greet, work, crash, wrongOutput, regional, measure, aborted, releases };
}

async function setup({
  tasks = true,
  answer = 'Ada',
  pollIntervalMs = 30,
}: {
  tasks?: boolean;
  answer?: string;
  pollIntervalMs?: number;
} = {}) {
  const { aborted, releases, ...served } = tools();
  const server = new MCPServer({
    name: 'tasks',
    version: '1.0.0',
    tools: served as ToolsInput,
    ...(tasks
      ? {
          tasks: {
            tools: {
              greet: 'optional',
              work: 'optional',
              crash: 'optional',
              wrongOutput: 'optional',
              regional: 'optional',
              measure: 'optional',
            },
            pollIntervalMs,
          },
        }
      : {}),
  });
  // The method of every request the server receives (the routing header each one carries).
  const methods: string[] = [];
  const regionHeaders: string[] = [];
  const http = await serveHttp(server, {
    before: (req) => {
      methods.push(String(req.headers['mcp-method'] ?? req.method));
      const region = req.headers['mcp-param-region'];
      if (typeof region === 'string') regionHeaders.push(region);
    },
  });
  const asked: string[] = [];
  const mcp = new MCPClient({
    id: `tasks-${Math.random()}`,
    servers: {
      tasks: {
        url: http.mcpUrl,
        inputRequests: async ({ key, params }) => {
          asked.push(`${key}:${'message' in params ? params.message : ''}`);
          return { action: 'accept', content: { name: answer } };
        },
      },
    },
  });
  cleanups.push(
    () => mcp.disconnect(),
    () => http.close(),
    () => server.close(),
  );
  return { server, http, mcp, asked, aborted, releases, methods, regionHeaders };
}

describe('MCPClient following tasks', () => {
  it("a tool's execute follows its task as the server pushes it: answers the input request once, reports the status as progress, checks the output", async () => {
    // Polling alone would wait ten minutes for its first look at the task.
    const { mcp, asked, methods } = await setup({ pollIntervalMs: 600_000 });
    const updates: MCPProgressUpdate[] = [];
    await mcp.progress.onUpdate('tasks', (update) => updates.push(update));
    const { tasks_greet } = await mcp.listTools();
    const result = await tasks_greet?.execute?.({}, {} as never);
    expect(result).toEqual({ greeting: 'hello Ada' });
    expect(asked).toEqual(['elicitation-1:Name?']);
    expect(updates.map((update) => update.message)).toEqual(expect.arrayContaining(['Name?', 'completed']));
    expect(new Set(updates.map((update) => update.progressToken)).size).toBe(1);
    // The progress the tool reported before it asked, carried by the task's state since.
    expect(updates.find((update) => update.message === 'Name?')).toMatchObject({ progress: 1 });
    expect(methods).toContain('subscriptions/listen');
    expect(methods).toContain('tasks/update');
    expect(methods).not.toContain('tasks/get');
  });

  it("the tool's progress and total reach progress.onUpdate as the server pushes the task's states", async () => {
    const { mcp } = await setup({ pollIntervalMs: 600_000 });
    const updates: MCPProgressUpdate[] = [];
    await mcp.progress.onUpdate('tasks', (update) => updates.push(update));
    const { tasks_measure } = await mcp.listTools();
    expect(await tasks_measure?.execute?.({}, {} as never)).toMatchObject({
      content: [{ type: 'text', text: 'measured' }],
    });
    const reported = updates.filter((update) => update.message?.startsWith('step'));
    expect(reported.at(-1)).toMatchObject({ progress: 3, total: 3, message: 'step 3' });
    for (const update of reported)
      expect(update).toMatchObject({ total: 3, message: `step ${update.progress}` });
  });

  it("refuses a task result that breaks the tool's output schema, as for a direct answer", async () => {
    const { mcp } = await setup();
    const { tasks_wrongOutput } = await mcp.listTools();
    const error = await rejectionOf(tasks_wrongOutput?.execute?.({}, {} as never) ?? Promise.resolve());
    expect(error).toMatchObject({ id: MCPErrorCode.CLIENT_TOOL_CALL_FAILED });
    expect(String((error as Error).message)).toContain(
      "Structured content does not match the tool's output schema",
    );
  });

  it('a JSON-RPC failure of the task rejects with the server error, and the abort signal cancels the task', async () => {
    const { mcp, aborted, releases } = await setup();
    const updates: MCPProgressUpdate[] = [];
    await mcp.progress.onUpdate('tasks', (update) => updates.push(update));
    const { tasks_crash, tasks_work } = await mcp.listTools();
    const crashed = await rejectionOf(tasks_crash?.execute?.({}, {} as never) ?? Promise.resolve());
    expect(crashed).toMatchObject({ id: MCPErrorCode.CLIENT_TOOL_CALL_FAILED });
    expect(String((crashed as Error).message)).toMatch(
      /MCP tool 'crash' on server 'tasks': task [\w-]+ failed: deliberate protocol failure \(JSON-RPC -32099\)/,
    );
    const abort = new AbortController();
    // The crashed task's statuses are reported already: the work task's come after them.
    const before = updates.length;
    const running =
      tasks_work?.execute?.({ label: 'x' }, { abortSignal: abort.signal } as never) ?? Promise.resolve();
    const outcome = rejectionOf(running);
    // The client holds the task (its first status was reported) before the call is aborted.
    await eventually('the task to be followed', () => releases.has('x') && updates.length > before);
    abort.abort(new Error('the agent stopped'));
    expect(await outcome).toMatchObject({ message: expect.stringContaining('the agent stopped') });
    await eventually('the server tool to see the cancel', () => aborted.includes('x'));
  });

  it('keeps following through reconnectServer()', async () => {
    const { mcp, releases } = await setup();
    const updates: MCPProgressUpdate[] = [];
    await mcp.progress.onUpdate('tasks', (update) => updates.push(update));
    const { tasks_work } = await mcp.listTools();
    const running = tasks_work?.execute?.({ label: 'r' }, {} as never);
    // The client holds the task (its first status was reported) before the connection is replaced.
    await eventually('the task to be followed', () => releases.has('r') && updates.length > 0);
    await mcp.reconnectServer('tasks');
    releases.get('r')?.();
    expect(await running).toMatchObject({ content: [{ type: 'text', text: 'done r' }] });
  });

  it('calls tools as before on a server without the extension', async () => {
    const { mcp, asked } = await setup({ tasks: false });
    const { tasks_greet } = await mcp.listTools();
    expect(await tasks_greet?.execute?.({}, {} as never)).toEqual({ greeting: 'hello Ada' });
    expect(asked).toHaveLength(1);
    expect(await rejectionOf(mcp.tasks.start('tasks', 'greet'))).toMatchObject({
      id: MCPErrorCode.CLIENT_TASKS_NOT_SUPPORTED,
      message: expect.stringContaining("MCP server 'tasks' does not offer the Tasks extension"),
    });
  });

  it('disconnect() ends a wait at once', async () => {
    const { mcp, releases } = await setup();
    const started = await mcp.tasks.start('tasks', 'work', { label: 'd' });
    const waiting = rejectionOf(mcp.tasks.wait('tasks', String(started.taskId)));
    await eventually('the tool to run', () => releases.has('d'));
    const before = Date.now();
    await mcp.disconnect();
    expect(await waiting).toMatchObject({ id: MCPErrorCode.CLIENT_DISCONNECTED });
    expect(Date.now() - before).toBeLessThan(2000);
    releases.get('d')?.();
  });
});

describe('MCPClient following tasks over stdio', () => {
  it('takes the states the server pushes on the listen subscription: the question answered, the completion seen', async () => {
    const mcp = new MCPClient({
      id: `tasks-stdio-${Math.random()}`,
      servers: {
        local: {
          command: process.execPath,
          args: ['--import', 'tsx', 'test/fixtures/tasks-stdio-server.ts'],
          inputRequests: async () => ({ action: 'accept', content: { go: true } }),
        },
      },
    });
    cleanups.push(() => mcp.disconnect());
    const statuses: string[] = [];
    await mcp.progress.onUpdate('local', (update) => statuses.push(String(update.message)));
    const { local_wait } = await mcp.listTools();
    // The server suggests polling every ten minutes: only its pushes can end this in time.
    expect(await local_wait?.execute?.({ ms: 50 }, {} as never)).toEqual({
      content: [{ type: 'text', text: 'waited 50 ms (go: true)' }],
    });
    expect(statuses).toEqual(expect.arrayContaining(['Go on?', 'completed']));
  });
});

describe('mcp.tasks', () => {
  it('starts a task, and another client answers, inspects and waits for it by id', async () => {
    const { mcp, http } = await setup();
    const started = await mcp.tasks.start('tasks', 'greet');
    expect(started).toMatchObject({ taskId: expect.any(String), task: { status: 'working' } });
    const taskId = String(started.taskId);
    await mcp.disconnect();

    const later = new MCPClient({ id: 'later', servers: { tasks: { url: http.mcpUrl } } });
    cleanups.push(() => later.disconnect());
    const asking = await eventually('the question', async () => {
      const task = await later.tasks.get('tasks', taskId);
      return task.status === 'input_required' && task;
    });
    const key = Object.keys(asking.inputRequests ?? {})[0] as string;
    await later.tasks.update('tasks', taskId, { [key]: { action: 'accept', content: { name: 'Grace' } } });
    const result = await later.tasks.wait('tasks', taskId);
    expect(result.structuredContent).toEqual({ greeting: 'hello Grace' });
    expect((await later.tasks.get('tasks', taskId)).status).toBe('completed');
  });

  it('start() sends the x-mcp-header parameters as Mcp-Param-* headers, as a tool call does', async () => {
    const { mcp, regionHeaders } = await setup();
    const started = await mcp.tasks.start('tasks', 'regional', { region: 'eu-west' });
    expect(regionHeaders).toEqual(['eu-west']);
    expect(await mcp.tasks.wait('tasks', String(started.taskId))).toMatchObject({
      content: [{ type: 'text', text: 'served eu-west' }],
    });
  });

  it('cancels, names unknown tasks, and returns a direct answer for a tool that is never a task', async () => {
    const { mcp, aborted } = await setup();
    const started = await mcp.tasks.start('tasks', 'work', { label: 'c' });
    await mcp.tasks.cancel('tasks', String(started.taskId));
    await eventually('the tool to see the cancel', () => aborted.includes('c'));
    expect(await rejectionOf(mcp.tasks.wait('tasks', String(started.taskId)))).toMatchObject({
      id: MCPErrorCode.CLIENT_TASK_CANCELLED,
    });
    expect(await rejectionOf(mcp.tasks.get('tasks', 'no-such-task'))).toMatchObject({
      id: MCPErrorCode.CLIENT_TASK_NOT_FOUND,
      message: expect.stringContaining(
        "MCP server 'tasks': task no-such-task is not known to the server any more",
      ),
    });
  });
});
