/**
 * MCPClient while HTTP servers go away (issue 27): a server restarted for real (an MCPServer
 * closed and listening again on the same port), a legacy session the server answers 410 Gone, and
 * answer streams a raw node:http front cuts before the answer. Requests that never reached the
 * server, or never got an answer and are safe to repeat, are sent again; the others fail at once,
 * naming the server. Each case runs on every transport it exists on: 2026-07-28 ("modern") and
 * 2025-11-25 ("legacy") Streamable HTTP, and legacy HTTP+SSE.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createTool } from '@mastra/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type LogMessage, type MastraMCPServerDefinition, MCPClient, MCPServer } from '../../src/index.js';
import { clientsDisconnectedAfterEach, run } from '../fixtures/client-harness.js';
import { listenLocal } from '../support/net.js';
import { eventually } from '../support/wait.js';

type Transport = 'modern' | 'legacy' | 'legacy SSE';

const { clients } = clientsDisconnectedAfterEach();
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** What one server "process" did: the tools it ran, and a gate `look` waits on while set. */
interface ProcessState {
  tag: string;
  ran: string[];
  entered: number;
  gate?: Promise<void>;
}

/** An MCPServer whose tools report the process: `record` (no annotations) and `look` (readOnlyHint). */
function serverProcess(state: ProcessState): MCPServer {
  const output = z.object({ instance: z.string(), n: z.number() });
  return new MCPServer({
    id: `recovery-${state.tag}`,
    name: 'recovery',
    version: '1.0.0',
    tools: {
      record: createTool({
        id: 'record',
        description: 'Records a call.',
        inputSchema: z.object({ n: z.number() }),
        outputSchema: output,
        execute: async ({ n }) => {
          state.ran.push(`record ${n}`);
          return { instance: state.tag, n };
        },
      }),
      look: createTool({
        id: 'look',
        description: 'Reads, changing nothing.',
        inputSchema: z.object({ n: z.number() }),
        outputSchema: output,
        mcp: { annotations: { readOnlyHint: true } },
        execute: async ({ n }) => {
          state.entered++;
          await state.gate;
          state.ran.push(`look ${n}`);
          return { instance: state.tag, n };
        },
      }),
    },
  });
}

/** A server process on 127.0.0.1 that can be stopped and started again on the same port. */
class Restartable {
  port = 0;
  current: ProcessState | undefined;
  private stop: (() => Promise<void>) | undefined;

  async start(tag: string): Promise<ProcessState> {
    const state: ProcessState = { tag, ran: [], entered: 0 };
    const server = serverProcess(state);
    const listener = await server.listen({ port: this.port });
    this.port = Number(listener.url.port);
    this.current = state;
    this.stop = async () => {
      await listener.close();
      await server.close();
    };
    return state;
  }

  /** Stops listening; requests in flight finish first (the listener's closeTimeoutMs). */
  async halt(): Promise<void> {
    const stop = this.stop;
    this.stop = undefined;
    await stop?.();
  }

  definition(transport: Transport): MastraMCPServerDefinition {
    const base = `http://127.0.0.1:${this.port}`;
    if (transport === 'legacy SSE') return { url: new URL(`${base}/sse`), transport: 'sse' };
    return {
      url: new URL(`${base}/mcp`),
      protocolVersion: transport === 'modern' ? '2026-07-28' : 'legacy',
    };
  }
}

async function restartable(first = 'A'): Promise<{ server: Restartable; state: ProcessState }> {
  const server = new Restartable();
  const state = await server.start(first);
  cleanups.push(() => server.halt());
  return { server, state };
}

function client(definition: MastraMCPServerDefinition, logs: LogMessage[] = []): MCPClient {
  const mcp = new MCPClient({
    id: `recovery-${process.pid}-${clients.length}-${Math.random()}`,
    registerProcessHooks: false,
    timeout: 20_000,
    servers: { s: { ...definition, logger: (entry) => logs.push(entry) } },
  });
  clients.push(mcp);
  return mcp;
}

async function toolsOf(mcp: MCPClient) {
  const { tools, errors } = await mcp.listToolsWithErrors();
  expect(errors).toEqual({});
  return {
    record: (n: number) => run(tools.s_record, { n }) as Promise<{ instance: string; n: number }>,
    look: (n: number) => run(tools.s_look, { n }) as Promise<{ instance: string; n: number }>,
  };
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves once a request to `port` is refused: nothing listens there, and no pooled socket is left. */
function refusedAt(port: number): Promise<unknown> {
  return eventually(`port ${port} to refuse connections`, () =>
    fetch(`http://127.0.0.1:${port}/health`).then(
      () => false,
      (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    ),
  );
}

describe('legacy HTTP+SSE: the server restarts', () => {
  it('a read-only call in flight is answered by the new server; later calls run once each', async () => {
    const { server, state: a } = await restartable('A');
    const mcp = client(server.definition('legacy SSE'));
    const tools = await toolsOf(mcp);
    expect(await tools.record(1)).toEqual({ instance: 'A', n: 1 });

    const held = gate();
    a.gate = held.promise;
    const inFlight = tools.look(2);
    await eventually('the call to reach server A', () => a.entered === 1);
    await server.halt();
    const b = await server.start('B');
    // A's answer never comes (its SSE stream closed with it): the read is sent again, to B.
    expect(await inFlight).toEqual({ instance: 'B', n: 2 });
    for (const n of [3, 4, 5]) expect(await tools.record(n)).toEqual({ instance: 'B', n });
    held.open();
    expect(a.ran).toEqual(['record 1']);
    expect(b.ran).toEqual(['look 2', 'record 3', 'record 4', 'record 5']);
  });
});

describe('410 Gone for a stale legacy session', () => {
  /** A front that answers 410 to every request of a session in `gone`, and relays the rest to `port`. */
  async function goneFront(port: number) {
    const gone = new Set<string>();
    const sessions: string[] = [];
    const front = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const session =
        (req.headers['mcp-session-id'] as string | undefined) ?? url.searchParams.get('sessionId');
      if (session && !sessions.includes(session)) sessions.push(session);
      if (session && gone.has(session)) {
        res.writeHead(410, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }),
        );
        return;
      }
      relay(port, req, res);
    });
    const listener = await listenLocal(front);
    cleanups.push(listener.close);
    return { base: listener.url, gone, sessions };
  }

  it.each([
    ['legacy Streamable HTTP', '/mcp'],
    ['legacy HTTP+SSE', '/sse'],
  ])('%s: a new session, and the call sent once more (it ran once)', async (_, path) => {
    const { server, state } = await restartable();
    const front = await goneFront(server.port);
    const url = new URL(`${front.base}${path}`);
    const mcp = client(path === '/sse' ? { url, transport: 'sse' } : { url, protocolVersion: 'legacy' });
    const tools = await toolsOf(mcp);
    expect(await tools.record(1)).toEqual({ instance: 'A', n: 1 });
    const [first] = front.sessions;
    front.gone.add(first as string);

    expect(await tools.record(2)).toEqual({ instance: 'A', n: 2 });
    expect(await tools.record(3)).toEqual({ instance: 'A', n: 3 });
    expect(state.ran).toEqual(['record 1', 'record 2', 'record 3']);
    expect(front.sessions).toHaveLength(2);
  });
});

/** Relays one request to the server on `port` as it is, streaming the answer back. */
function relay(port: number, req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
  const upstream = http.request(
    { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  res.on('close', () => upstream.destroy());
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

describe('an answer stream cut before the answer (Streamable HTTP)', () => {
  type Cut = 'ends' | 'breaks';

  /**
   * A raw front over the server on `port`: a `tools/call` of a tool in `cuts` (as many times as
   * its count says) is relayed, run there, and answered with an event stream that ends, or whose
   * socket is destroyed, before the answer. Every `tools/call` it receives is noted in `calls`.
   */
  async function cuttingFront(port: number, how: Cut) {
    const cuts = new Map<string, number>();
    const calls: string[] = [];
    const front = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const message = body.length
        ? (JSON.parse(String(body)) as { method?: string; params?: { name?: string } })
        : {};
      const tool = message.method === 'tools/call' ? message.params?.name : undefined;
      if (tool) calls.push(tool);
      const left = tool ? (cuts.get(tool) ?? 0) : 0;
      if (!tool || left === 0) return relay(port, req, res, body);
      cuts.set(tool, left - 1);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': the answer follows\n\n');
      // The tool runs at the server; its answer is never passed on.
      await fetch(`http://127.0.0.1:${port}${req.url}`, {
        method: 'POST',
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length'),
        ) as Record<string, string>,
        body,
      }).then((answer) => answer.text());
      if (how === 'ends') res.end();
      else res.socket?.destroy();
    });
    const listener = await listenLocal(front);
    cleanups.push(listener.close);
    return { url: new URL(`${listener.url}/mcp`), cuts, calls };
  }

  const cases: Array<['modern' | 'legacy', Cut]> = [
    ['modern', 'ends'],
    ['modern', 'breaks'],
    ['legacy', 'ends'],
    ['legacy', 'breaks'],
  ];

  it.each(cases)('%s, the stream %s: a read-only call is sent again and answered', async (era, how) => {
    const { server, state } = await restartable();
    const front = await cuttingFront(server.port, how);
    const mcp = client({ url: front.url, protocolVersion: era === 'modern' ? '2026-07-28' : 'legacy' });
    const tools = await toolsOf(mcp);
    front.cuts.set('look', 1);
    expect(await tools.look(1)).toEqual({ instance: 'A', n: 1 });
    expect(front.calls).toEqual(['look', 'look']);
    expect(state.ran).toEqual(['look 1', 'look 1']);
  });

  it.each(cases)(
    '%s, the stream %s: a call not safe to repeat fails at once, naming the server',
    async (era, how) => {
      const { server, state } = await restartable();
      const front = await cuttingFront(server.port, how);
      const mcp = client({ url: front.url, protocolVersion: era === 'modern' ? '2026-07-28' : 'legacy' });
      const tools = await toolsOf(mcp);
      front.cuts.set('record', 1);
      const failure = await tools.record(1).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failure).toMatch(
        /the connection to MCP server 's' closed mid-answer .*tools\/call 'record' may have reached the server, so it was not sent again/,
      );
      expect(front.calls).toEqual(['record']);
      expect(state.ran).toEqual(['record 1']);
      // The connection goes on.
      expect(await tools.record(2)).toEqual({ instance: 'A', n: 2 });
    },
  );
});

describe('ten concurrent calls during a restart', () => {
  const transports: Transport[] = ['modern', 'legacy', 'legacy SSE'];

  it.each(transports)(
    '%s: calls in flight and calls made while it is down all get answers',
    async (transport) => {
      const { server, state: a } = await restartable('A');
      const mcp = client(server.definition(transport));
      const tools = await toolsOf(mcp);
      const held = gate();
      a.gate = held.promise;
      const early = Promise.allSettled([0, 1, 2, 3, 4].map((n) => tools.look(n)));
      await eventually('five calls to reach server A', () => a.entered === 5);
      // A stops listening at once; the calls in flight get the listener's closeTimeoutMs to finish.
      const halted = server.halt();
      const late = Promise.allSettled([5, 6, 7, 8, 9].map((n) => tools.look(n)));
      held.open();
      await halted;
      const b = await server.start('B');
      const answers = [...(await early), ...(await late)];
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill('fulfilled'));
      const values = answers.map(
        (answer) => (answer as PromiseFulfilledResult<{ instance: string; n: number }>).value,
      );
      expect(values.map(({ n }) => n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // Made while A was stopping: none reached A.
      expect(values.slice(5).map(({ instance }) => instance)).toEqual(Array(5).fill('B'));
      expect(b.ran.length).toBeGreaterThanOrEqual(5);
    },
  );

  it.each(transports)(
    '%s: calls refused while the server is down ride the reconnect, each run once',
    async (transport) => {
      const { server } = await restartable('A');
      const logs: LogMessage[] = [];
      const mcp = client(server.definition(transport), logs);
      const tools = await toolsOf(mcp);
      expect(await tools.record(-1)).toEqual({ instance: 'A', n: -1 });
      await server.halt();
      await refusedAt(server.port);

      const calls = Promise.allSettled(Array.from({ length: 10 }, (_, n) => tools.record(n)));
      await eventually('the client to find the server refusing', () =>
        logs.some((entry) => /refused/.test(entry.message)),
      );
      const b = await server.start('B');
      expect(await calls).toEqual(
        Array.from({ length: 10 }, (_, n) => ({ status: 'fulfilled', value: { instance: 'B', n } })),
      );
      expect([...b.ran].sort()).toEqual(Array.from({ length: 10 }, (_, n) => `record ${n}`).sort());
    },
  );
});
