/**
 * Errors never amplify a request (issue 25, items 4 and 9): the SDK's own refusals quoted request
 * values whole, some twice (a 1 MiB tool name sent without its `Mcp-Name` header drew a 2 MiB
 * answer), a resource-not-found error carried the whole URI in its data, and a 404 repeated the
 * whole session id. Every error is bounded where it leaves, on every transport, and so is the
 * server's log line about it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { modernEnvelope, modernRequest, openLegacySession, rawStdioChild, serveHttp } from '../helpers.js';
import { RecordingLogger } from '../support/logger.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Longest answer any refusal below may have: the message (1,000) and data (4 KiB) bounds, with JSON around. */
const MAX_ANSWER = 6 * 1024;
const MIB = 'n'.repeat(1024 * 1024);
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

async function serve() {
  const mcp = new MCPServer(fullConfig({ tasks: {} }));
  const logger = new RecordingLogger();
  mcp.__setLogger(logger);
  const http = await serveHttp(mcp);
  cleanups.push(async () => {
    await http.close();
    await mcp.close();
  });
  return { http, logged: logger.errors };
}

async function answer(url: URL | string, init: RequestInit): Promise<{ status: number; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

function without(init: ReturnType<typeof modernRequest>, header: string): ReturnType<typeof modernRequest> {
  const { [header]: _dropped, ...headers } = init.headers;
  return { ...init, headers };
}

function withMethod(
  init: ReturnType<typeof modernRequest>,
  method: string,
): ReturnType<typeof modernRequest> {
  const body = JSON.parse(init.body) as Record<string, unknown>;
  return { ...init, body: JSON.stringify({ ...body, method }) };
}

describe('an error answer does not repeat the request (2026-07-28 over HTTP)', () => {
  it('bounds the -32020 refusals the SDK answers before any server runs, and their log lines', async () => {
    const { http, logged } = await serve();
    const refusals = {
      'tools/call without Mcp-Name': without(
        modernRequest('tools/call', { name: MIB, arguments: {} }),
        'mcp-name',
      ),
      'tools/call naming another tool in Mcp-Name': modernRequest(
        'tools/call',
        { name: MIB, arguments: {} },
        { headers: { 'mcp-name': 'weatherTool' } },
      ),
      'tasks/get without Mcp-Name': without(
        modernRequest('tasks/get', { taskId: MIB }, { capabilities: TASKS }),
        'mcp-name',
      ),
      'a method the Mcp-Method header does not name': withMethod(modernRequest('tools/list'), MIB),
    };
    for (const [what, init] of Object.entries(refusals)) {
      logged.length = 0;
      const { status, text } = await answer(http.mcpUrl, init);
      expect(status, what).toBe(400);
      const reply = JSON.parse(text) as { error: { code: number; message: string } };
      expect(reply.error.code, what).toBe(-32020);
      // Before: twice the 1 MiB value, once in the message and once in data.mismatch.
      expect(text.length, what).toBeLessThan(MAX_ANSWER);
      expect(reply.error.message, what).toMatch(/headers and body disagree/);
      for (const line of logged) expect(line.length, what).toBeLessThanOrEqual(8193);
    }
  });

  it('bounds the data of a resource-not-found error (the URI)', async () => {
    const { http } = await serve();
    // Within Node's 16 KiB of headers: the URI is also the Mcp-Name header.
    const uri = `file://missing/${'u'.repeat(12_000)}`;
    const { text } = await answer(http.mcpUrl, modernRequest('resources/read', { uri }, {}));
    const reply = JSON.parse(text) as { error: { code: number; message: string; data?: { uri?: string } } };
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.data?.uri).toMatch(/^file:\/\/missing\/u+…$/);
    expect(text.length).toBeLessThan(MAX_ANSWER);
  });

  it('sends a small deliberate error data whole', async () => {
    const { http } = await serve();
    // The elicitation URL error a tool may throw on purpose carries its URL in data: under 4 KiB it is untouched.
    const { text } = await answer(
      http.mcpUrl,
      modernRequest('resources/read', { uri: `file://missing/${'u'.repeat(300)}` }, {}),
    );
    const reply = JSON.parse(text) as { error: { data?: { uri?: string } } };
    expect(reply.error.data?.uri).toBe(`file://missing/${'u'.repeat(300)}`);
  });
});

describe('an unknown session id is not repeated whole', () => {
  it('clips the id in the 404 of legacy Streamable HTTP, HTTP+SSE and Hono SSE', async () => {
    const { http } = await serve();
    const id = 's'.repeat(8000);
    const post = (headers: Record<string, string> = {}): RequestInit => ({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const targets: Array<[string, string, RequestInit]> = [
      ['legacy Streamable HTTP', http.mcpUrl.href, post({ 'mcp-session-id': id })],
      ['HTTP+SSE', `${http.base}/message?sessionId=${id}`, post()],
      ['Hono SSE', `${http.base}/hono/message?sessionId=${id}`, post()],
    ];
    for (const [what, url, init] of targets) {
      const { status, text } = await answer(url, init);
      expect(status, what).toBe(404);
      expect(text, what).toMatch(/session not found: 's{100}…' is unknown/i);
      expect(text.length, what).toBeLessThan(400);
    }
  });
});

describe('a refusal repeats no header and no over-long id', () => {
  it('clips a refused Host or Origin, a legacy MCP-Protocol-Version, and answers id null for a 1 MiB id', async () => {
    const { http } = await serve();
    const legacy = (headers: Record<string, string>, id: unknown = 1): RequestInit => ({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }),
    });
    const long = 'x'.repeat(8000);
    const session = await openLegacySession(http.mcpUrl);
    const cases: Array<[string, string, RequestInit, number]> = [
      [
        'a foreign Origin (Streamable HTTP)',
        http.mcpUrl.href,
        legacy({ origin: `http://${long}.example` }),
        403,
      ],
      [
        'a foreign Origin (HTTP+SSE)',
        `${http.base}/sse`,
        { headers: { origin: `http://${long}.example` } },
        403,
      ],
      [
        'a long MCP-Protocol-Version on a legacy session',
        http.mcpUrl.href,
        // A GET stream: a POST naming an unknown revision is the 2026-07-28 handler's to refuse (bounded above).
        { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': long } },
        400,
      ],
      // Before: the 403 repeated the id whole, and the SDK's -32600 refusal too.
      [
        'a 1 MiB id with a foreign Origin',
        http.mcpUrl.href,
        legacy({ origin: 'http://evil.example' }, MIB),
        403,
      ],
    ];
    for (const [what, url, init, status] of cases) {
      const { status: got, text } = await answer(url, init);
      expect(got, what).toBe(status);
      expect(text.length, what).toBeLessThan(1024);
      if (what.includes('id')) expect(JSON.parse(text).id, what).toBeNull();
    }
    const invalid = modernRequest('tools/list');
    const { status, text } = await answer(http.mcpUrl, {
      ...invalid,
      body: JSON.stringify({ ...JSON.parse(invalid.body), id: MIB, params: [1] }),
    });
    expect(status).toBe(400);
    expect(text.length).toBeLessThan(1024);
    expect(JSON.parse(text).id).toBeNull();
  });
});

describe('an error answer does not repeat the request (stdio)', () => {
  it('bounds the unsupported-version refusal serveStdio answers itself, and a resource-not-found URI', async () => {
    const { send, line } = rawStdioChild(cleanups);
    const envelope = modernEnvelope();
    const version = 'v'.repeat(100_000);
    send({
      id: 1,
      method: 'tools/list',
      params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': version } },
    });
    send({
      id: 2,
      method: 'resources/read',
      params: { uri: `file://missing/${'u'.repeat(100_000)}`, _meta: envelope },
    });
    const unsupported = await line(1);
    const notFound = await line(2);
    // Before: 200 KB, the version in the message and again in data.requested.
    expect(JSON.parse(unsupported).error.code).toBe(-32022);
    expect(unsupported.length).toBeLessThan(MAX_ANSWER);
    expect(JSON.parse(notFound).error.code).toBe(-32602);
    expect(notFound.length).toBeLessThan(MAX_ANSWER);
  });
});
