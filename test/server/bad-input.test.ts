import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { createTool } from '@mastra/core/tools';
import { ProtocolError, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { connectHttp, serveHttp } from '../helpers.js';
import { isAlive } from '../support/process.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Labels of the waitTool runs that started, and of those that saw their abort signal. */
const started: string[] = [];
const aborted: string[] = [];
const waitTool = createTool({
  id: 'wait',
  description: 'Waits for its abort signal.',
  inputSchema: z.object({ label: z.string() }),
  execute: async ({ label }, context) => {
    started.push(label);
    const signal = context?.mcp?.extra.signal;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(label);
        resolve();
      });
    });
    return label;
  },
});

async function setup() {
  const server = new MCPServer(fullConfig({ tools: { ...fullConfig().tools, waitTool } }));
  const http = await serveHttp(server);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
};

function modernRequest(method: string, params: Record<string, unknown> = {}, id = 1) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      },
    },
  });
}

async function post(url: URL, body: string, headers: Record<string, string> = MODERN_HEADERS) {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  const dataLine = text.split('\n').find((line) => line.startsWith('data: '));
  const json = text.trim().startsWith('{')
    ? JSON.parse(text)
    : dataLine
      ? JSON.parse(dataLine.slice(6))
      : undefined;
  return { status: response.status, json };
}

describe('bad input over HTTP', () => {
  it('answers malformed JSON with a parse error and keeps serving', async () => {
    const { http } = await setup();
    const { status, json } = await post(http.mcpUrl, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(status).toBe(400);
    expect(json.error.code).toBe(-32700);
    const client = await connectHttp(http.mcpUrl, 'modern');
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('answers an unknown method with method-not-found on both eras', async () => {
    const { http } = await setup();
    const modern = await post(http.mcpUrl, modernRequest('nope/nothing'), {
      ...MODERN_HEADERS,
      'mcp-method': 'nope/nothing',
    });
    expect(modern.json.error.code).toBe(-32601);
    const legacy = await connectHttp(http.mcpUrl, 'legacy');
    cleanups.push(() => legacy.close());
    await expect(legacy.request({ method: 'nope/nothing', params: {} }, z.object({}))).rejects.toMatchObject({
      code: -32601,
    });
  });

  it('rejects an unknown tool with invalid params naming it, and bad arguments with the field', async () => {
    const { http } = await setup();
    for (const era of ['modern', 'legacy'] as const) {
      const client = await connectHttp(http.mcpUrl, era);
      cleanups.push(() => client.close());
      const error = await client.callTool({ name: 'noSuchTool', arguments: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
      expect((error as Error).message).toContain("Unknown tool 'noSuchTool'");
      const invalid = await client.callTool({ name: 'zod3Tool', arguments: { a: 'one', b: 2 } });
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toMatch(/zod3Tool.*\ba\b/s);
      const aiSdk = await client.callTool({ name: 'aiSdkTool', arguments: { x: 1 } });
      expect(aiSdk.isError).toBe(true);
      expect(textOf(aiSdk)).toContain("Invalid arguments for tool 'aiSdkTool'");
      expect(textOf(aiSdk)).toContain('y');
    }
  });

  it('refuses an oversized body with 413 before parsing it', async () => {
    const { http } = await setup();
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(5 * 1024 * 1024) },
    });
    const { status } = await post(http.mcpUrl, big);
    expect(status).toBe(413);
  });

  it('answers an unknown session id with 404 and a request without one with 400', async () => {
    const { http } = await setup();
    const legacyHeaders = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const unknown = await post(http.mcpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      ...legacyHeaders,
      'mcp-session-id': 'not-a-session',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain('not-a-session');
    const missing = await post(
      http.mcpUrl,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      legacyHeaders,
    );
    expect(missing.status).toBe(400);
  });

  it('forgets a legacy session once its client closes it', async () => {
    const { http } = await setup();
    const client = await connectHttp(http.mcpUrl, 'legacy');
    const sessionId = (client.transport as { sessionId?: string }).sessionId as string;
    await (client.transport as unknown as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    const after = await post(http.mcpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
    });
    expect(after.status).toBe(404);
  });

  it.each(['modern', 'legacy'] as const)(
    'aborts the tool when a %s client gives up mid-call, and keeps serving',
    async (era) => {
      const { http } = await setup();
      const client = await connectHttp(http.mcpUrl, era);
      cleanups.push(() => client.close());
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'waitTool', arguments: { label: era } },
        { signal: controller.signal },
      );
      await eventually('the tool to start', () => started.includes(era));
      controller.abort();
      await expect(call).rejects.toThrow();
      await eventually('the tool to see its abort signal', () => aborted.includes(era));
      expect(textOf(await client.callTool({ name: 'zod3Tool', arguments: { a: 1, b: 1 } }))).toBe('2');
    },
  );

  it('rejects a tampered input_required request state', async () => {
    const { http } = await setup();
    const { json } = await post(
      http.mcpUrl,
      modernRequest('tools/call', {
        name: 'contactTool',
        arguments: {},
        requestState: 'forged-state',
        inputResponses: {},
      }),
      { ...MODERN_HEADERS, 'mcp-method': 'tools/call', 'mcp-name': 'contactTool' },
    );
    expect(json.error.code).toBe(-32602);
  });
});

describe('bad input over stdio', () => {
  it('survives garbage lines and still serves the next request', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/stdio-server.ts'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    cleanups.push(async () => {
      child.stdin.end();
      await eventually('the child to exit', () => !isAlive(child.pid as number));
    });
    const lines = createInterface({ input: child.stdout });
    const replies: Array<{ id?: number; error?: { code: number }; result?: unknown }> = [];
    lines.on('line', (line) => replies.push(JSON.parse(line)));
    child.stdin.write('this is not json\n');
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    // Starting a tsx child that loads @mastra/core takes seconds, many on a busy machine.
    await eventually('the initialize reply', () => replies.find((r) => r.id === 1), 50_000);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'zod3Tool', arguments: { a: 'x' } } })}\n`,
    );
    const call = await eventually('the tool reply', () => replies.find((r) => r.id === 2));
    expect((call.result as { isError?: boolean }).isError).toBe(true);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' })}\n`);
    const list = await eventually('the list reply', () => replies.find((r) => r.id === 3));
    expect((list.result as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
    expect(isAlive(child.pid as number)).toBe(true);
  }, 60_000);
});

/** node:http, because fetch does not let a caller choose the Host header. */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // An accepted SSE GET stays open: the status and first bytes are enough.
        if (res.headers['content-type']?.includes('text/event-stream')) res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('DNS rebinding protection', () => {
  const discover = modernRequest('server/discover');
  const modernHeaders = { ...MODERN_HEADERS, 'mcp-method': 'server/discover' };

  it('refuses foreign Host and Origin headers on a loopback listener, on every HTTP transport', async () => {
    const { http } = await setup();
    for (const path of ['/mcp', '/sse', '/hono/sse']) {
      const method = path === '/mcp' ? 'POST' : 'GET';
      const body = path === '/mcp' ? discover : undefined;
      const evilHost = await rawRequest(
        `${http.base}${path}`,
        method,
        { ...modernHeaders, host: 'evil.example.com' },
        body,
      );
      expect(evilHost.status).toBe(403);
      expect(evilHost.text).toContain('evil.example.com');
      const evilOrigin = await rawRequest(
        `${http.base}${path}`,
        method,
        { ...modernHeaders, origin: 'http://evil.example.com' },
        body,
      );
      expect(evilOrigin.status).toBe(403);
      const local = await rawRequest(
        `${http.base}${path}`,
        method,
        { ...modernHeaders, origin: 'http://localhost:3000' },
        body,
      );
      expect(local.status).toBe(200);
    }
  });

  it('accepts the hosts a deployment allows explicitly', async () => {
    const server = new MCPServer(fullConfig());
    const http = await serveHttp(server, { options: { allowedHosts: ['mcp.example.com'] } });
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const allowed = await rawRequest(
      http.mcpUrl.href,
      'POST',
      { ...modernHeaders, host: 'mcp.example.com' },
      discover,
    );
    expect(allowed.status).toBe(200);
    const refused = await rawRequest(http.mcpUrl.href, 'POST', modernHeaders, discover);
    expect(refused.status).toBe(403);
  });
});
