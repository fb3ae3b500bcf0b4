/**
 * Issue 13 items 4, 8 and 16 over real HTTP on 127.0.0.1: legacy Streamable HTTP sessions expire
 * when idle and are capped, legacy HTTP+SSE connections are capped, a legacy connection runs a
 * bounded number of requests at once, and a session belongs to the principal that opened it.
 */
import type { IncomingMessage } from 'node:http';
import { createTool } from '@mastra/core/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MCPServer,
  type MCPServerLimits,
  type StreamableHTTPServerTransportOptions,
} from '../../src/index.js';
import { bearerAuth, connectHttp, connectSse, type HttpHarness, newClient, serveHttp } from '../helpers.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** What the `hold` tool saw: how many runs started and the most that ran at once. */
const gauge = { running: 0, max: 0, started: 0 };
/** What a `hold` run with a negative `ms` waits for, so a test decides when the held runs end. */
function newGate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
let gate = newGate();
beforeEach(() => {
  Object.assign(gauge, { running: 0, max: 0, started: 0 });
  gate = newGate();
});

const holdTool = createTool({
  id: 'hold',
  description: 'Runs for `ms` milliseconds (until the gate opens when negative), counting concurrent runs.',
  inputSchema: z.object({ ms: z.number() }),
  execute: async ({ ms }) => {
    gauge.started++;
    gauge.running++;
    gauge.max = Math.max(gauge.max, gauge.running);
    await (ms < 0 ? gate.opened : new Promise((resolve) => setTimeout(resolve, ms)));
    gauge.running--;
    return 'held';
  },
});

const whoamiTool = createTool({
  id: 'whoami',
  description: 'Names the caller and the session the call ran in.',
  inputSchema: z.object({}),
  execute: async (_input, context) => {
    const extra = context?.mcp?.extra;
    return { subject: extra?.authInfo?.extra?.subject ?? null, sessionId: extra?.sessionId ?? null };
  },
});

/** Bodies of POST requests the server has read in full, counted before MCPServer parses them. */
const postsRead = { count: 0 };
beforeEach(() => {
  postsRead.count = 0;
});
const countPostsRead = (req: IncomingMessage & { auth?: unknown }) => {
  bearerAuth(req);
  if (req.method === 'POST') req.on('end', () => postsRead.count++);
};

async function setup(limits: MCPServerLimits = {}, options?: StreamableHTTPServerTransportOptions) {
  const mcp = new MCPServer({
    name: 'sessions',
    version: '1.0.0',
    tools: { hold: holdTool, whoami: whoamiTool },
    limits,
  });
  const http = await serveHttp(mcp, { before: countPostsRead, ...(options ? { options } : {}) });
  cleanups.push(
    () => http.close(),
    () => mcp.close(),
  );
  return { mcp, http };
}

/** Live legacy connections the server would notify (its connection tracking). */
const tracked = (mcp: MCPServer) =>
  (mcp as unknown as { connections: { live: Set<unknown> } }).connections.live.size;

const bearer = (who?: string): Record<string, string> => (who ? { authorization: `Bearer ${who}` } : {});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(url: URL | string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** The JSON-RPC messages of a JSON or SSE response body. */
async function messagesOf(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  if (response.headers.get('content-type')?.includes('application/json')) return [JSON.parse(text)].flat();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

/** Opens a legacy session with raw requests: initialize, then notifications/initialized. */
async function openSession(http: HttpHarness, who?: string): Promise<string> {
  const response = await post(http.mcpUrl, INITIALIZE, bearer(who));
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  const id = response.headers.get('mcp-session-id');
  if (!id) throw new Error('no session id');
  const initialized = await post(
    http.mcpUrl,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': id, ...bearer(who) },
  );
  expect(initialized.status).toBe(202);
  return id;
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A tools/call on a session: the HTTP status and, when 200, the tool's structured result. */
async function callOn(http: HttpHarness, sessionId: string, who?: string, name = 'whoami') {
  const response = await post(http.mcpUrl, call(1, name), { 'mcp-session-id': sessionId, ...bearer(who) });
  const [message] = await messagesOf(response);
  const text = (message?.result as { content?: Array<{ text: string }> } | undefined)?.content?.[0]?.text;
  return { status: response.status, result: text && JSON.parse(text), error: message?.error };
}

/** Opens a GET stream; resolves with the response once headers arrived (the body stays open). */
async function openStream(url: URL | string, headers: Record<string, string>) {
  const controller = new AbortController();
  cleanups.push(async () => controller.abort());
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  return { response, close: () => controller.abort() };
}

/** Opens a legacy HTTP+SSE stream and reads its `endpoint` event (the message URL with the session id). */
async function openSse(http: HttpHarness, path: string, who?: string) {
  const stream = await openStream(`${http.base}${path}`, bearer(who));
  if (stream.response.status !== 200) return { ...stream, endpoint: undefined };
  const reader = (stream.response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!/event: endpoint\r?\ndata: .*\r?\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${path} closed before its endpoint event`);
    text += decoder.decode(value);
  }
  const endpoint = /event: endpoint\r?\ndata: (.*)\r?\n/.exec(text)?.[1] as string;
  return { ...stream, endpoint: new URL(endpoint, http.base) };
}

describe('legacy Streamable HTTP sessions are capped (limits.maxSessions)', () => {
  it('refuses a session beyond the cap with 503, Retry-After and a JSON-RPC error naming the option', async () => {
    const { mcp, http } = await setup({ maxSessions: 20 });
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await openSession(http));
    const refused = await post(http.mcpUrl, INITIALIZE);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBe(INITIALIZE.id);
    expect(body.error.message).toMatch(/20 legacy sessions/);
    expect(body.error.message).toMatch(/limits\.maxSessions/);
    expect(tracked(mcp)).toBe(20);

    // Closing one frees its place.
    const deleted = await fetch(http.mcpUrl, {
      method: 'DELETE',
      headers: { 'mcp-session-id': ids[0] as string },
    });
    expect(deleted.status).toBe(200);
    expect(tracked(mcp)).toBe(19);
    await openSession(http);
    expect(tracked(mcp)).toBe(20);
  });

  it('a flood of concurrent initialize requests never opens more than the cap', async () => {
    const { mcp, http } = await setup({ maxSessions: 20 });
    const responses = await Promise.all(Array.from({ length: 60 }, () => post(http.mcpUrl, INITIALIZE)));
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 503)).toHaveLength(40);
    expect(tracked(mcp)).toBe(20);
  });

  it('an initialize the transport refuses leaves nothing tracked', async () => {
    const { mcp, http } = await setup();
    for (let i = 0; i < 5; i++) {
      const response = await post(http.mcpUrl, INITIALIZE, { accept: 'application/json' });
      expect(response.status).toBe(406);
      await response.arrayBuffer();
    }
    expect(tracked(mcp)).toBe(0);
  });
});

describe('idle legacy sessions expire (limits.sessionIdleTimeoutMs)', () => {
  it('an idle session is closed: its id then 404s and its connection is no longer tracked', async () => {
    const { mcp, http } = await setup({ sessionIdleTimeoutMs: 300 });
    const id = await openSession(http);
    expect(tracked(mcp)).toBe(1);
    await eventually('the idle session to be closed', () => tracked(mcp) === 0, 3000);
    const after = await callOn(http, id);
    expect(after.status).toBe(404);
    expect(after.error).toMatchObject({ code: -32001 });
  });

  it('a request in flight longer than the timeout keeps the session; it expires once idle', async () => {
    const { mcp, http } = await setup({ sessionIdleTimeoutMs: 300 });
    const id = await openSession(http);
    const response = await post(http.mcpUrl, call(1, 'hold', { ms: 900 }), { 'mcp-session-id': id });
    const [message] = await messagesOf(response);
    expect(message).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'held' }] } });
    expect((await callOn(http, id)).status).toBe(200);
    await eventually('the idle session to be closed', () => tracked(mcp) === 0, 3000);
  });

  it('an open GET stream keeps the session; it expires once the stream closes', async () => {
    const { mcp, http } = await setup({ sessionIdleTimeoutMs: 300 });
    const id = await openSession(http);
    const stream = await openStream(http.mcpUrl, { 'mcp-session-id': id });
    expect(stream.response.status).toBe(200);
    // A session opened after it, without a stream, expiring is the sign that this one's idle time
    // has passed too.
    await openSession(http);
    expect(tracked(mcp)).toBe(2);
    await eventually('the session without a stream to be closed', () => tracked(mcp) === 1, 3000);
    expect((await callOn(http, id)).status).toBe(200);
    stream.close();
    await eventually('the idle session to be closed', () => tracked(mcp) === 0, 3000);
    expect((await callOn(http, id)).status).toBe(404);
  });
});

describe('legacy HTTP+SSE connections are capped (limits.maxSseConnections)', () => {
  it.each(['/sse', '/hono/sse'])(
    '%s: beyond the cap a stream gets 503; a closed one frees its place',
    async (path) => {
      const { mcp, http } = await setup({ maxSseConnections: 3 });
      const open = [];
      for (let i = 0; i < 3; i++) open.push(await openSse(http, path));
      expect(open.every((stream) => stream.response.status === 200)).toBe(true);
      const refused = await openStream(`${http.base}${path}`, {});
      expect(refused.response.status).toBe(503);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.response.text()).toMatch(/limits\.maxSseConnections/);
      expect(tracked(mcp)).toBe(3);

      open[0]?.close();
      await eventually('the closed stream to be released', () => tracked(mcp) === 2);
      const again = await openSse(http, path);
      expect(again.response.status).toBe(200);
    },
  );
});

describe('a legacy connection runs at most limits.maxConcurrentRequests requests at once', () => {
  const batch = (n: number, ms: number) => Array.from({ length: n }, (_, i) => call(i + 1, 'hold', { ms }));

  it.each<[string, StreamableHTTPServerTransportOptions | undefined]>([
    ['session', undefined],
    ['session, JSON responses', { enableJsonResponse: true }],
    ['stateless', { sessionIdGenerator: undefined }],
  ])('a batch of slow tool calls (%s) runs 3 at a time and answers all of them', async (_mode, options) => {
    const { http } = await setup({ maxConcurrentRequests: 3 }, options);
    const stateless = options !== undefined && 'sessionIdGenerator' in options;
    const headers: Record<string, string> = stateless ? {} : { 'mcp-session-id': await openSession(http) };
    const response = await post(http.mcpUrl, batch(12, 100), headers);
    expect(response.status).toBe(200);
    const messages = await messagesOf(response);
    expect(messages.map((message) => message.id).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(gauge.started).toBe(12);
    expect(gauge.max).toBe(3);
  });

  it('a batch whose HTTP request closes drops the calls still queued (stateless)', async () => {
    const { http } = await setup({ maxConcurrentRequests: 2 }, { sessionIdGenerator: undefined });
    const controller = new AbortController();
    const response = await post(http.mcpUrl, batch(10, 300), {}, controller.signal);
    expect(response.status).toBe(200);
    await eventually('two calls to start', () => gauge.started >= 2);
    controller.abort();
    // Once both have ended their slots are free, so a queued call would start; a later round trip
    // gives it the time to.
    await eventually('the two running calls to end', () => gauge.running === 0);
    const [answer] = await messagesOf(await post(http.mcpUrl, call(11, 'whoami')));
    expect(answer).toMatchObject({ id: 11, result: { content: [{ type: 'text' }] } });
    expect(gauge.started).toBe(2);
  });

  it('a batch whose HTTP request closes drops the calls still queued (session); the session still serves', async () => {
    const { http } = await setup({ maxConcurrentRequests: 2 });
    const id = await openSession(http);
    const controller = new AbortController();
    const response = await post(http.mcpUrl, batch(10, 300), { 'mcp-session-id': id }, controller.signal);
    expect(response.status).toBe(200);
    await eventually('two calls to start', () => gauge.started >= 2);
    controller.abort();
    // The session's gate runs requests in arrival order: this later call completing means no
    // call of the batch is left in its queue.
    await eventually('the two running calls to end', () => gauge.running === 0);
    expect((await callOn(http, id)).status).toBe(200);
    expect(gauge.started).toBe(2);
  });

  it('a queued call the client cancels never runs', async () => {
    const { http } = await setup({ maxConcurrentRequests: 1 });
    const client = await connectHttp(http.mcpUrl, 'legacy');
    cleanups.push(() => client.close());
    const first = client.callTool({ name: 'hold', arguments: { ms: 400 } });
    await eventually('the first call to start', () => gauge.started === 1);
    const read = postsRead.count;
    const controller = new AbortController();
    const second = client.callTool({ name: 'hold', arguments: { ms: 10 } }, { signal: controller.signal });
    // Its body read, the server queues it behind the running call before the cancellation arrives.
    await eventually('the second call to reach the server', () => postsRead.count > read);
    controller.abort();
    await expect(second).rejects.toThrow();
    await first;
    expect(gauge.started).toBe(1);
    // The connection still serves, in arrival order: had the cancelled call stayed queued, it
    // would have run before this one.
    await client.callTool({ name: 'hold', arguments: { ms: 10 } });
    expect(gauge.started).toBe(2);
  });

  it('a running call the client cancels frees its slot (no answer is ever sent for it)', async () => {
    const { http } = await setup({ maxConcurrentRequests: 1 });
    const client = await connectHttp(http.mcpUrl, 'legacy');
    cleanups.push(() => client.close());
    const controller = new AbortController();
    const first = client.callTool({ name: 'hold', arguments: { ms: 300 } }, { signal: controller.signal });
    await eventually('the first call to start', () => gauge.started === 1);
    controller.abort();
    await expect(first).rejects.toThrow();
    await client.callTool({ name: 'hold', arguments: { ms: 10 } });
    expect(gauge.started).toBe(2);
  });

  it.each(['/sse', '/hono/sse'])('%s: pipelined slow calls run 3 at a time', async (path) => {
    const { http } = await setup({ maxConcurrentRequests: 3 });
    const client = await connectSse(new URL(`${http.base}${path}`), newClient('legacy'));
    cleanups.push(() => client.close());
    // Held until three run at once: however slowly the POSTs arrive, a fourth would have to start.
    const calls = Array.from({ length: 9 }, () => client.callTool({ name: 'hold', arguments: { ms: -1 } }));
    await eventually('three held calls to run', () => gauge.running === 3, 20_000);
    gate.open();
    const results = await Promise.all(calls);
    expect(results).toHaveLength(9);
    expect(gauge.started).toBe(9);
    expect(gauge.max).toBe(3);
  });
});

describe('a legacy session belongs to the principal that opened it', () => {
  it('Streamable HTTP: another principal or no credentials get 404 on POST, GET and DELETE', async () => {
    const { http } = await setup();
    const alices = await openSession(http, 'alice');
    const unknown = await callOn(http, 'no-such-session', 'bob');
    expect(unknown.status).toBe(404);

    for (const intruder of ['bob', undefined]) {
      const attempt = await callOn(http, alices, intruder);
      expect(attempt.status).toBe(404);
      expect(attempt.error).toEqual({
        code: -32001,
        message: `Session not found: '${alices}' is unknown or has expired`,
      });
      const stream = await openStream(http.mcpUrl, { 'mcp-session-id': alices, ...bearer(intruder) });
      expect(stream.response.status).toBe(404);
      const deleted = await fetch(http.mcpUrl, {
        method: 'DELETE',
        headers: { 'mcp-session-id': alices, ...bearer(intruder) },
      });
      expect(deleted.status).toBe(404);
    }

    expect(await callOn(http, alices, 'alice')).toMatchObject({
      status: 200,
      result: { subject: 'alice', sessionId: alices },
    });
    const stream = await openStream(http.mcpUrl, { 'mcp-session-id': alices, ...bearer('alice') });
    expect(stream.response.status).toBe(200);
    stream.close();
    const deleted = await fetch(http.mcpUrl, {
      method: 'DELETE',
      headers: { 'mcp-session-id': alices, ...bearer('alice') },
    });
    expect(deleted.status).toBe(200);
    expect((await callOn(http, alices, 'alice')).status).toBe(404);
  });

  it('Streamable HTTP: a session opened without auth has no owner and stays usable without auth', async () => {
    const { http } = await setup();
    const anonymous = await openSession(http);
    expect(await callOn(http, anonymous)).toMatchObject({
      status: 200,
      result: { subject: null, sessionId: anonymous },
    });
    // As when only the message endpoint is protected: credentials on it are the caller's own.
    expect(await callOn(http, anonymous, 'bob')).toMatchObject({ status: 200, result: { subject: 'bob' } });
  });

  it.each(['/sse', '/hono/sse'])(
    '%s: message POSTs of another principal or without credentials get 404',
    async (path) => {
      const { http } = await setup();
      const alices = await openSse(http, path, 'alice');
      const endpoint = alices.endpoint as URL;
      for (const intruder of ['bob', undefined]) {
        const response = await post(endpoint, call(7, 'whoami'), bearer(intruder));
        expect(response.status).toBe(404);
        expect(await response.text()).toMatch(/unknown or closed/);
      }
      const accepted = await post(endpoint, call(7, 'whoami'), bearer('alice'));
      expect(accepted.status).toBe(202);
    },
  );
});
