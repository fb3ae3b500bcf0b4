/**
 * Parked calls and stream buffers (issue 13 items 5 and 6), over real HTTP on 127.0.0.1:
 * 2026-07-28 calls waiting for input are capped per server and per principal and belong to the
 * principal that started them; a reader that never reads has its stream closed once more than
 * `limits.maxStreamBufferBytes` waits for it, on every streaming transport, and the server's
 * memory stays flat; `subscriptions/listen` streams are capped.
 */
import { ConsoleLogger } from '@mastra/core/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MCPServer, type MCPServerLimits } from '../../src/index.js';
import { askTool } from '../fixtures/ask-tool.js';
import {
  bearerAuth,
  type HttpHarness,
  modernRequest,
  openStalledStream,
  replyOf,
  type StreamTransport,
  serveHttp,
} from '../helpers.js';
import { heapAndExternal } from '../support/memory.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const ELICITATION = { elicitation: { form: {} } };
/** The headers of a request as `user` (`Bearer <user>`; anonymous without). */
const as = (user?: string): Record<string, string> => (user ? { authorization: `Bearer ${user}` } : {});
const LONG_URI = `file://flood/${'u'.repeat(32 * 1024)}`;

/** What each `ask` run saw: its answer's action, or the message its elicitation threw. */
let outcomes: string[] = [];

async function setup(limits: MCPServerLimits) {
  outcomes = [];
  const mcp = new MCPServer({
    name: 'streams',
    version: '1.0.0',
    limits,
    tools: { ask: askTool((outcome) => outcomes.push(outcome)) },
    resources: { listResources: async () => [], getResourceContent: async () => ({ text: '' }) },
    events: { types: { tick: { description: 'A tick', payloadSchema: z.object({ n: z.number() }) } } },
  });
  const errors = vi.spyOn(ConsoleLogger.prototype, 'error').mockImplementation(() => {});
  cleanups.push(() => errors.mockRestore());
  const http = await serveHttp(mcp, { before: bearerAuth });
  cleanups.push(
    () => mcp.close(),
    () => http.close(),
  );
  const logged = () =>
    errors.mock.calls.map(([message]) => String(message)).filter((line) => line.includes(`'${mcp.id}'`));
  return { mcp, http, logged };
}

interface CallReply {
  result?: {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, unknown>;
    content?: unknown;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

let nextId = 0;
/** One 2026-07-28 `tools/call` of `ask`, as `user` (anonymous without), optionally a retry. */
async function call(
  http: HttpHarness,
  user?: string,
  retry?: { requestState: string; name: string },
  capabilities: Record<string, unknown> = ELICITATION,
) {
  const key = 'elicitation-1';
  const params = {
    name: 'ask',
    arguments: {},
    ...(retry
      ? {
          requestState: retry.requestState,
          inputResponses: { [key]: { action: 'accept', content: { name: retry.name } } },
        }
      : {}),
  };
  const response = await fetch(
    http.mcpUrl,
    modernRequest('tools/call', params, { id: ++nextId, capabilities, headers: as(user) }),
  );
  return replyOf<CallReply>(response);
}

async function park(http: HttpHarness, user?: string): Promise<string> {
  const reply = await call(http, user);
  expect(reply.result?.resultType).toBe('input_required');
  return reply.result?.requestState as string;
}

describe('parked 2026-07-28 calls are bounded (limits.maxSuspendedCalls, maxSuspendedCallsPerPrincipal)', () => {
  it('refuses calls past each budget naming tool, limit and option, and recovers after answers and expiry', async () => {
    const { http } = await setup({
      maxSuspendedCalls: 5,
      maxSuspendedCallsPerPrincipal: 2,
      // Long enough that none expires before the budgets are checked, even on a loaded machine.
      suspendedCallTimeoutMs: 5000,
    });
    const alice = [await park(http, 'alice'), await park(http, 'alice')];
    const perPrincipal = await call(http, 'alice');
    expect(perPrincipal.result).toBeUndefined();
    expect(perPrincipal.error).toMatchObject({
      code: -32000,
      data: { tool: 'ask', limit: 'maxSuspendedCallsPerPrincipal' },
    });
    expect(perPrincipal.error?.message).toMatch(
      /^Tool 'ask' cannot wait for input: 2 calls of this caller are already waiting \(limits\.maxSuspendedCallsPerPrincipal\)/,
    );
    // Anonymous callers share one budget.
    await park(http);
    await park(http);
    expect((await call(http)).error?.data).toMatchObject({ limit: 'maxSuspendedCallsPerPrincipal' });
    await park(http, 'bob');
    const global = await call(http, 'carol');
    expect(global.error?.message).toMatch(
      /5 calls are already waiting on this server \(limits\.maxSuspendedCalls\)/,
    );
    // Each refused run was told why through its elicitation, and ended.
    expect(outcomes).toHaveLength(3);
    for (const outcome of outcomes) expect(outcome).toMatch(/cannot wait for input/);

    // An answer frees a place.
    const done = await call(http, 'alice', { requestState: alice[0] as string, name: 'Alice' });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'hello Alice' }]);
    await park(http, 'carol');
    expect((await call(http, 'dave')).error?.data).toMatchObject({ limit: 'maxSuspendedCalls' });

    // Expiry frees them all: every waiting run sees `cancel`.
    outcomes = [];
    await eventually('the parked calls to expire', () => outcomes.length === 5, 20_000);
    expect(outcomes).toEqual(['cancel', 'cancel', 'cancel', 'cancel', 'cancel']);
    for (const user of ['alice', 'alice', 'bob', 'carol', undefined]) await park(http, user);
  });

  it('holds no place for a call refused because its client did not declare elicitation', async () => {
    const { http } = await setup({ maxSuspendedCallsPerPrincipal: 3, suspendedCallTimeoutMs: 60_000 });
    // Before: each -32021 left its run parked until suspendedCallTimeoutMs, and the fourth,
    // correct call was refused with "3 calls of this caller are already waiting".
    for (const capabilities of [{}, {}, { elicitation: { url: {} } }, {}]) {
      const refused = await call(http, undefined, undefined, capabilities);
      expect(refused.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
      expect(refused.error?.message).toMatch(/tool 'ask' asked for input; declare elicitation/);
    }
    // Each refused run was told through its elicitation, and ended.
    await eventually('the refused runs to end', () => outcomes.length === 4);
    for (const outcome of outcomes) expect(outcome).toMatch(/do not declare the required capability/);
    const states = [await park(http), await park(http), await park(http)];
    expect(states).toHaveLength(3);
  });

  it("refuses another principal's retry as foreign state and leaves the call to its owner", async () => {
    const { http } = await setup({});
    const state = await park(http, 'alice');
    for (const thief of ['bob', undefined]) {
      const stolen = await call(http, thief, { requestState: state, name: 'Mallory' });
      expect(stolen.error).toMatchObject({ code: -32602 });
      expect(stolen.error?.message).toMatch(/not waiting any more for this caller/);
    }
    expect(outcomes).toEqual([]);
    const done = await call(http, 'alice', { requestState: state, name: 'Alice' });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'hello Alice' }]);
    expect(outcomes).toEqual(['accept Alice']);
  });
});

/** A stream opened over a raw socket whose answer is never read past its first bytes. */
async function stalledReader(http: HttpHarness, transport: StreamTransport) {
  const reader = await openStalledStream(http, transport, LONG_URI);
  cleanups.push(() => reader.socket.destroy());
  expect(reader.first).toMatch(/^HTTP\/1\.1 200/);
  return reader;
}

describe('a reader that never reads has its stream closed past limits.maxStreamBufferBytes', () => {
  const READERS = 2;
  const MESSAGES = 640;
  const PAYLOAD = 'x'.repeat(32 * 1024);

  it.each<StreamTransport>(['legacy SSE', 'Hono SSE', 'legacy Streamable HTTP', 'subscriptions/listen'])(
    '%s: the stream is closed, the closure logged naming it, and memory stays flat',
    async (transport) => {
      const { mcp, http, logged } = await setup({ maxStreamBufferBytes: 64 * 1024, maxOpenStreams: READERS });
      const readers = await Promise.all(
        Array.from({ length: READERS }, () => stalledReader(http, transport)),
      );
      const before = heapAndExternal();
      for (let i = 0; i < MESSAGES; i++) {
        // Not awaited: on Hono a send waits for its reader.
        if (transport === 'subscriptions/listen') void mcp.resources.notifyUpdated({ uri: LONG_URI });
        else void mcp.sendLoggingMessage({ level: 'info', data: PAYLOAD });
        if (i % 32 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const closures = await eventually(
        'each stalled stream to be closed',
        () => {
          const lines = logged().filter((line) => line.includes('limits.maxStreamBufferBytes'));
          return lines.length === READERS && lines;
        },
        10_000,
      );
      // ~40 MiB were sent to readers that read nothing; unbounded, well over half of it stays held.
      // The closed streams' writes settle within a few turns; until then they still hold their data.
      await eventually(
        'the closed streams to let their data go',
        () => heapAndExternal() - before < 8 * 2 ** 20,
      );
      for (const line of closures) expect(line).toMatch(/more than 65536 bytes unread/);

      // Each stream is really gone, and what it held with it.
      const sessionIds = readers.map(({ sessionId }) => sessionId as string);
      if (transport === 'legacy SSE' || transport === 'Hono SSE') {
        const path = transport === 'legacy SSE' ? '/message' : '/hono/message';
        for (const id of sessionIds) {
          expect(closures.join('\n')).toContain(`SSE session '${id}' closed`);
          const post = await fetch(`${http.base}${path}?sessionId=${id}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
          });
          expect(post.status).toBe(404);
        }
      } else if (transport === 'legacy Streamable HTTP') {
        for (const id of sessionIds) {
          expect(closures.join('\n')).toContain(`GET stream of legacy session '${id}' closed`);
          // A session has one GET stream at a time: a second is accepted only once the first is gone.
          const controller = new AbortController();
          const again = await fetch(http.mcpUrl, {
            headers: {
              accept: 'text/event-stream',
              'mcp-session-id': id,
              'mcp-protocol-version': '2025-11-25',
            },
            signal: controller.signal,
          });
          expect(again.status).toBe(200);
          controller.abort();
        }
      } else {
        expect(closures[0]).toContain('\'subscriptions/listen\' stream (request id "listen") closed');
        // Both places (limits.maxOpenStreams = 2) are free again.
        const listens = await Promise.all([openStream(http), openStream(http)]);
        expect(listens.map(({ response }) => response.status)).toEqual([200, 200]);
        for (const { controller } of listens) controller.abort();
      }
    },
  );
});

const STREAM_PARAMS = {
  'subscriptions/listen': { notifications: { toolsListChanged: true } },
  'events/stream': { name: 'tick', arguments: {}, cursor: null },
};

/** A `subscriptions/listen` or `events/stream` stream held open until its controller aborts. */
async function openStream(
  http: HttpHarness,
  method: keyof typeof STREAM_PARAMS = 'subscriptions/listen',
  id: number | string = ++nextId,
) {
  const controller = new AbortController();
  cleanups.push(() => controller.abort());
  const response = await fetch(
    http.mcpUrl,
    modernRequest(method, STREAM_PARAMS[method], {
      id,
      capabilities: ELICITATION,
      signal: controller.signal,
    }),
  );
  return { response, controller };
}

describe('open streams are capped (limits.maxOpenStreams)', () => {
  it('refuses listen and events streams past the cap with 503 and a JSON-RPC error, and frees a place when one ends', async () => {
    const { http } = await setup({ maxOpenStreams: 4 });
    const open = [];
    for (const method of ['subscriptions/listen', 'events/stream'] as const) {
      for (let i = 0; i < 2; i++) open.push(await openStream(http, method));
    }
    expect(open.map(({ response }) => response.status)).toEqual([200, 200, 200, 200]);
    const events = open[2]?.response.body?.getReader();
    const first = new TextDecoder().decode((await events?.read())?.value);
    expect(first).toContain('notifications/events/active');

    const flood = await Promise.all(
      Array.from({ length: 20 }, (_, i) => openStream(http, 'subscriptions/listen', `flood-${i}`)),
    );
    for (const [i, { response }] of flood.entries()) {
      expect(response.status).toBe(503);
      const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
      expect(body.id).toBe(`flood-${i}`);
      expect(body.error.code).toBe(-32000);
      expect(body.error.message).toBe(
        "'subscriptions/listen' refused. Server busy: 4 'subscriptions/listen' and 'events/stream' streams " +
          'are open, the most limits.maxOpenStreams allows; retry later, or raise limits.maxOpenStreams',
      );
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    const eventsRefused = await openStream(http, 'events/stream', 'one-more');
    expect(eventsRefused.response.status).toBe(503);
    expect(((await eventsRefused.response.json()) as { error: { message: string } }).error.message).toMatch(
      /^'events\/stream' refused\. Server busy: 4 /,
    );

    // However a stream ends (here the client goes away), its place is freed.
    open[2]?.controller.abort();
    await eventually(
      'a stream to be admitted in the freed place',
      async () => {
        const attempt = await openStream(http);
        if (attempt.response.status === 200) return true;
        attempt.controller.abort();
        return false;
      },
      5000,
    );
  });
});
