/**
 * Both halves of asking together, over real transports and both eras: MCPServer's tools and prompt
 * (test/fixtures/input-tools.ts) ask through `context.mcp`, and MCPClient answers: sampling by a
 * Mastra Agent on a mock model, roots from its `roots` option (then `mcp.roots.set()`), elicitation
 * by `inputRequests`. On 2025-11-25 the server sends real requests on the session; on 2026-07-28
 * they travel inside `input_required` results and MCPClient's retry resumes the call.
 */
import path from 'node:path';
import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { type MastraMCPServerDefinition, MCPServer } from '../../src/index.js';
import { askingHarness, MODERN, toolsOf } from '../fixtures/asking-harness.js';
import { pidRecorder, run } from '../fixtures/client-harness.js';
import { inputConfig } from '../fixtures/input-tools.js';
import { serveHttp } from '../helpers.js';
import { rejectionOf, textOf } from '../support/results.js';

const { client, cleanups, children } = askingHarness('asking-e2e');

const FIRST = [{ uri: 'file:///work/first', name: 'first' }];
const SECOND = [{ uri: 'file:///work/second', name: 'second' }, { uri: 'file:///work/third' }];

/** A Mastra Agent whose mock model answers "agent: <the last user text>" and records each call. */
function samplingAgent() {
  const calls: LanguageModelV2CallOptions[] = [];
  const model = new MockLanguageModelV2({
    modelId: 'mock-writer',
    doGenerate: async (options) => {
      calls.push(options);
      const user = options.prompt.filter((message) => message.role === 'user').at(-1);
      const text = user?.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
      return {
        rawCall: { rawPrompt: null, rawSettings: {} },
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
        content: [{ type: 'text', text: `agent: ${text}` }],
        warnings: [],
      };
    },
  });
  const agent = new Agent({ id: 'writer', name: 'Writer', instructions: 'Answer briefly.', model });
  return { agent, calls };
}

type Transport = 'http' | 'stdio';
type Version = typeof MODERN | 'legacy';

/** The asking MCPServer over `transport`, as a server definition pinned to `protocolVersion`. */
async function askingServer(
  transport: Transport,
  protocolVersion: Version,
): Promise<MastraMCPServerDefinition> {
  if (transport === 'stdio')
    return {
      command: process.execPath,
      args: ['--import', 'tsx', path.join(import.meta.dirname, '../fixtures/input-stdio-server.ts')],
      protocolVersion,
      logger: pidRecorder(children).logger,
    } as MastraMCPServerDefinition;
  const server = new MCPServer(inputConfig());
  const http = await serveHttp(server);
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  return { url: http.mcpUrl, protocolVersion } as MastraMCPServerDefinition;
}

const CASES: Array<[Transport, Version]> = [
  ['http', MODERN],
  ['http', 'legacy'],
  ['stdio', MODERN],
  ['stdio', 'legacy'],
];

describe.each(CASES)('MCPServer asks MCPClient over %s at %s', (transport, protocolVersion) => {
  it("a tool samples through the client's Agent, and the agent's model sees the server's request", async () => {
    const { agent, calls } = samplingAgent();
    const mcp = client({ asking: await askingServer(transport, protocolVersion) }, { sampling: agent });
    const tools = await toolsOf(mcp, 'asking');

    const result = await run(tools.sample, { prompt: 'Why is the sky blue?' });
    expect(textOf(result)).toBe('mock-writer said: agent: Why is the sky blue?');
    expect(calls).toHaveLength(1);
    // The agent keeps its own instructions; the server's maxTokens (50) caps the model call.
    expect(JSON.stringify(calls[0]?.prompt)).toContain('Answer briefly.');
    expect(calls[0]?.maxOutputTokens).toBe(50);
  });

  it('a tool lists the roots, and lists the new ones after mcp.roots.set() on the same connection', async () => {
    const mcp = client({ asking: await askingServer(transport, protocolVersion) }, { roots: FIRST });
    const tools = await toolsOf(mcp, 'asking');
    expect(textOf(await run(tools.roots, {}))).toBe('roots: file:///work/first');

    await mcp.roots.set(SECOND);
    expect(textOf(await run(tools.roots, {}))).toBe('roots: file:///work/second, file:///work/third');
  });

  it('one call asks all three at once (elicitation, sampling, roots) and completes with every answer', async () => {
    const { agent } = samplingAgent();
    const asked: unknown[] = [];
    const mcp = client(
      {
        asking: {
          ...(await askingServer(transport, protocolVersion)),
          inputRequests: async ({ params }) => {
            asked.push(params.message);
            return { action: 'accept', content: { name: 'Ada' } };
          },
        } as MastraMCPServerDefinition,
      },
      { sampling: agent, roots: FIRST },
    );
    const tools = await toolsOf(mcp, 'asking');
    expect(textOf(await run(tools.everything, {}))).toBe('agent: Greet Ada in file:///work/first');
    expect(asked).toEqual(['Your name?']);
  });

  it('a prompt that asks for input is answered by inputRequests', async () => {
    const mcp = client({
      asking: {
        ...(await askingServer(transport, protocolVersion)),
        inputRequests: async ({ params }) => {
          expect(params.message).toBe('Which topic?');
          return { action: 'accept', content: { topic: 'tides' } };
        },
      } as MastraMCPServerDefinition,
    });
    const { messages } = await mcp.prompts.get({ serverName: 'asking', name: 'briefing' });
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Brief me on tides.' } }]);
  });
});

describe('what MCPClient did not configure, the tool is refused', () => {
  it.each([MODERN, 'legacy'] as const)(
    'at %s: no sampling option, so the tool is refused (-32021) and the call fails naming the capability',
    async (protocolVersion) => {
      const mcp = client({ asking: await askingServer('http', protocolVersion) });
      const tools = await toolsOf(mcp, 'asking');
      const error = (await rejectionOf(run(tools.sample, { prompt: 'x' }))) as Error;
      expect(error.message).toMatch(/tool 'sample' on server 'asking' failed: .*declare sampling/);
    },
  );
});
