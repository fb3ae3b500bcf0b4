/**
 * MCPClient's lifecycle under hanging servers and careless scripts (issue 13, items 11, 12, 14):
 * a per-server deadline aborts the work it gives up on; disconnect() returns promptly in every
 * state and leaves no child process; a script that forgets disconnect() still ends, and its stdio
 * server with it; concurrent list-changed registrations share one `subscriptions/listen` stream.
 * Real stdio children and real HTTP on 127.0.0.1; every connection keeps the default 60 s
 * timeout, so nothing here passes by timing out.
 */
import { spawn } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  MCPOAuthClientProvider,
  MCPServer,
  type MCPServerConfig,
} from '../../src/index.js';
import {
  faultStdio,
  leftRunning,
  pidRecorder,
  reap,
  run,
  sdkStdio,
  serveSdkHttp,
  survivors,
} from '../fixtures/client-harness.js';
import { eventsServer } from '../fixtures/events.js';
import { prompts, resources, weatherTool } from '../fixtures/tools.js';
import { connectHttp, type Era, newClient, serveHttp, serveReplaceable } from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { rejectionOf, textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

/**
 * Far below the connections' own 60 s timeout (what disconnect() waited for before), far above
 * the 3 s a prompt disconnect() takes at most, even on a busy machine.
 */
const DEADLINE_MS = 15_000;

const cleanups: Array<() => Promise<unknown>> = [];
/** Every child pid a test learned of; killed after the test if still alive (never an assertion). */
const children = new Set<number>();
let nextId = 0;

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  reap(await survivors(children, 500));
  children.clear();
});

function client(servers: Record<string, MastraMCPServerDefinition>): MCPClient {
  const mcp = new MCPClient({
    id: `lifecycle-${process.pid}-${++nextId}`,
    registerProcessHooks: false,
    servers,
  });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

/** `promise`, or a rejection naming `what` (read when it is late) once `ms` passed. */
async function within<T>(promise: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const name = () => (typeof what === 'string' ? what : what());
    timer = setTimeout(() => reject(new Error(`${name()} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An HTTP front on 127.0.0.1: serves `server` (if any) until `hang` says otherwise, then accepts
 * requests and never answers them. `open` counts the held requests the client has not given up.
 */
async function front(server?: MCPServer, hang: (req: IncomingMessage) => boolean = () => true) {
  const state = { hanging: server === undefined, received: 0, open: 0 };
  const listener = http.createServer((req, res) => {
    if (state.hanging && hang(req)) {
      state.received++;
      state.open++;
      res.on('close', () => state.open--);
      return;
    }
    void server?.startHTTP({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), httpPath: '/mcp', req, res });
  });
  await listenLocal(listener);
  const { port } = listener.address() as AddressInfo;
  cleanups.push(async () => {
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
  return Object.assign(state, { url: new URL(`http://127.0.0.1:${port}/mcp`) });
}

function plainServer(extra: Partial<MCPServerConfig> = {}): MCPServer {
  const server = new MCPServer({ name: 'lifecycle', version: '1.0.0', tools: { weatherTool }, ...extra });
  cleanups.push(() => server.close());
  return server;
}

describe('a per-server deadline (perServerTimeoutMs) aborts the work it gives up on', () => {
  it('a stdio server that never answers the probe: its child is killed without waiting for disconnect()', async () => {
    const log = pidRecorder(children);
    // The default revision mode: the server/discover probe in place, then the legacy fallback.
    const mcp = client({ hang: faultStdio('fault-hang', ['--ignore-sigterm'], { logger: log.logger }) });

    const { errors } = await mcp.listToolsWithErrors({ perServerTimeoutMs: 1000 });
    expect(errors.hang).toMatch(
      /MCP server 'hang' \(command '.*'\) did not answer within 1000 ms \(perServerTimeoutMs\)/,
    );
    expect(log.pids.size).toBe(1);
    expect(await leftRunning(log.pids, log.records, 4000)).toEqual([]);
    await within(mcp.disconnect(), DEADLINE_MS, 'disconnect()');
  });

  it('an HTTP server that never answers the connect: the request is abandoned, a later connect starts afresh', async () => {
    const hanging = await front(plainServer());
    hanging.hanging = true;
    const mcp = client({ hang: { url: hanging.url } });

    const { errors } = await mcp.listToolsWithErrors({ perServerTimeoutMs: 1000 });
    expect(errors.hang).toMatch(/'hang' .* did not answer within 1000 ms/);
    expect(hanging.received).toBeGreaterThan(0);
    await eventually('the connect request to be abandoned', () => hanging.open === 0, 4000);

    hanging.hanging = false;
    const again = await mcp.listToolsWithErrors({ perServerTimeoutMs: 5000 });
    expect(again.errors).toEqual({});
    expect(Object.keys(again.tools)).toEqual(['hang_weatherTool']);
    await within(mcp.disconnect(), DEADLINE_MS, 'disconnect()');
  });

  it('a listing that never answers is cancelled; the connection stays usable', async () => {
    const hanging = await front(plainServer(), (req) => req.headers['mcp-method'] === 'tools/list');
    const mcp = client({ remote: { url: hanging.url, protocolVersion: '2026-07-28' } });
    await mcp.reconnectServer('remote');
    hanging.hanging = true;

    const { errors } = await mcp.listToolsWithErrors({ perServerTimeoutMs: 1000 });
    expect(errors.remote).toMatch(/'remote' at http:\/\/\S+ did not answer within 1000 ms/);
    expect(hanging.received).toBe(1);
    await eventually('the tools/list request to be abandoned', () => hanging.open === 0, 4000);

    hanging.hanging = false;
    const again = await mcp.listToolsWithErrors({ perServerTimeoutMs: 5000 });
    expect(again.errors).toEqual({});
    expect(Object.keys(again.tools)).toEqual(['remote_weatherTool']);
  });
});

describe('disconnect() returns promptly and leaves no child process, in every state', () => {
  it('while connecting to a hanging stdio and a hanging HTTP server', async () => {
    const log = pidRecorder(children);
    const hanging = await front();
    const mcp = client({
      stdio: faultStdio('fault-hang', ['--ignore-sigterm'], { logger: log.logger }),
      http: { url: hanging.url },
    });
    const listing = mcp.listToolsWithErrors();
    await eventually('both connects under way', () => log.pids.size === 1 && hanging.open > 0, 10_000);

    await within(mcp.disconnect(), DEADLINE_MS, 'disconnect()');
    const { errors } = await within(listing, DEADLINE_MS, 'the listing');
    expect(Object.keys(errors).sort()).toEqual(['http', 'stdio']);
    expect(await leftRunning(log.pids, log.records, 1500)).toEqual([]);
    await eventually('the HTTP connect to be abandoned', () => hanging.open === 0, 2000);
  });

  it('with a tool call in flight on a stdio and an HTTP server', async () => {
    const log = pidRecorder(children);
    const sdkHttp = await serveSdkHttp();
    cleanups.push(() => sdkHttp.close());
    const mcp = client({ stdio: sdkStdio({ logger: log.logger }), http: { url: sdkHttp.url } });
    const tools = await mcp.listTools();
    const calls = [run(tools.stdio_sleep, { ms: 60_000 }), run(tools.http_sleep, { ms: 60_000 })].map(
      (call) => rejectionOf(call),
    );
    await eventually(
      'both calls running on their servers',
      () => sdkHttp.sleeping === 1 && log.records.some((entry) => entry.message === 'sleeping'),
      10_000,
    );

    await within(mcp.disconnect(), DEADLINE_MS, 'disconnect()');
    const [stdioFailure, httpFailure] = await within(Promise.all(calls), DEADLINE_MS, 'the calls');
    expect((stdioFailure as Error | undefined)?.message).toMatch(/'sleep' on server 'stdio'/);
    expect((httpFailure as Error | undefined)?.message).toMatch(/'sleep' on server 'http'/);
    expect(await leftRunning(log.pids, log.records, 1500)).toEqual([]);
  });

  it('while reconnecting to servers that now hang', async () => {
    const log = pidRecorder(children);
    const hanging = await front(plainServer());
    const stdio = sdkStdio({ logger: log.logger });
    const mcp = client({ stdio, http: { url: hanging.url } });
    await mcp.listTools();
    const first = [...log.pids];
    // The next process the stdio server starts, and every HTTP request from now on, hang.
    Object.assign(stdio, faultStdio('fault-hang', ['--ignore-sigterm']));
    hanging.hanging = true;
    const reconnects = [mcp.reconnectServer('stdio'), mcp.reconnectServer('http')].map((work) =>
      rejectionOf(work),
    );
    await eventually('both reconnects under way', () => log.pids.size === 2 && hanging.open > 0, 10_000);
    expect(log.pids.has(first[0] as number)).toBe(true);

    await within(mcp.disconnect(), DEADLINE_MS, 'disconnect()');
    const failures = await within(Promise.all(reconnects), DEADLINE_MS, 'the reconnects');
    expect(failures.every((failure) => failure instanceof Error)).toBe(true);
    expect(await leftRunning(log.pids, log.records, 1500)).toEqual([]);
  });

  it('while an OAuth authorization is pending', async () => {
    const hanging = await front();
    const probe = http.createServer();
    await listenLocal(probe);
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const redirectUrl = `http://127.0.0.1:${port}/oauth/callback`;
    const mcp = client({
      secured: {
        url: hanging.url,
        authProvider: new MCPOAuthClientProvider({
          redirectUrl,
          clientMetadata: { redirect_uris: [redirectUrl], client_name: 'lifecycle test' },
          clientInformation: { client_id: 'registered-client' },
        }),
      },
    });
    const flow = rejectionOf(mcp.authenticate('secured'));
    await eventually('the flow to reach the server', () => hanging.open > 0, 10_000);

    await within(mcp.disconnect(), DEADLINE_MS, 'disconnect()');
    expect(((await within(flow, DEADLINE_MS, 'authenticate()')) as Error | undefined)?.message).toMatch(
      /'secured'.*cancelled/,
    );
    await eventually('the connect to be abandoned', () => hanging.open === 0, 2000);
    // The one-shot callback server is closed too.
    expect(await rejectionOf(fetch(redirectUrl))).toBeInstanceOf(Error);
  });

  it('with an events subscription open and another one subscribing to a hanging server', async () => {
    const server = eventsServer({ heartbeatIntervalMs: 50 });
    cleanups.push(() => server.close());
    const served = await serveHttp(server);
    cleanups.push(() => served.close());
    const hanging = await front();
    const mcp = client({
      events: { url: served.mcpUrl, protocolVersion: '2026-07-28' },
      late: { url: hanging.url, protocolVersion: '2026-07-28' },
    });
    const open = await mcp.events.subscribe('events', 'alert', {}, { delivery: 'push' });
    const pending = rejectionOf(mcp.events.subscribe('late', 'alert'));
    await eventually('the second subscribe to reach its server', () => hanging.open > 0, 10_000);
    const next = open[Symbol.asyncIterator]().next();

    await within(mcp.disconnect(), DEADLINE_MS, 'disconnect()');
    expect(await within(next, DEADLINE_MS, 'the open iterator')).toEqual({ done: true, value: undefined });
    expect(await within(pending, DEADLINE_MS, 'the pending subscribe')).toBeInstanceOf(Error);
    await eventually('the hanging subscribe to be abandoned', () => hanging.open === 0, 2000);
  });
});

describe('a script that forgets disconnect()', () => {
  /** Runs the fixture script; resolves with its exit code and output, or rejects after `ms`. */
  function script(args: string[], ms: number) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/forgets-disconnect.ts', ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const server = /server=(\d+)/.exec(stdout)?.[1];
      if (server) children.add(Number(server));
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<{ code: number | null; stdout: string }>((resolve) =>
      child.on('exit', (code) => resolve({ code, stdout })),
    );
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    return within(
      exited,
      ms,
      () => `the script (stdout ${JSON.stringify(stdout)}, stderr ${JSON.stringify(stderr)})`,
    );
  }

  it('ends by itself once nothing is in flight, and its stdio server (which outlives stdin) with it', async () => {
    const { code, stdout } = await script([], 30_000);
    expect(code).toBe(0);
    expect(stdout).toContain('raw ok: hi');
    const server = Number(/server=(\d+)/.exec(stdout)?.[1]);
    expect(server).toBeGreaterThan(0);
    // Only the beforeExit hook's disconnect() ends this server: it ignores the end of its stdin.
    expect(await survivors([server], 3000)).toEqual([]);
  }, 40_000);

  it('does not end while a call is still in flight', async () => {
    const { code, stdout } = await script(['--in-flight'], 30_000);
    expect(code).toBe(0);
    expect(stdout).toContain('slept 1500');
    const server = Number(/server=(\d+)/.exec(stdout)?.[1]);
    expect(server).toBeGreaterThan(0);
    expect(await survivors([server], 3000)).toEqual([]);
  }, 40_000);
});

describe('list-changed registrations share one subscriptions/listen stream per server', () => {
  /** A 2026-07-28 MCPServer over HTTP that counts the listen streams open on it. */
  async function upstream() {
    const server = plainServer({ resources, prompts });
    const streams = { open: 0, opened: 0 };
    const count = (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers['mcp-method'] !== 'subscriptions/listen') return;
      streams.open++;
      streams.opened++;
      res.on('close', () => streams.open--);
    };
    const served = await serveHttp(server, { before: count });
    cleanups.push(() => served.close());
    return { server, streams, url: served.mcpUrl };
  }

  /**
   * Notifications on the one listen stream arrive in the order they were sent, so once `marker`
   * has fired, every notification sent before it (and any duplicate of one) has arrived too.
   */
  async function sendThenMark(
    send: () => Promise<void>,
    marker: { fired: () => boolean; send: () => Promise<void> },
  ) {
    await send();
    await marker.send();
    await eventually('the marker notification', marker.fired, 5000);
  }

  it('concurrent registrations: each handler fires once per change, and one stream is open', async () => {
    const { server, streams, url } = await upstream();
    const mcp = client({ remote: { url, protocolVersion: '2026-07-28' } });
    await mcp.listTools();
    const fired = { tools: [0, 0, 0], prompts: 0, resources: 0 };
    await Promise.all([
      ...fired.tools.map((_, i) =>
        mcp.tools.onListChanged('remote', () => {
          fired.tools[i] = (fired.tools[i] ?? 0) + 1;
        }),
      ),
      mcp.prompts.onListChanged('remote', () => fired.prompts++),
      mcp.resources.onListChanged('remote', () => fired.resources++),
    ]);

    await sendThenMark(() => server.toolActions.notifyListChanged(), {
      send: () => server.prompts.notifyListChanged(),
      fired: () => fired.prompts === 1,
    });
    expect(fired.tools).toEqual([1, 1, 1]);
    await sendThenMark(() => server.resources.notifyListChanged(), {
      send: () => server.toolActions.notifyListChanged(),
      fired: () => fired.tools.every((n) => n === 2),
    });
    expect(fired).toEqual({ tools: [2, 2, 2], prompts: 1, resources: 1 });
    expect(streams.open).toBe(1);
  });

  it.each(['legacy', 'modern'] as const)(
    "a proxy gateway's %s caller gets one notification per upstream change",
    async (era: Era) => {
      const { server, streams, url } = await upstream();
      const mcp = client({ remote: { url, protocolVersion: '2026-07-28' } });
      const proxy = (await mcp.toMCPServerProxies()).remote;
      if (!proxy) throw new Error('no proxy');
      cleanups.push(() => proxy.close());
      const gateway = await serveReplaceable(() => proxy as unknown as MCPServer);
      cleanups.push(() => gateway.close());
      const caller: Client = await connectHttp(gateway.mcpUrl, era, newClient(era));
      cleanups.push(() => caller.close());
      const changed = { tools: 0, prompts: 0 };
      caller.setNotificationHandler('notifications/tools/list_changed', () => {
        changed.tools++;
      });
      caller.setNotificationHandler('notifications/prompts/list_changed', () => {
        changed.prompts++;
      });
      if (era === 'modern') await caller.listen({ toolsListChanged: true, promptsListChanged: true });
      expect(textOf(await caller.callTool({ name: 'weatherTool', arguments: { location: 'Oslo' } }))).toMatch(
        /Oslo/,
      );

      await sendThenMark(() => server.toolActions.notifyListChanged(), {
        send: () => server.prompts.notifyListChanged(),
        fired: () => changed.prompts === 1,
      });
      expect(changed.tools).toBe(1);
      expect(streams.open).toBe(1);
    },
  );
});
