/**
 * What a tool or prompt asks its caller through `context.mcp` (elicitation, sampling, roots) over
 * real transports, answered by the SDK's own clients: on 2025-11-25 real requests on the caller's
 * session (v1 client over Streamable HTTP and stdio, v2 client over SSE), on 2026-07-28
 * `input_required` rounds (v2 client over HTTP and stdio, raw requests for the round's shape):
 * several questions in one round under the tool's keys, partial answers asked again, a key used
 * twice refused, -32021 (HTTP 400) for an undeclared capability of each kind, -32602 for bad
 * answers, the serverless refusal, a task that samples, a prompt that asks on both eras, and the
 * suspended-call bound holding prompts too.
 */
import type { Client } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPServer, type MCPServerConfig } from '../../src/index.js';
import { inputConfig } from '../fixtures/input-tools.js';
import { TASKS_DECLARED } from '../fixtures/task-tools.js';
import {
  connectHttp,
  connectSse,
  connectStdio,
  type HttpHarness,
  modernEnvelope,
  modernRequest,
  newClient,
  rawStdioChild,
  replyOf,
  serveHttp,
} from '../helpers.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const ROOTS = [{ uri: 'file:///work/project', name: 'project' }];
const ALL = { elicitation: {}, sampling: {}, roots: {} };
const sampled = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});

async function serve(overrides: Partial<MCPServerConfig> = {}, options?: { serverless: boolean }) {
  const server = new MCPServer(inputConfig(overrides));
  const http = await serveHttp(server, options ? { options } : {});
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  return { server, http };
}

interface Reply {
  result?: Record<string, unknown> & {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

let nextId = 0;
/** One raw 2026-07-28 request; its HTTP status and JSON-RPC reply. */
async function rpc(
  http: HttpHarness,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
) {
  const response = await fetch(http.mcpUrl, modernRequest(method, params, { id: ++nextId, capabilities }));
  return { status: response.status, ...(await replyOf<Reply>(response)) };
}

/** The text of a sampling request's first message. */
function firstText(messages: Array<{ content: unknown }>): string {
  const content = messages[0]?.content as { type?: string; text?: string } | undefined;
  return content?.type === 'text' ? String(content.text) : '?';
}

/** The v2 client's answers: a sampled text naming the prompt, the roots, and `Ada` for a name. */
function answering(client: Client): { sampledPrompts: string[] } {
  const sampledPrompts: string[] = [];
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const text = firstText(request.params.messages);
    sampledPrompts.push(text);
    return sampled(`hello (${text})`) as never;
  });
  client.setRequestHandler('roots/list', async () => ({ roots: ROOTS }));
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: 'Ada' },
  }));
  return { sampledPrompts };
}

/** The SDK v1 client, declaring and answering all three kinds. */
function v1Client(): { client: ClientV1; sampledPrompts: string[] } {
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: ALL });
  const sampledPrompts: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const text = firstText(request.params.messages);
    sampledPrompts.push(text);
    return sampled(`hello (${text})`) as never;
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: ROOTS }));
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({
    action: 'accept',
    content: request.params.message === 'Which topic?' ? { topic: 'tides' } : { name: 'Bo' },
  }));
  cleanups.push(() => client.close());
  return { client, sampledPrompts };
}

const call = async (client: Pick<Client, 'callTool'>, name: string, args: Record<string, unknown> = {}) =>
  textOf(await client.callTool({ name, arguments: args }));

describe('sampling and roots from tools, 2025-11-25: requests on the caller session', () => {
  it('the SDK v1 client over Streamable HTTP answers them; the tool gets its answers', async () => {
    const { http } = await serve();
    const { client, sampledPrompts } = v1Client();
    await client.connect(new HttpTransportV1(http.mcpUrl));
    expect(await call(client as never, 'sample', { prompt: 'Why?' })).toBe('test-model said: hello (Why?)');
    expect(sampledPrompts).toEqual(['Why?']);
    expect(await call(client as never, 'roots')).toBe('roots: file:///work/project');
    expect(await call(client as never, 'everything')).toBe('hello (Greet) Bo in file:///work/project');
  });

  it('the SDK v1 client over stdio answers them', async () => {
    const { client } = v1Client();
    await client.connect(
      new StdioTransportV1({
        command: process.execPath,
        args: ['--import', 'tsx', 'test/fixtures/input-stdio-server.ts'],
        stderr: 'pipe',
      }),
    );
    expect(await call(client as never, 'sample', { prompt: 'stdio?' })).toBe(
      'test-model said: hello (stdio?)',
    );
    expect(await call(client as never, 'roots')).toBe('roots: file:///work/project');
  });

  it('the SDK v2 client over legacy SSE answers them; a key used twice is refused there too', async () => {
    const { http } = await serve();
    const client = newClient('legacy', { sampling: {}, roots: {} });
    answering(client);
    await connectSse(new URL(`${http.base}/sse`), client);
    cleanups.push(() => client.close());
    expect(await call(client, 'sample', { prompt: 'sse?' })).toBe('test-model said: hello (sse?)');
    expect(await call(client, 'roots')).toBe('roots: file:///work/project');
    expect(await call(client, 'twice')).toMatch(
      /^first=Ada second=MCP_SERVER_INVALID_INPUT_KEY: Tool 'twice': the input request key 'same' was already used in this call/,
    );
  });

  it('a session that did not declare sampling gets -32021 naming it instead of a request it cannot answer', async () => {
    const { http } = await serve();
    // Had the server sent sampling/createMessage, this client would have answered -32601.
    const client = await connectHttp(http.mcpUrl, 'legacy');
    cleanups.push(() => client.close());
    const refused = client.callTool({ name: 'sample', arguments: { prompt: 'x' } });
    await expect(refused).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    await expect(refused).rejects.toThrow(/tool 'sample' asked for input; declare sampling/);
  });
});

describe('sampling and roots from tools, 2026-07-28: input_required rounds', () => {
  it.each(['http', 'stdio'] as const)('the SDK v2 client answers them over %s', async (transport) => {
    const client = newClient('modern', { sampling: {}, roots: {} });
    const { sampledPrompts } = answering(client);
    if (transport === 'http') await connectHttp((await serve()).http.mcpUrl, 'modern', client);
    else await connectStdio('modern', client, 'test/fixtures/input-stdio-server.ts');
    cleanups.push(() => client.close());
    expect(await call(client, 'sample', { prompt: 'Why?' })).toBe('test-model said: hello (Why?)');
    expect(await call(client, 'roots')).toBe('roots: file:///work/project');
    expect(await call(client, 'everything')).toBe('hello (Greet) Ada in file:///work/project');
    expect(sampledPrompts).toEqual(['Why?', 'Greet']);
  });

  it('asks several at once under the tool keys, asks again what a retry left out, and completes', async () => {
    const { http, server } = await serve();
    const first = await rpc(http, 'tools/call', { name: 'everything', arguments: {} }, ALL);
    expect(first.result?.resultType).toBe('input_required');
    expect(first.result?.inputRequests).toEqual({
      name: { method: 'elicitation/create', params: expect.objectContaining({ message: 'Your name?' }) },
      greeting: { method: 'sampling/createMessage', params: expect.objectContaining({ maxTokens: 20 }) },
      where: { method: 'roots/list' },
    });

    const partial = await rpc(
      http,
      'tools/call',
      {
        name: 'everything',
        arguments: {},
        requestState: first.result?.requestState,
        inputResponses: { name: { action: 'accept', content: { name: 'Cy' } }, where: { roots: ROOTS } },
      },
      ALL,
    );
    expect(Object.keys(partial.result?.inputRequests ?? {})).toEqual(['greeting']);
    expect(partial.result?.requestState).not.toBe(first.result?.requestState);

    // Each state is served once: the first one no longer resumes the call.
    const replayed = await rpc(
      http,
      'tools/call',
      { name: 'everything', arguments: {}, requestState: first.result?.requestState, inputResponses: {} },
      ALL,
    );
    expect(replayed.error).toMatchObject({ code: -32602 });
    expect(replayed.error?.message).toMatch(/not waiting any more/);

    const done = await rpc(
      http,
      'tools/call',
      {
        name: 'everything',
        arguments: {},
        requestState: partial.result?.requestState,
        inputResponses: { greeting: sampled('Hi') },
      },
      ALL,
    );
    expect(textOf(done.result)).toBe('Hi Cy in file:///work/project');
    expect((server as unknown as { suspended: { size: number } }).suspended.size).toBe(0);
  });

  it.each([
    ['sample', { prompt: 'x' }, { elicitation: {}, roots: {} }, { sampling: {} }],
    ['roots', {}, { elicitation: {}, sampling: {} }, { roots: {} }],
    ['everything', {}, { sampling: {}, roots: {} }, { elicitation: { form: {} } }],
  ] as const)(
    '%s, undeclared capability: -32021 naming it, with HTTP 400',
    async (name, args, capabilities, required) => {
      const { http, server } = await serve();
      const reply = await rpc(http, 'tools/call', { name, arguments: args }, capabilities);
      expect(reply.status).toBe(400);
      expect(reply.error).toMatchObject({ code: -32021, data: { requiredCapabilities: required } });
      expect(reply.error?.message).toContain(
        `tool '${name}' asked for input; declare ${Object.keys(required)[0]}`,
      );
      expect((server as unknown as { suspended: { size: number } }).suspended.size).toBe(0);
    },
  );

  it.each([
    ['sample', { prompt: 'x' }, 'sampling-1', { text: 'not a sampling result' }, /is not a sampling result/],
    ['roots', {}, 'roots-1', { roots: [{ name: 'no uri' }] }, /is not a roots list.*roots\.0\.uri/],
  ] as const)(
    '%s: a bad answer is -32602 naming tool and key, and the state stays good',
    async (name, args, key, bad, why) => {
      const { http } = await serve();
      const first = await rpc(http, 'tools/call', { name, arguments: args }, ALL);
      expect(Object.keys(first.result?.inputRequests ?? {})).toEqual([key]);
      const retry = (answer: unknown) =>
        rpc(
          http,
          'tools/call',
          {
            name,
            arguments: args,
            requestState: first.result?.requestState,
            inputResponses: { [key]: answer },
          },
          ALL,
        );
      const refused = await retry(bad);
      expect(refused.error?.code).toBe(-32602);
      expect(refused.error?.message).toMatch(new RegExp(`^Tool '${name}': inputResponses\\.${key} `));
      expect(refused.error?.message).toMatch(why);
      const done = await retry(name === 'sample' ? sampled('fine') : { roots: ROOTS });
      expect(textOf(done.result)).toBe(
        name === 'sample' ? 'test-model said: fine' : 'roots: file:///work/project',
      );
    },
  );

  it('serverless: the question fails naming what is unavailable and why', async () => {
    const { http } = await serve({}, { serverless: true });
    const client = newClient('modern', { sampling: {}, roots: {} });
    answering(client);
    await connectHttp(http.mcpUrl, 'modern', client);
    cleanups.push(() => client.close());
    const sample = await client.callTool({ name: 'sample', arguments: { prompt: 'x' } });
    expect(sample.isError).toBe(true);
    expect(textOf(sample)).toContain('sampling needs a stateful session and is not available in serverless');
    expect(textOf(await client.callTool({ name: 'roots', arguments: {} }))).toContain(
      'listing roots needs a stateful session',
    );
  });
});

describe('a task asks sampling through its input requests', () => {
  it('tasks/get shows the sampling request, tasks/update answers it; undeclared sampling fails the task with -32021', async () => {
    const { http } = await serve({ tasks: { tools: { sample: 'optional' }, pollIntervalMs: 50 } });
    const started = async (capabilities: Record<string, unknown>) =>
      String(
        (await rpc(http, 'tools/call', { name: 'sample', arguments: { prompt: 'Tide?' } }, capabilities))
          .result?.taskId,
      );
    const state = (taskId: string, until: (task: Record<string, unknown>) => boolean) =>
      eventually(`task ${taskId}`, async () => {
        const task = (await rpc(http, 'tasks/get', { taskId }, TASKS_DECLARED)).result;
        return task && until(task) ? task : undefined;
      });

    const taskId = await started({ ...TASKS_DECLARED, sampling: {} });
    const asking = await state(taskId, (task) => task.status === 'input_required');
    expect(asking.inputRequests).toEqual({
      'sampling-1': { method: 'sampling/createMessage', params: expect.objectContaining({ maxTokens: 50 }) },
    });
    await rpc(
      http,
      'tasks/update',
      { taskId, inputResponses: { 'sampling-1': sampled('high') } },
      TASKS_DECLARED,
    );
    const done = await state(taskId, (task) => task.status === 'completed');
    expect(textOf(done.result)).toBe('test-model said: high');

    const refused = await started(TASKS_DECLARED);
    expect(await state(refused, (task) => task.status === 'failed')).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    });
  });
});

describe('a prompt that asks for input', () => {
  it('2026-07-28: prompts/get answers input_required, and the retry gets the messages', async () => {
    const { http } = await serve();
    const first = await rpc(http, 'prompts/get', { name: 'briefing' }, ALL);
    expect(first.result?.inputRequests).toEqual({
      topic: { method: 'elicitation/create', params: expect.objectContaining({ message: 'Which topic?' }) },
    });
    const done = await rpc(
      http,
      'prompts/get',
      {
        name: 'briefing',
        requestState: first.result?.requestState,
        inputResponses: { topic: { action: 'accept', content: { topic: 'tides' } } },
      },
      ALL,
    );
    expect(done.result?.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Brief me on tides.' } },
    ]);
    // A prompt's state does not resume a tool call of the same name, nor the other way round.
    const again = await rpc(http, 'prompts/get', { name: 'briefing' }, ALL);
    const crossed = await rpc(
      http,
      'tools/call',
      { name: 'briefing', arguments: {}, requestState: again.result?.requestState, inputResponses: {} },
      ALL,
    );
    expect(crossed.error?.code).toBe(-32602);
  });

  it('2025-11-25: the SDK v1 client gets elicitation/create on its session', async () => {
    const { http } = await serve();
    const { client } = v1Client();
    await client.connect(new HttpTransportV1(http.mcpUrl));
    expect((await client.getPrompt({ name: 'briefing' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Brief me on tides.' } },
    ]);
  });

  it('suspended prompts are bounded by limits.maxSuspendedCalls', async () => {
    const { http } = await serve({ limits: { maxSuspendedCalls: 1 } });
    expect((await rpc(http, 'prompts/get', { name: 'briefing' }, ALL)).result?.resultType).toBe(
      'input_required',
    );
    const refused = await rpc(http, 'prompts/get', { name: 'briefing' }, ALL);
    expect(refused.error).toMatchObject({
      code: -32000,
      data: { prompt: 'briefing', limit: 'maxSuspendedCalls' },
    });
    expect(refused.error?.message).toMatch(
      /^Prompt 'briefing' cannot wait for input: 1 calls are already waiting/,
    );
  });
});

describe('a suspended run over stdio, on its request signal', () => {
  it('is not aborted by a cancel of its first request once that was answered (the SDK forgot it)', async () => {
    const stops: Array<() => Promise<unknown>> = [];
    cleanups.push(() => Promise.all(stops.map((stop) => stop())));
    const { send, reply } = rawStdioChild(stops, 'test/fixtures/signal-stdio-server.ts');
    const _meta = modernEnvelope({ elicitation: { form: {} } });
    send({ id: 1, method: 'tools/call', params: { name: 'askThenSignal', arguments: {}, _meta } });
    const parked = await reply<{
      result: { resultType: string; inputRequests?: Record<string, unknown>; requestState: string };
    }>(1);
    expect(parked.result.resultType).toBe('input_required');
    const key = Object.keys(parked.result.inputRequests ?? {})[0] as string;
    send({ method: 'notifications/cancelled', params: { requestId: 1, _meta } });
    send({
      id: 2,
      method: 'tools/call',
      params: {
        name: 'askThenSignal',
        arguments: {},
        requestState: parked.result.requestState,
        inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
        _meta,
      },
    });
    const done = await reply<{ result: { content: unknown[] } }>(2);
    expect(done.result.content).toEqual([{ type: 'text', text: 'Ada aborted=false' }]);
  }, 60_000);
});
