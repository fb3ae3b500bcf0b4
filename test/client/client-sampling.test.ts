/**
 * MCPClient answering servers that ask the application's model to generate (sampling), on both
 * eras: the SDK's own v2 `McpServer` over stdio (2025-11-25 through the SDK's shim and direct
 * requests; 2026-07-28 input requests) and over HTTP (2026-07-28), the SDK v1 server over
 * sessionful HTTP (2025), and a Tasks server whose task asks. Answered by a handler, by a Mastra
 * Agent and by a bare model (both mock models), behind the approval hook and the concurrency bound.
 */

import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type {
  CreateMessageRequestParams,
  MastraMCPServerDefinition,
  MCPClientSamplingOption,
} from '../../src/index.js';
import { answer, askingHarness, MODERN, toolsOf } from '../fixtures/asking-harness.js';
import { pidRecorder, run } from '../fixtures/client-harness.js';
import { createAskingServer } from '../fixtures/sdk-asking-server.js';
import { serveSdkTaskServer } from '../fixtures/sdk-task-server.js';
import { serveV1AskingServer } from '../fixtures/sdk-v1-asking-server.js';
import { rejectionOf } from '../support/results.js';
import { serveSdkOverHttp } from '../support/sdk-http.js';

const { client: clientWith, askingStdio, cleanups, children } = askingHarness('sampling');
const client = (servers: Record<string, MastraMCPServerDefinition>, sampling?: MCPClientSamplingOption) =>
  clientWith(servers, { sampling });

/** The v2 asking server behind `createMcpHandler` (2026-07-28 over HTTP). */
const askingHttp = () => serveSdkOverHttp(() => createAskingServer(), cleanups);

/** A mock model answering `text` with `finishReason`, keeping every call's options. */
function recordingModel(text: string, finishReason: 'stop' | 'length' = 'stop') {
  const calls: LanguageModelV2CallOptions[] = [];
  const model = new MockLanguageModelV2({
    modelId: 'mock-sampler',
    doGenerate: async (options) => {
      calls.push(options);
      return {
        rawCall: { rawPrompt: null, rawSettings: {} },
        finishReason,
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        content: [{ type: 'text', text }],
        warnings: [],
      };
    },
  });
  return { model, calls };
}

/** The text of a model call's messages by role (system messages as strings, others' text parts). */
function textsOf(call: LanguageModelV2CallOptions, role: string): string[] {
  return call.prompt
    .filter((message) => message.role === role)
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
    );
}

/** The MastraError ids along `error`'s cause chain. */
function idsOf(error: unknown): string[] {
  const ids: string[] = [];
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    const id = (current as { id?: unknown }).id;
    if (typeof id === 'string') ids.push(id);
  }
  return ids;
}

const eras = [
  { era: 'legacy', transport: 'stdio' },
  { era: MODERN, transport: 'stdio' },
  { era: MODERN, transport: 'http' },
] as const;

describe('sampling answered for the SDK McpServer', () => {
  it.each(eras)(
    'a handler answers ($era over $transport), told the server and the request',
    async ({ era, transport }) => {
      const seen: Array<{ request: CreateMessageRequestParams; serverName: string; aborted: boolean }> = [];
      const mcp = client(
        { asking: transport === 'http' ? { url: await askingHttp() } : askingStdio(era) },
        (request, { serverName, signal }) => {
          seen.push({ request, serverName, aborted: signal.aborted });
          return {
            model: 'handmade',
            role: 'assistant',
            content: { type: 'text', text: 'forty-two' },
            stopReason: 'endTurn',
          };
        },
      );
      const tools = await toolsOf(mcp, 'asking');
      expect(await answer(tools, 'ask', { prompt: 'The answer?', temperature: 0.2 })).toEqual({
        model: 'handmade',
        role: 'assistant',
        content: { type: 'text', text: 'forty-two' },
        stopReason: 'endTurn',
      });
      expect(seen).toEqual([
        {
          serverName: 'asking',
          aborted: false,
          request: expect.objectContaining({
            messages: [{ role: 'user', content: { type: 'text', text: 'The answer?' } }],
            maxTokens: 100,
            temperature: 0.2,
          }),
        },
      ]);
      // A prompt asks the same way.
      const prompt = await mcp.prompts.get({ serverName: 'asking', name: 'drafted', args: { topic: 'x' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'forty-two' } }]);
    },
  );

  it.each(eras)(
    'a Mastra Agent answers ($era over $transport): the request maps onto its call, its output back',
    async ({ era, transport }) => {
      const { model, calls } = recordingModel('Paris', 'length');
      const agent = new Agent({ id: 'sampler', name: 'Sampler', instructions: 'Keep it short.', model });
      const mcp = client(
        { asking: transport === 'http' ? { url: await askingHttp() } : askingStdio(era) },
        { agent, maxTokens: 64 },
      );
      const tools = await toolsOf(mcp, 'asking');
      const result = await answer(tools, 'ask', {
        prompt: 'Capital of France?',
        systemPrompt: 'You are a geographer.',
        maxTokens: 500,
        temperature: 0.3,
        stopSequences: ['END'],
      });
      expect(result).toEqual({
        model: 'mock-sampler',
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
        stopReason: 'maxTokens',
      });
      expect(calls).toHaveLength(1);
      const [call] = calls as [LanguageModelV2CallOptions];
      // The agent's instructions stay; the server's system prompt is added beside them.
      expect(textsOf(call, 'system')).toEqual(['Keep it short.', 'You are a geographer.']);
      expect(textsOf(call, 'user')).toEqual(['Capital of France?']);
      // maxTokens within the configured cap, the settings as asked, and none of the agent's tools.
      expect(call).toMatchObject({ maxOutputTokens: 64, temperature: 0.3, stopSequences: ['END'] });
      expect(call.toolChoice).toEqual({ type: 'none' });
    },
  );

  it('a bare model answers within the default cap (4096 tokens), a natural stop read as endTurn', async () => {
    const { model, calls } = recordingModel('done');
    const mcp = client({ asking: askingStdio(MODERN) }, model);
    const tools = await toolsOf(mcp, 'asking');
    const result = await answer(tools, 'ask', { prompt: 'Go', maxTokens: 100_000 });
    expect(result).toMatchObject({ model: 'mock-sampler', stopReason: 'endTurn', content: { text: 'done' } });
    expect(calls[0]?.maxOutputTokens).toBe(4096);
    expect(textsOf(calls[0] as LanguageModelV2CallOptions, 'system')).toEqual([]);
  });

  it('one tool call asking for sampling and roots at once gets both (2026-07-28 and the 2025 shim)', async () => {
    for (const era of ['legacy', MODERN] as const) {
      const mcp = client(
        { asking: askingStdio(era, { roots: [{ uri: 'file:///srv/data', name: 'data' }] }) },
        () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: `from ${era}` } }),
      );
      const tools = await toolsOf(mcp, 'asking');
      expect(await answer(tools, 'ask_and_roots', { prompt: 'both' })).toEqual({
        sampled: { model: 'm', role: 'assistant', content: { type: 'text', text: `from ${era}` } },
        roots: [{ uri: 'file:///srv/data', name: 'data' }],
      });
    }
  });
});

describe('the approval hook', () => {
  it('2025: a denied request reaches the server as -1 "User rejected sampling request"; an allowed one is answered', async () => {
    const asked: string[] = [];
    const mcp = client(
      { asking: askingStdio('legacy') },
      {
        handler: () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'ok' } }),
        onRequest: (request, { serverName }) => {
          const content = request.messages[0]?.content as { text: string };
          asked.push(`${serverName}:${content.text}`);
          return content.text === 'allowed' ? 'allow' : 'deny';
        },
      },
    );
    const tools = await toolsOf(mcp, 'asking');
    expect(await answer(tools, 'ask_direct', { prompt: 'denied' })).toEqual({
      error: { code: -1, message: 'User rejected sampling request' },
    });
    expect(await answer(tools, 'ask_direct', { prompt: 'allowed' })).toMatchObject({
      content: { text: 'ok' },
    });
    expect(asked).toEqual(['asking:denied', 'asking:allowed']);
  });

  it('the SDK v1 server (2025, sessionful HTTP) sees the denial as -1; `false` denies too, `true` allows', async () => {
    const v1 = await serveV1AskingServer();
    cleanups.push(() => v1.close());
    let allow = false;
    const mcp = client(
      { v1: { url: v1.url } },
      {
        handler: () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'yes' } }),
        onRequest: () => allow,
      },
    );
    const tools = await toolsOf(mcp, 'v1');
    expect(await answer(tools, 'ask', { prompt: 'q' })).toEqual({
      error: { code: -1, message: 'MCP error -1: User rejected sampling request' },
    });
    allow = true;
    expect(await answer(tools, 'ask', { prompt: 'q' })).toMatchObject({
      model: 'm',
      content: { text: 'yes' },
    });
  });

  it('2026-07-28: a denial ends the call with MCP_CLIENT_SAMPLING_DENIED naming the server (no error channel exists there)', async () => {
    const mcp = client(
      { asking: askingStdio(MODERN) },
      {
        handler: () => {
          throw new Error('never asked');
        },
        onRequest: () => 'deny',
      },
    );
    const tools = await toolsOf(mcp, 'asking');
    const error = await rejectionOf(run(tools.ask, { prompt: 'q' }));
    expect(idsOf(error)).toEqual(['MCP_CLIENT_TOOL_CALL_FAILED', 'MCP_CLIENT_SAMPLING_DENIED']);
    expect((error as Error).message).toContain(
      "MCP server 'asking': its sampling request was denied by the sampling onRequest hook",
    );
  });

  it('a failing handler: the 2025 server gets -32603 naming the server, the client lives on', async () => {
    let fail = true;
    const mcp = client({ asking: askingStdio('legacy') }, () => {
      if (fail) throw new Error('model unavailable');
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'back' } };
    });
    const tools = await toolsOf(mcp, 'asking');
    const failed = await answer(tools, 'ask_direct', { prompt: 'q' });
    expect(failed.error.code).toBe(-32603);
    expect(failed.error.message).toContain(
      "MCP server 'asking': the sampling handler failed: model unavailable",
    );
    fail = false;
    expect(await answer(tools, 'ask_direct', { prompt: 'q' })).toMatchObject({ content: { text: 'back' } });
  });
});

describe('no hang', () => {
  /** A handler that answers only when its signal aborts (it then rejects with the reason), telling when it started. */
  function waitingHandler() {
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const aborted: unknown[] = [];
    const handler: MCPClientSamplingOption = (_request, { signal }) =>
      new Promise((_resolve, reject) => {
        started();
        signal.addEventListener('abort', () => {
          aborted.push(signal.reason);
          reject(signal.reason);
        });
      });
    return { handler, running, aborted };
  }

  it("2026-07-28: aborting the call that asked aborts the handler's signal, and the call ends", async () => {
    const { handler, running, aborted } = waitingHandler();
    const mcp = client({ asking: askingStdio(MODERN) }, handler);
    const tools = await toolsOf(mcp, 'asking');
    const abort = new AbortController();
    const call = tools.ask?.execute?.({ prompt: 'q' }, {
      abortSignal: abort.signal,
    } as never) as Promise<unknown>;
    const outcome = rejectionOf(call);
    await running;
    abort.abort(new Error('the agent stopped'));
    expect(String(((await outcome) as Error)?.message)).toContain('the agent stopped');
    expect(aborted).toHaveLength(1);
  });

  it('2025: disconnect() aborts a handler still answering, and returns', async () => {
    const { handler, running, aborted } = waitingHandler();
    const mcp = client({ asking: askingStdio('legacy') }, handler);
    const tools = await toolsOf(mcp, 'asking');
    const call = rejectionOf(run(tools.ask_direct, { prompt: 'q' }));
    await running;
    await mcp.disconnect();
    expect(aborted).toEqual([expect.objectContaining({ id: 'MCP_CLIENT_DISCONNECTED' })]);
    expect(await call).toMatchObject({ id: 'MCP_CLIENT_TOOL_CALL_FAILED' });
  });
});

describe('the sampling bound (maxConcurrent)', () => {
  it('a flood of 50 concurrent requests: maxConcurrent reach the handler, the rest are refused naming the option', async () => {
    let running = 0;
    let peak = 0;
    let refusals = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const recorder = pidRecorder(children);
    const mcp = client(
      {
        asking: askingStdio('legacy', {
          logger: (entry) => {
            recorder.logger(entry);
            if (entry.message.includes('sampling.maxConcurrent') && ++refusals === 47) release();
          },
        }),
      },
      {
        maxConcurrent: 3,
        handler: async () => {
          running++;
          peak = Math.max(peak, running);
          // Held until every request past the bound was refused.
          await released;
          running--;
          return { model: 'm', role: 'assistant', content: { type: 'text', text: 'ok' } };
        },
      },
    );
    const tools = await toolsOf(mcp, 'asking');
    const flood = await answer(tools, 'ask_many', { count: 50 });
    expect(peak).toBe(3);
    expect(flood.answered).toBe(3);
    expect(flood.refused).toHaveLength(47);
    expect(flood.refused[0]).toContain(
      "MCP server 'asking' asked for more than 3 sampling answers at once; this one was refused (sampling.maxConcurrent)",
    );
    // Nothing is left held: the next request is answered.
    expect(await answer(tools, 'ask_direct', { prompt: 'after' })).toMatchObject({ content: { text: 'ok' } });
  });
});

describe('sampling inside a task (Tasks extension)', () => {
  it("a task's sampling and roots input requests are answered through tasks/update", async () => {
    const server = await serveSdkTaskServer();
    cleanups.push(() => server.close());
    const mcp = client(
      { sdk: { url: server.url, roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] } },
      () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'Ravi' } }),
    );
    const { sdk_report } = await mcp.listTools();
    expect(await sdk_report?.execute?.({ ms: 20, draft: true }, {} as never)).toEqual({
      pages: 2,
      by: 'Ravi',
    });
  });

  it('a denied sampling request cancels the task and ends the call with the denial', async () => {
    const server = await serveSdkTaskServer();
    cleanups.push(() => server.close());
    const mcp = client(
      { sdk: { url: server.url, roots: [] } },
      {
        handler: () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'x' } }),
        onRequest: () => 'deny',
      },
    );
    const { sdk_report } = await mcp.listTools();
    const error = await rejectionOf(
      sdk_report?.execute?.({ ms: 20, draft: true }, {} as never) as Promise<unknown>,
    );
    expect(idsOf(error)).toContain('MCP_CLIENT_SAMPLING_DENIED');
    expect([...server.tasks.values()].map((task) => task.status)).toEqual(['cancelled']);
  });
});
