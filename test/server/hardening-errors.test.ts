/**
 * Errors that say the right thing (issue 13, item 15): params a schema rejects answer -32602
 * naming the method and the field, on both eras and every transport; internal errors echo no
 * request body and no zod dump; `redactErrors` keeps callback failures out of the client's view
 * and in the server log.
 */
import { createTool } from '@mastra/core/tools';
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPServer, type MCPServerConfig } from '../../src/index.js';
import { eventsServer } from '../fixtures/events.js';
import { fullConfig, prompts, resources } from '../fixtures/tools.js';
import {
  connectHttp,
  connectSse,
  type Era,
  modernEnvelope,
  modernRequest,
  openLegacySession,
  rawStdioChild,
  replyOf,
  serveHttp,
  serveReplaceable,
} from '../helpers.js';
import { RecordingLogger } from '../support/logger.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

interface JsonRpcReply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

interface BadParams {
  method: string;
  params: Record<string, unknown>;
  /** The path the message must name. */
  field: string;
}

/** Requests both eras serve, each with params its schema rejects. */
const BAD_PARAMS: BadParams[] = [
  { method: 'resources/read', params: { uri: 123 }, field: 'params.uri' },
  { method: 'prompts/get', params: { name: 5 }, field: 'params.name' },
  {
    method: 'prompts/get',
    params: { name: 'analyze-code', arguments: { code: 1 } },
    field: 'params.arguments.code',
  },
  { method: 'tools/call', params: { name: 7 }, field: 'params.name' },
  { method: 'tools/call', params: { name: 'weatherTool', arguments: 'x' }, field: 'params.arguments' },
  { method: 'tools/list', params: { cursor: 5 }, field: 'params.cursor' },
  {
    method: 'completion/complete',
    params: { ref: { type: 'ref/prompt' }, argument: { name: 'code', value: 'c' } },
    field: 'params.ref.name',
  },
];

/** 2025-era requests that 2026-07-28 no longer has. */
const LEGACY_BAD_PARAMS: BadParams[] = [
  { method: 'logging/setLevel', params: { level: 'loud' }, field: 'params.level' },
  { method: 'resources/subscribe', params: { uri: 1 }, field: 'params.uri' },
];

function expectInvalidParams(reply: JsonRpcReply | undefined, { method, field }: BadParams): void {
  const error = reply?.error;
  expect(error, `${method} ${field}: ${JSON.stringify(reply)}`).toBeDefined();
  expect({ method, code: error?.code }).toEqual({ method, code: -32602 });
  expect(error?.message).toContain(method);
  expect(error?.message).toContain(`${field}:`);
  // One short line: no zod issue dump.
  expect(error?.message).not.toMatch(/\n|"code"|invalid_type/);
  expect(error?.message.length).toBeLessThan(300);
}

const ENVELOPE = modernEnvelope();

/** One raw 2026-07-28 request (`meta` merged into the `_meta` envelope) and its reply. */
async function modernCall(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): Promise<JsonRpcReply> {
  return replyOf(await fetch(url, modernRequest(method, params, { meta })));
}

/** A raw 2025-era session: `initialize`, then requests carrying its session id. */
async function legacySession(url: URL) {
  const session = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': await openLegacySession(url),
    'mcp-protocol-version': '2025-11-25',
  };
  await fetch(url, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  }).then((response) => response.text());
  return async (method: string, params: Record<string, unknown>): Promise<JsonRpcReply> =>
    replyOf(
      await fetch(url, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }),
    );
}

async function serve(config: MCPServerConfig = fullConfig()) {
  const server = new MCPServer(config);
  const logger = new RecordingLogger();
  server.__setLogger(logger);
  const http = await serveHttp(server);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http, logger };
}

describe('invalid params over HTTP', () => {
  it('answers -32602 naming the method and the field on 2026-07-28', async () => {
    const { http } = await serve();
    for (const bad of BAD_PARAMS)
      expectInvalidParams(await modernCall(http.mcpUrl, bad.method, bad.params), bad);
    // 2026-07-28 sets the log level per request, in the envelope; logging/setLevel is not a method.
    const envelope = await modernCall(
      http.mcpUrl,
      'tools/list',
      {},
      { 'io.modelcontextprotocol/logLevel': 'loud' },
    );
    expect(envelope.error?.code).toBe(-32602);
    expect(envelope.error?.message).toContain('io.modelcontextprotocol/logLevel');
    expect((await modernCall(http.mcpUrl, 'logging/setLevel', { level: 'loud' })).error?.code).toBe(-32601);
  });

  it('answers -32602 naming the method and the field on a legacy session', async () => {
    const { http } = await serve();
    const send = await legacySession(http.mcpUrl);
    for (const bad of [...BAD_PARAMS, ...LEGACY_BAD_PARAMS])
      expectInvalidParams(await send(bad.method, bad.params), bad);
    // The session still serves.
    expect((await send('logging/setLevel', { level: 'error' })).result).toEqual({});
  });

  it('answers -32602 naming the field for a legacy initialize whose params are invalid', async () => {
    const { http } = await serve();
    const response = await fetch(http.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'initialize',
        params: { protocolVersion: 5, capabilities: {} },
      }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const reply = (await response.json()) as JsonRpcReply & { id: unknown };
    expect(reply.id).toBe(9);
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(
      /^Invalid params for initialize: params\.protocolVersion: expected string/,
    );
    expect(reply.error?.message).toContain('params.clientInfo');
  });

  it('answers -32602 for the events/* params this package checks', async () => {
    const server = eventsServer();
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const cases: BadParams[] = [
      { method: 'events/poll', params: { name: 5, cursor: null }, field: 'params.name' },
      {
        method: 'events/poll',
        params: { name: 'alert', cursor: null, maxEvents: -1 },
        field: 'params.maxEvents',
      },
      { method: 'events/list', params: { cursor: 5 }, field: 'params.cursor' },
    ];
    for (const bad of cases) expectInvalidParams(await modernCall(http.mcpUrl, bad.method, bad.params), bad);
  });

  it('answers -32602 on legacy HTTP+SSE and Hono SSE', async () => {
    const { http } = await serve();
    for (const path of ['/sse', '/hono/sse']) {
      const client = await connectSse(new URL(`${http.base}${path}`));
      cleanups.push(() => client.close());
      for (const bad of [...BAD_PARAMS, ...LEGACY_BAD_PARAMS]) {
        const error = await client
          .request({ method: bad.method, params: bad.params } as never, z.object({}))
          .catch((e: unknown) => e as ProtocolError);
        expectInvalidParams({ error: error as ProtocolError }, bad);
      }
    }
  });

  it("answers -32602 from a client proxy's gateway on both eras", async () => {
    const { http } = await serve();
    const mcp = new MCPClient({
      id: 'hardening-errors-gateway',
      registerProcessHooks: false,
      servers: { upstream: { url: http.mcpUrl } },
    });
    cleanups.push(() => mcp.disconnect());
    const { upstream: proxy } = await mcp.toMCPServerProxies();
    if (!proxy) throw new Error('no proxy for the upstream server');
    const gateway = await serveReplaceable(() => proxy as unknown as MCPServer);
    cleanups.push(
      () => gateway.close(),
      () => proxy.close(),
    );
    const send = await legacySession(gateway.mcpUrl);
    for (const bad of BAD_PARAMS) {
      expectInvalidParams(await modernCall(gateway.mcpUrl, bad.method, bad.params), bad);
      expectInvalidParams(await send(bad.method, bad.params), bad);
    }
    // What the upstream answers still comes through.
    const called = await send('tools/call', { name: 'weatherTool', arguments: { location: 'Oslo' } });
    expect(JSON.stringify(called.result)).toContain('Oslo');
  });

  it('bounds what a message repeats of the request', async () => {
    const { http } = await serve();
    const send = await legacySession(http.mcpUrl);
    const long = 'k'.repeat(10_000);
    const reply = await send('prompts/get', { name: 'analyze-code', arguments: { [long]: 1 } });
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toContain('params.arguments');
    expect(reply.error?.message.length).toBeLessThan(300);
    // Each rejected argument used to be listed: the answer was five times the size of the request.
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]));
    const amplified = await send('prompts/get', { name: 'analyze-code', arguments: many });
    expect(amplified.error?.message).toMatch(/params\.arguments\.k0: expected string; .* \(and 1997 more\)$/);
    expect(amplified.error?.message.length).toBeLessThan(300);
    // Mastra's validation message lists every issue and repeats the arguments.
    const echoed = await send('tools/call', {
      name: 'zod3Tool',
      arguments: { a: 'x'.repeat(100_000), b: 1 },
    });
    const echoedText = textOf(echoed.result as { content?: unknown });
    expect(echoedText).toMatch(/^Invalid arguments for tool 'zod3Tool': [\s\S]*\ba\b/);
    expect(echoedText.length).toBeLessThanOrEqual(1001);
    const unknown = await send('tools/call', { name: long, arguments: {} });
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toContain('Unknown tool');
    expect(unknown.error?.message.length).toBeLessThan(300);
  });
});

describe('invalid params over stdio', () => {
  it('answers -32602 naming the method and the field in both eras', async () => {
    const run = async (era: Era) => {
      const { send, reply } = rawStdioChild(cleanups);
      const cases = era === 'legacy' ? [...BAD_PARAMS, ...LEGACY_BAD_PARAMS] : BAD_PARAMS;
      if (era === 'legacy') {
        send({
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        });
        await reply(0);
        send({ method: 'notifications/initialized' });
      }
      cases.forEach((bad, index) => {
        const params = era === 'modern' ? { ...bad.params, _meta: ENVELOPE } : bad.params;
        send({ id: index + 1, method: bad.method, params });
      });
      for (const [index, bad] of cases.entries()) expectInvalidParams(await reply(index + 1), bad);
    };
    await Promise.all([run('legacy'), run('modern')]);
  }, 60_000);
});

const SECRET = 'db password is hunter2';

/** A tool, a resource and a prompt whose callbacks throw SECRET. */
function throwingConfig(redactErrors: boolean): MCPServerConfig {
  return fullConfig({
    redactErrors,
    tools: {
      leakyTool: createTool({
        id: 'leaky',
        description: 'Throws an error carrying a secret.',
        inputSchema: z.object({ n: z.number() }),
        execute: async () => {
          throw new Error(SECRET);
        },
      }),
    },
    resources: {
      ...resources,
      getResourceContent: async ({ uri }) => {
        if (uri === 'file://secret') throw new Error(SECRET);
        return resources.getResourceContent({ uri });
      },
    },
    prompts: {
      ...prompts,
      listPrompts: async () => [...(await prompts.listPrompts()), { name: 'leaky', arguments: [] }],
      getPromptMessages: async (request, context) => {
        if (request.name === 'leaky') throw new Error(SECRET);
        if (request.name === 'parsing') return z.object({ x: z.string() }).parse({}) as never;
        return (prompts.getPromptMessages as NonNullable<typeof prompts.getPromptMessages>)(request, context);
      },
    },
  });
}

async function failures(era: Era, redactErrors: boolean) {
  const { http, logger } = await serve(throwingConfig(redactErrors));
  const client = await connectHttp(http.mcpUrl, era);
  cleanups.push(() => client.close());
  const tool = await client.callTool({ name: 'leakyTool', arguments: { n: 1 } });
  const resource = await client.readResource({ uri: 'file://secret' }).catch((error: unknown) => error);
  const prompt = await client.getPrompt({ name: 'leaky' }).catch((error: unknown) => error);
  const badArguments = await client.callTool({ name: 'leakyTool', arguments: { n: 'one' } });
  return { tool, resource, prompt, badArguments, logger };
}

describe('redactErrors', () => {
  it.each(['modern', 'legacy'] as const)('off: a %s client sees what the callback threw', async (era) => {
    const { tool, resource, prompt, logger } = await failures(era, false);
    expect(tool.isError).toBe(true);
    expect(textOf(tool)).toBe(`Tool 'leakyTool' failed: ${SECRET}`);
    expect(resource).toBeInstanceOf(ProtocolError);
    expect((resource as Error).message).toContain(`Resource 'file://secret' could not be read: ${SECRET}`);
    expect(prompt).toBeInstanceOf(ProtocolError);
    expect((prompt as ProtocolError).code).toBe(-32603);
    expect((prompt as Error).message).toContain(`Prompt 'leaky' failed: ${SECRET}`);
    expect(logger.errors.filter((line) => line.includes(SECRET))).toHaveLength(3);
  });

  it.each(['modern', 'legacy'] as const)(
    'on: a %s client sees a generic message naming the target, the log has the error',
    async (era) => {
      const { tool, resource, prompt, badArguments, logger } = await failures(era, true);
      expect(tool.isError).toBe(true);
      expect(textOf(tool)).toBe("Tool 'leakyTool' failed");
      expect(resource).toBeInstanceOf(ProtocolError);
      expect((resource as Error).message).toContain("Resource 'file://secret' could not be read");
      expect((resource as Error).message).not.toContain(SECRET);
      expect(prompt).toBeInstanceOf(ProtocolError);
      expect((prompt as ProtocolError).code).toBe(-32603);
      expect((prompt as Error).message).toContain("Prompt 'leaky' failed");
      expect((prompt as Error).message).not.toContain(SECRET);
      // The caller's own input is still described.
      expect(badArguments.isError).toBe(true);
      expect(textOf(badArguments)).toMatch(/leakyTool[\s\S]*\bn\b/);
      const logged = logger.errors.filter((line) => line.includes(SECRET));
      expect(logged).toHaveLength(3);
      expect(logged.join('\n')).toMatch(/leakyTool[\s\S]*file:\/\/secret[\s\S]*leaky/);
    },
  );

  it('keeps a prompt-not-found or missing-argument answer under redaction', async () => {
    const { http } = await serve(throwingConfig(true));
    const client = await connectHttp(http.mcpUrl, 'legacy');
    cleanups.push(() => client.close());
    const missing = await client.getPrompt({ name: 'analyze-code' }).catch((error: unknown) => error);
    expect((missing as ProtocolError).code).toBe(-32602);
    expect((missing as Error).message).toContain("Prompt 'analyze-code' is missing required argument: code");
  });

  it('summarises a zod error a callback threw instead of dumping it', async () => {
    const config = throwingConfig(false);
    const { http, logger } = await serve({
      ...config,
      prompts: {
        ...(config.prompts as NonNullable<MCPServerConfig['prompts']>),
        listPrompts: async () => [{ name: 'parsing', arguments: [] }],
      },
    });
    const send = await legacySession(http.mcpUrl);
    const reply = await send('prompts/get', { name: 'parsing' });
    expect(reply.error?.code).toBe(-32603);
    expect(reply.error?.message).toContain("Prompt 'parsing' failed");
    expect(reply.error?.message).toContain('x: expected string');
    expect(reply.error?.message).not.toMatch(/\n|"code"/);
    expect(logger.errors.join('\n')).toContain('parsing');
  });
});
