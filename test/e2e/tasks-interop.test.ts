/**
 * Tasks (SEP-2663) with code we did not write: MCPServer driven by the requester of
 * `@modelcontextprotocol/ext-tasks` (its session polls, answers input requests and cancels), an SDK
 * client listening for pushed task states with an ext-tasks filter, and MCPClient following tasks of a server built only with the SDK's `Server` and ext-tasks' schemas.
 */
import { createTool } from '@mastra/core/tools';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import { contributeTaskFilterV2, isTaskStatusNotificationV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPServer } from '../../src/index.js';
import { serveSdkTaskServer } from '../fixtures/sdk-task-server.js';
import { releasableWork } from '../fixtures/task-tools.js';
import { modernEnvelope, modernRequest, replyOf, serveHttp } from '../helpers.js';
import { eventually } from '../support/wait.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('MCPServer driven by the ext-tasks requester', () => {
  it('settles a task that asks for input, and cancels another', async () => {
    const aborted: string[] = [];
    const started: string[] = [];
    const ask = createTool({
      id: 'ask',
      description: 'Asks a name, then greets',
      inputSchema: z.object({}),
      execute: async (_input, context) => {
        const answer = await context?.mcp?.elicitation.sendRequest({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        return `hello ${String(answer?.content?.name)}`;
      },
    });
    const hang = createTool({
      id: 'hang',
      description: 'Runs until cancelled',
      inputSchema: z.object({}),
      execute: async (_input, context) =>
        new Promise((_resolve, reject) => {
          started.push('hang');
          const signal = context?.mcp?.extra.signal;
          signal?.addEventListener('abort', () => {
            aborted.push('hang');
            reject(signal.reason);
          });
        }),
    });
    const server = new MCPServer({
      name: 'interop',
      version: '1.0.0',
      tools: { ask, hang },
      tasks: { tools: { ask: 'required', hang: 'optional' }, pollIntervalMs: 30 },
    });
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const client = new Client(
      { name: 'ext-tasks-requester', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} }, ...TASKS } as never,
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(http.mcpUrl));
    cleanups.push(() => client.close());
    // The package's V2 path needs the host to send its requests: a plain POST with a JSON-RPC id
    // and the routing headers.
    let nextId = 0;
    const rawDispatch = async (request: unknown, options?: { signal?: AbortSignal }) => {
      const message = request as { method: string; params?: { name?: string; taskId?: string } };
      const target = message.params?.name ?? message.params?.taskId;
      const response = await fetch(http.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': message.method,
          ...(target ? { 'mcp-name': target } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, ...(request as object) }),
        ...(options?.signal ? { signal: options.signal } : {}),
      });
      const reply = await replyOf<{ result?: unknown; error?: { code: number; message: string } }>(response);
      return reply.error
        ? ({ kind: 'error', error: reply.error } as const)
        : ({ kind: 'result', result: reply.result } as never);
    };
    const envelope = modernEnvelope(TASKS);
    const session = createTaskSessionFromClient(client, {
      endpointId: 'interop',
      rawDispatch: rawDispatch as never,
      v2RequestFraming: {
        protocolVersion: '2026-07-28',
        clientInfo: envelope['io.modelcontextprotocol/clientInfo'] as never,
        clientCapabilities: { elicitation: { form: {} }, ...TASKS },
      },
      onInputRequest: createApplicationInputHandler({
        elicitation: async () => ({ action: 'accept', content: { name: 'Lin' } }),
        sampling: async () => {
          throw new Error('no sampling here');
        },
        roots: async () => ({ roots: [] }),
      }),
    });
    cleanups.push(() => session.close());

    const asked = await session.callTool('ask', {});
    const { outcome } = await asked.settle();
    expect(outcome.status).toBe('completed');
    expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [{ type: 'text', text: 'hello Lin' }] });

    const hanging = await session.callTool('hang', {});
    await eventually('the hanging tool to start', () => started.includes('hang'));
    await hanging.cancel();
    const cancelled = await hanging.settle();
    expect(cancelled.outcome.status).toBe('cancelled');
    expect(aborted).toEqual(['hang']);
  });
});

describe('MCPServer pushing task states to an SDK client listening with an ext-tasks filter', () => {
  it('sends notifications/tasks that ext-tasks accepts, ending with the completed result', async () => {
    const { work, releases } = releasableWork();
    const server = new MCPServer({
      name: 'interop-push',
      version: '1.0.0',
      tools: { work },
      tasks: { tools: { work: 'required' }, pollIntervalMs: 60_000 },
    });
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const created = await replyOf<{ result: { taskId: string } }>(
      await fetch(
        http.mcpUrl,
        modernRequest(
          'tools/call',
          { name: 'work', arguments: { label: 'pushed' } },
          { capabilities: TASKS },
        ),
      ),
    );
    const { taskId } = created.result;
    const client = new Client(
      { name: 'listener', version: '1.0.0' },
      { capabilities: TASKS as never, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(http.mcpUrl));
    cleanups.push(() => client.close());
    const pushed: unknown[] = [];
    client.setNotificationHandler('notifications/tasks', { params: z.looseObject({}) }, (params) => {
      pushed.push({ jsonrpc: '2.0', method: 'notifications/tasks', params });
    });
    const filter = contributeTaskFilterV2({ notifications: {} }, [taskId]);
    const subscription = await client.listen(filter.notifications as never);
    cleanups.push(() => subscription.close());
    await eventually('the task’s state at once', () => pushed.length > 0);
    releases.get('pushed')?.();
    const done = await eventually('the completed task', () =>
      pushed.find((message) => (message as { params: { status: string } }).params.status === 'completed'),
    );
    expect(pushed.every((message) => isTaskStatusNotificationV2(message))).toBe(true);
    expect(done).toMatchObject({
      params: { taskId, result: { content: [{ type: 'text', text: 'done pushed' }] } },
    });
  });
});

describe('MCPClient following tasks of a server built with the SDK and ext-tasks alone', () => {
  it("a tool's execute follows the task, answers its question and checks the structured output", async () => {
    const server = await serveSdkTaskServer();
    cleanups.push(() => server.close());
    const mcp = new MCPClient({
      id: 'sdk-tasks',
      servers: {
        sdk: {
          url: server.url,
          inputRequests: async () => ({ action: 'accept', content: { name: 'Ravi' } }),
        },
      },
    });
    cleanups.push(() => mcp.disconnect());
    const statuses: string[] = [];
    await mcp.progress.onUpdate('sdk', (update) => statuses.push(String(update.message)));
    const { sdk_report } = await mcp.listTools();
    expect(await sdk_report?.execute?.({ ms: 30 }, {} as never)).toEqual({ pages: 3, by: 'Ravi' });
    expect(statuses).toEqual(expect.arrayContaining(['Who signs it?', 'Done']));
    const [task] = [...server.tasks.values()];
    expect(task?.status).toBe('completed');

    const started = await mcp.tasks.start('sdk', 'report', { ms: 1000 });
    await mcp.tasks.cancel('sdk', String(started.taskId));
    expect((await mcp.tasks.get('sdk', String(started.taskId))).status).toBe('cancelled');
  });
});
