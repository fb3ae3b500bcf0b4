/**
 * The sampling and roots options without a server: what construction refuses (capabilities
 * declared without an answer, misspelt and malformed options, roots that are not `file://`),
 * `roots.set()`'s refusals, the Sampler's gate (tools, the approval hook, a handler's answer) and
 * the mapping of a request onto an Agent's messages.
 */
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { agentMessages } from '../../src/client/sampling/agent-sampling.js';
import { Sampler } from '../../src/client/sampling/sampler.js';
import {
  type CreateMessageRequestParams,
  type MastraMCPServerDefinition,
  MCPClient,
  type MCPClientOptions,
} from '../../src/index.js';
import { rejectionOf, thrownBy } from '../support/results.js';

const STDIO = { command: 'node', args: ['server.js'] };
const handler = () => ({
  model: 'm',
  role: 'assistant' as const,
  content: { type: 'text' as const, text: '' },
});
let nextId = 0;

function construct(options: Partial<MCPClientOptions> & { servers?: Record<string, unknown> }) {
  return thrownBy<{ id: string; message: string; details?: Record<string, unknown> }>(
    () =>
      new MCPClient({
        id: `unit-sampling-${++nextId}`,
        registerProcessHooks: false,
        servers: { x: STDIO },
        ...options,
      } as MCPClientOptions),
  );
}

function build(options: Partial<MCPClientOptions>): MCPClient {
  return new MCPClient({
    id: `unit-sampling-${++nextId}`,
    registerProcessHooks: false,
    servers: { x: STDIO },
    ...options,
  });
}

const request = (extra: Partial<CreateMessageRequestParams> = {}): CreateMessageRequestParams => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 10,
  ...extra,
});

describe('construction', () => {
  it('capabilities.sampling or .roots declared without an answer fails, naming the missing handler', () => {
    const sampling = construct({ servers: { x: { ...STDIO, capabilities: { sampling: {} } } } });
    expect(sampling).toMatchObject({
      id: 'MCP_CLIENT_INVALID_SERVER_CONFIG',
      message:
        "capabilities.sampling is declared for server 'x' but no sampling handler is configured; add sampling: (a handler, an Agent or a model) to the server or the client, or remove it",
    });
    const roots = construct({ servers: { x: { ...STDIO, capabilities: { roots: { listChanged: true } } } } });
    expect(roots.message).toBe(
      "capabilities.roots is declared for server 'x' but no roots list is configured; add roots: (a list or a function) to the server or the client, or remove it",
    );
    // Declared with the answer configured, at either level, it is accepted.
    expect(() =>
      build({ sampling: handler, servers: { x: { ...STDIO, capabilities: { sampling: {} } } } }),
    ).not.toThrow();
    expect(() =>
      build({ servers: { x: { ...STDIO, roots: [], capabilities: { roots: {} } } } }),
    ).not.toThrow();
  });

  it('capabilities.sampling.tools or .context need a handler: an agent or model cannot honour them', () => {
    const model = new MockLanguageModelV2();
    for (const extra of ['tools', 'context']) {
      const error = construct({
        sampling: model,
        servers: { x: { ...STDIO, capabilities: { sampling: { [extra]: {} } } } },
      });
      expect(error).toMatchObject({ id: 'MCP_CLIENT_INVALID_SERVER_CONFIG' });
      expect(error.message).toContain(`capabilities.sampling.${extra} is declared for server 'x'`);
    }
  });

  it('misspelt and malformed sampling options are named, with the option meant', () => {
    expect(construct({ samplign: handler } as never).message).toBe(
      'MCPClient: `samplign` is not an option of MCPClient; did you mean `sampling`?',
    );
    expect(construct({ sampling: { hander: handler } } as never).message).toBe(
      'MCPClient: `sampling.hander` is not an option of `sampling`; did you mean `handler`?',
    );
    expect(
      construct({ servers: { x: { ...STDIO, sampling: { handler, onRequst: handler } as never } } }).message,
    ).toBe(
      'MCPClient: `servers.x.sampling.onRequst` is not an option of `servers.x.sampling`; did you mean `onRequest`?',
    );
    expect(construct({ sampling: {} }).message).toBe(
      'MCPClient: `sampling` needs exactly one of `handler`, `agent` or `model`',
    );
    expect(construct({ sampling: { handler, model: 'openai/gpt-4o' } }).message).toBe(
      'MCPClient: `sampling` needs exactly one of `handler`, `agent` or `model` (it has handler and model)',
    );
    expect(construct({ sampling: { handler, maxConcurrent: 0 } }).message).toBe(
      'MCPClient: `sampling.maxConcurrent` must be a positive integer, got a number',
    );
    expect(construct({ sampling: { agent: {} as never } }).message).toBe(
      'MCPClient: `sampling.agent` must be a Mastra Agent, got an object',
    );
    const v1Model = { specificationVersion: 'v1', doGenerate: async () => ({}) };
    expect(construct({ sampling: v1Model as never }).message).toContain(
      '`sampling` is an AI SDK v4 (v1) model, which an Agent cannot generate with',
    );
  });

  it('roots: the shape is checked with the options, every URI must be file://', () => {
    expect(construct({ servers: { x: { ...STDIO, roots: [{ url: 'file:///a' }] } } as never }).message).toBe(
      'MCPClient: `servers.x.roots[0].url` is not an option of `servers.x.roots[0]`; did you mean `uri`?',
    );
    const notFile = construct({ roots: [{ uri: 'file:///ok' }, { uri: '/tmp/relative' }] });
    expect(notFile).toMatchObject({
      id: 'MCP_CLIENT_INVALID_ROOTS',
      message:
        'MCPClient: `roots[1].uri` must be a file:// URI (pathToFileURL(dir).href), got "/tmp/relative"',
    });
    const perServer = construct({ servers: { x: { ...STDIO, roots: [{ uri: 'https://example.com' }] } } });
    expect(perServer.message).toContain('`servers.x.roots[0].uri` must be a file:// URI');
  });
});

describe('roots.set()', () => {
  it('refuses a bad list, a server without roots, and a client where no server has roots', async () => {
    const mcp = build({
      servers: { withRoots: { ...STDIO, roots: [] }, without: STDIO } as Record<
        string,
        MastraMCPServerDefinition
      >,
    });
    await expect(mcp.roots.set([{ uri: 'ftp://x' }])).rejects.toMatchObject({
      id: 'MCP_CLIENT_INVALID_ROOTS',
      message: expect.stringContaining('roots.set(): `roots[0].uri` must be a file:// URI'),
    });
    await expect(mcp.roots.set([], { server: 'without' })).rejects.toMatchObject({
      id: 'MCP_CLIENT_INVALID_ROOTS',
      message: expect.stringContaining("MCP server 'without' has no roots option"),
    });
    await expect(mcp.roots.set([], { server: 'nope' })).rejects.toMatchObject({
      id: 'MCP_CLIENT_UNKNOWN_SERVER',
    });
    // Not connected: nothing is sent, the list is kept for when the server asks.
    await expect(mcp.roots.set([{ uri: 'file:///a' }], { server: 'withRoots' })).resolves.toBeUndefined();
    await expect(build({}).roots.set([])).rejects.toThrow('roots.set(): no server has roots option');
  });
});

describe('the Sampler', () => {
  const signal = new AbortController().signal;

  it('refuses tools unless capabilities.sampling.tools was declared', async () => {
    const sampler = new Sampler('s', handler, false);
    await expect(sampler.answer(request({ tools: [] }), signal)).rejects.toMatchObject({
      id: 'MCP_CLIENT_INPUT_REQUEST_UNSUPPORTED',
      message:
        "MCP server 's' asked for sampling with tools, but capabilities.sampling.tools is not declared for it",
    });
    await expect(
      new Sampler('s', handler, true).answer(request({ tools: [] }), signal),
    ).resolves.toMatchObject({
      model: 'm',
    });
  });

  it('a throwing approval hook fails the request (it never allows it); only allow or true allow', async () => {
    let calls = 0;
    const counted = () => {
      calls++;
      return handler();
    };
    const throwing = new Sampler(
      's',
      {
        handler: counted,
        onRequest: () => {
          throw new Error('ui closed');
        },
      },
      false,
    );
    expect(await rejectionOf(throwing.answer(request(), signal))).toMatchObject({
      id: 'MCP_CLIENT_SAMPLING_FAILED',
      message: "MCP server 's': the sampling onRequest hook failed: ui closed",
    });
    for (const verdict of [undefined, 'yes', 'deny', false]) {
      const sampler = new Sampler('s', { handler: counted, onRequest: () => verdict as never }, false);
      expect(await rejectionOf(sampler.answer(request(), signal))).toMatchObject({
        id: 'MCP_CLIENT_SAMPLING_DENIED',
      });
    }
    expect(calls).toBe(0);
  });

  it("a handler's answer that is no CreateMessageResult fails, naming the field", async () => {
    const sampler = new Sampler(
      's',
      () => ({ model: 'm', role: 'assistant', content: { type: 'txt' } }) as never,
      false,
    );
    const error = (await rejectionOf(sampler.answer(request(), signal))) as Error;
    expect(error.message).toContain(
      "MCP server 's': the sampling handler's answer is not a CreateMessageResult: content",
    );
  });
});

describe('a request as an Agent takes it', () => {
  it('maps text, image and audio; refuses tool use and results, naming the message', () => {
    const params = request({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', data: 'aW1n', mimeType: 'image/png' },
          ],
        },
        { role: 'assistant', content: { type: 'text', text: 'seen' } },
        { role: 'user', content: { type: 'audio', data: 'YXVk', mimeType: 'audio/wav' } },
      ],
    });
    expect(agentMessages(params, 's')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image: 'aW1n', mediaType: 'image/png' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'seen' }] },
      { role: 'user', content: [{ type: 'file', data: 'YXVk', mediaType: 'audio/wav' }] },
    ]);
    const toolUse = request({
      messages: [
        { role: 'user', content: { type: 'text', text: 'go' } },
        { role: 'assistant', content: { type: 'tool_use', id: 't1', name: 'search', input: {} } },
      ],
    });
    expect(thrownBy(() => agentMessages(toolUse, 's'))).toMatchObject({
      id: 'MCP_CLIENT_INPUT_REQUEST_UNSUPPORTED',
      message:
        "MCP server 's': sampling message 2 carries tool_use content, which an agent or model cannot answer; answer sampling with tools by a sampling handler",
    });
  });
});
