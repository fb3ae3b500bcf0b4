/**
 * tools/call benchmark: MCPServer against the raw MCP SDK and a bare `node:http` echo, in one run,
 * side by side.
 *
 *   npm run bench                                  # every scenario, both load drivers, one round
 *   npm run bench -- --rounds 3                    # three interleaved rounds, medians reported
 *   npm run bench -- --only sdk-http-modern,mcp-http-modern --driver raw --cpu-prof
 *
 * Every server runs in its own child process (this file with `--serve <target>`), so on a
 * two-core machine the load generator and the server each get a core. HTTP servers bind
 * 127.0.0.1 on an ephemeral port; stdio servers are spawned by the SDK's `StdioClientTransport`.
 *
 * Two load drivers, each warmed up then measured against the same server child:
 * - `sdk`: the SDK `Client` (`versionNegotiation` pinned to 2026-07-28, or `'legacy'`), several
 *   clients sharing the calls in flight. This is what a real client costs, and on HTTP that cost
 *   is about as large as the server's, so it compresses server differences.
 * - `raw` (HTTP only): pre-serialised JSON-RPC POSTs over a keep-alive `http.Agent` with the
 *   2026-07-28 headers (or a 2025 session), so the server is the bottleneck.
 *
 * Besides throughput and latency the run reads the server's CPU time from /proc (CPU per call is
 * steadier than throughput on a shared machine) and the server's memory (the child reports its
 * idle and peak RSS / heap when it exits).
 *
 * Flags: --duration <ms> (measured phase, default 5000), --warmup <ms> (default 3000),
 * --max-calls <n> (per phase, default 200000), --concurrency <n> (calls in flight, default 16),
 * --clients <n> (SDK HTTP clients sharing them, default 4), --rounds <n> (default 1),
 * --driver sdk|raw|both (default both), --only <ids> (comma-separated scenario ids, see
 * SCENARIOS), --cpu-prof (V8 CPU profile of each measured phase, server side, written to
 * bench/profiles/; summarise with bench/profile-summary.ts), --json <file> (results as JSON),
 * --source (MCPServer from src/ through tsx; by default the built package, so `npm run build` first).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { listenLocal } from '../test/support/net.js';
import { cpuProfiler, processCpuMs } from './support.js';

const BENCH_FILE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(BENCH_FILE), '..');
const PROFILE_DIR = path.join(ROOT, 'bench', 'profiles');
const MCP_PATH = '/mcp';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

type Era = 'modern' | 'legacy';
type Driver = 'sdk' | 'raw';
type Target =
  | 'bare-http'
  | 'sdk-http'
  | 'mcp-http'
  | 'mcp-http-serverless'
  | 'sdk-stdio'
  | 'floor-stdio'
  | 'mcp-stdio';

interface Scenario {
  id: string;
  label: string;
  target: Target;
  transport: 'http' | 'stdio';
  era: Era;
  /** Scenario id of the raw-SDK row this one is compared with. */
  sdk?: string;
  /** Scenario id of the bare-echo row this one is compared with. */
  bare?: string;
  /** Scenario id of the floor row (the raw SDK running the same Mastra tool) this one is compared with. */
  floor?: string;
}

const SCENARIOS: Scenario[] = [
  {
    id: 'bare-http-modern',
    label: 'bare node:http echo',
    target: 'bare-http',
    transport: 'http',
    era: 'modern',
  },
  {
    id: 'sdk-http-modern',
    label: 'raw SDK createMcpHandler',
    target: 'sdk-http',
    transport: 'http',
    era: 'modern',
  },
  {
    id: 'mcp-http-modern',
    label: 'MCPServer startHTTP',
    target: 'mcp-http',
    transport: 'http',
    era: 'modern',
    sdk: 'sdk-http-modern',
    bare: 'bare-http-modern',
  },
  {
    id: 'mcp-http-serverless-modern',
    label: 'MCPServer startHTTP serverless',
    target: 'mcp-http-serverless',
    transport: 'http',
    era: 'modern',
    sdk: 'sdk-http-modern',
    bare: 'bare-http-modern',
  },
  {
    id: 'bare-http-legacy',
    label: 'bare node:http echo',
    target: 'bare-http',
    transport: 'http',
    era: 'legacy',
  },
  {
    id: 'sdk-http-legacy',
    label: 'raw SDK createMcpHandler (stateless)',
    target: 'sdk-http',
    transport: 'http',
    era: 'legacy',
  },
  {
    id: 'mcp-http-legacy',
    label: 'MCPServer startHTTP (session)',
    target: 'mcp-http',
    transport: 'http',
    era: 'legacy',
    sdk: 'sdk-http-legacy',
    bare: 'bare-http-legacy',
  },
  {
    id: 'sdk-stdio-modern',
    label: 'raw SDK serveStdio',
    target: 'sdk-stdio',
    transport: 'stdio',
    era: 'modern',
  },
  {
    id: 'floor-stdio-modern',
    label: 'raw SDK serveStdio + Mastra tool',
    target: 'floor-stdio',
    transport: 'stdio',
    era: 'modern',
    sdk: 'sdk-stdio-modern',
  },
  {
    id: 'mcp-stdio-modern',
    label: 'MCPServer startStdio',
    target: 'mcp-stdio',
    transport: 'stdio',
    era: 'modern',
    sdk: 'sdk-stdio-modern',
    floor: 'floor-stdio-modern',
  },
  {
    id: 'sdk-stdio-legacy',
    label: 'raw SDK serveStdio',
    target: 'sdk-stdio',
    transport: 'stdio',
    era: 'legacy',
  },
  {
    id: 'floor-stdio-legacy',
    label: 'raw SDK serveStdio + Mastra tool',
    target: 'floor-stdio',
    transport: 'stdio',
    era: 'legacy',
    sdk: 'sdk-stdio-legacy',
  },
  {
    id: 'mcp-stdio-legacy',
    label: 'MCPServer startStdio',
    target: 'mcp-stdio',
    transport: 'stdio',
    era: 'legacy',
    sdk: 'sdk-stdio-legacy',
    floor: 'floor-stdio-legacy',
  },
];

// ---------------------------------------------------------------------------------------------
// Server side: `--serve <target>` runs one server in this (child) process.
// ---------------------------------------------------------------------------------------------

interface MemoryReport {
  idleRss: number;
  idleHeap: number;
  peakRss: number;
  peakHeap: number;
}

/** Samples memory every 500 ms; writes idle/peak figures to BENCH_MEM_FILE when the process exits. */
function trackMemory(): void {
  const file = process.env.BENCH_MEM_FILE;
  if (!file) return;
  const idle = process.memoryUsage();
  const report: MemoryReport = {
    idleRss: idle.rss,
    idleHeap: idle.heapUsed,
    peakRss: idle.rss,
    peakHeap: idle.heapUsed,
  };
  const sample = () => {
    const now = process.memoryUsage();
    report.peakRss = Math.max(report.peakRss, now.rss);
    report.peakHeap = Math.max(report.peakHeap, now.heapUsed);
  };
  setInterval(sample, 500).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(file, JSON.stringify(report));
  });
}

/**
 * With BENCH_CPU_PROFILE set, each SIGUSR2 toggles the V8 profiler: the first starts it, the
 * next writes `<BENCH_CPU_PROFILE>-<n>.cpuprofile` (renamed into place once complete).
 * Returns a function that settles any profile still being written.
 */
async function profileOnSignal(): Promise<() => Promise<void>> {
  const prefix = process.env.BENCH_CPU_PROFILE;
  if (!prefix) return async () => {};
  const profiler = await cpuProfiler(200);
  let running = false;
  let written = 0;
  let pending: Promise<void> = Promise.resolve();
  process.on('SIGUSR2', () => {
    pending = pending.then(async () => {
      running = !running;
      if (running) await profiler.start();
      else await profiler.stop(`${prefix}-${++written}.cpuprofile`);
    });
  });
  return () => pending.catch(() => {});
}

async function echoSchema() {
  const { z } = await import('zod');
  return z.object({ text: z.string() });
}

/** The raw SDK baseline: a high-level `McpServer` with the same tool, built per request or connection. */
async function sdkFactory() {
  const { McpServer } = await import('@modelcontextprotocol/server');
  const inputSchema = await echoSchema();
  return () => {
    const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes the text back.', inputSchema }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  };
}

/**
 * The floor an MCP server of a Mastra tool can reach: the SDK's own `Server` (no McpServer
 * validation on top) answering `tools/call` with the same `createTool` tool's `execute` (which
 * validates the input) and the result MCPServer makes of a string, nothing else.
 */
async function floorFactory() {
  const { McpServer } = await import('@modelcontextprotocol/server');
  const echo = await echoTool();
  return () => {
    const mcp = new McpServer({ name: 'bench-floor', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
    mcp.server.setRequestHandler('tools/call', async (request, ctx) => {
      type Context = Parameters<NonNullable<typeof echo.execute>>[1];
      const context = { abortSignal: ctx.mcpReq.signal } as Context;
      const text = await echo.execute?.(request.params.arguments as { text: string }, context);
      return { content: [{ type: 'text', text: String(text) }] };
    });
    return mcp;
  };
}

async function echoTool() {
  const { createTool } = await import('@mastra/core/tools');
  return createTool({
    id: 'echo',
    description: 'Echoes the text back.',
    inputSchema: await echoSchema(),
    execute: async ({ text }) => text,
  });
}

/** Set by `--source`: serve MCPServer from src/ through tsx instead of the built package. */
let fromSource = false;

async function mastraServer() {
  // The built package is what an app runs; tsx-compiled sources add esbuild's `__name` to every
  // closure MCPServer creates per call. By path: under tsx, tsconfig's paths map 'mastra-mcp' to src/.
  const built = pathToFileURL(path.join(ROOT, 'dist', 'index.mjs')).href;
  const { MCPServer } = (await import(
    fromSource ? '../src/index.js' : built
  )) as typeof import('../src/index.js');
  const echo = await echoTool();
  return new MCPServer({ id: 'bench', name: 'bench-mastra', version: '1.0.0', tools: { echo } });
}

const DISCOVER_RESULT = JSON.stringify({
  supportedVersions: [MODERN],
  capabilities: { tools: { listChanged: true } },
  resultType: 'complete',
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bench-bare', version: '1.0.0' } },
});
const INITIALIZE_RESULT = JSON.stringify({
  protocolVersion: LEGACY,
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'bench-bare', version: '1.0.0' },
});
const TOOLS = [
  {
    name: 'echo',
    description: 'Echoes the text back.',
    inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] },
  },
];
const TOOLS_RESULT = {
  modern: JSON.stringify({ tools: TOOLS, resultType: 'complete', ttlMs: 0, cacheScope: 'private' }),
  legacy: JSON.stringify({ tools: TOOLS }),
};

/**
 * The ceiling: no MCP machinery, just enough JSON-RPC for the SDK client to connect and call
 * `echo` (fixed answers with the request id spliced in; the call result echoes the text).
 */
function bareEchoHandler(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id?: string | number;
      method: string;
      params?: { arguments?: { text?: string } };
    };
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const modern = req.headers['mcp-protocol-version'] === MODERN;
    let result: string;
    if (message.method === 'tools/call') {
      const text = JSON.stringify(message.params?.arguments?.text ?? '');
      result = `{"content":[{"type":"text","text":${text}}]${modern ? ',"resultType":"complete"' : ''}}`;
    } else if (message.method === 'server/discover') result = DISCOVER_RESULT;
    else if (message.method === 'initialize') result = INITIALIZE_RESULT;
    else if (message.method === 'tools/list') result = modern ? TOOLS_RESULT.modern : TOOLS_RESULT.legacy;
    else result = modern ? '{"resultType":"complete"}' : '{}';
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
}

async function serve(target: Target): Promise<void> {
  let close: () => Promise<void> = async () => {};
  let handler: http.RequestListener | undefined;
  switch (target) {
    case 'bare-http':
      handler = bareEchoHandler;
      break;
    case 'sdk-http': {
      const { createMcpHandler } = await import('@modelcontextprotocol/server');
      const { toNodeHandler } = await import('@modelcontextprotocol/node');
      const mcp = createMcpHandler(await sdkFactory());
      const node = toNodeHandler(mcp);
      handler = (req, res) => void node(req, res);
      close = () => mcp.close();
      break;
    }
    case 'mcp-http':
    case 'mcp-http-serverless': {
      const mcp = await mastraServer();
      const options = target === 'mcp-http-serverless' ? { options: { serverless: true } } : {};
      handler = (req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        void mcp.startHTTP({ url, httpPath: MCP_PATH, req, res, ...options });
      };
      close = () => mcp.close();
      break;
    }
    case 'sdk-stdio':
    case 'floor-stdio': {
      const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
      const handle = serveStdio(await (target === 'sdk-stdio' ? sdkFactory() : floorFactory()));
      close = () => handle.close();
      break;
    }
    case 'mcp-stdio': {
      const mcp = await mastraServer();
      await mcp.startStdio();
      close = () => mcp.close();
      break;
    }
    default:
      throw new Error(`unknown target '${target}'`);
  }
  let httpServer: http.Server | undefined;
  if (handler) {
    httpServer = http.createServer(handler);
    httpServer.keepAliveTimeout = 30_000;
    await listenLocal(httpServer);
  }
  const profiles = await profileOnSignal();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    httpServer?.closeAllConnections();
    httpServer?.close();
    await close().catch(() => {});
    await profiles();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  // The parent holds our stdin: when it ends (stdio: the client closed; HTTP: the parent went
  // away) the server stops.
  process.stdin.on('end', () => setImmediate(() => void stop()));
  if (httpServer) process.stdin.resume();
  trackMemory();
  if (httpServer) process.stdout.write(`READY ${(httpServer.address() as AddressInfo).port}\n`);
}

// ---------------------------------------------------------------------------------------------
// Load side.
// ---------------------------------------------------------------------------------------------

interface Options {
  durationMs: number;
  warmupMs: number;
  maxCalls: number;
  concurrency: number;
  clients: number;
  rounds: number;
  drivers: Driver[];
  only: Set<string> | undefined;
  cpuProf: boolean;
  json: string | undefined;
}

interface Measurement {
  calls: number;
  errors: number;
  elapsedMs: number;
  throughput: number;
  p50: number;
  p99: number;
  /** Server process CPU (user + system) per call, microseconds; undefined without /proc. */
  serverCpuUs: number | undefined;
  /** Load-generator CPU per call, microseconds. */
  clientCpuUs: number;
  memory: MemoryReport | undefined;
  firstError?: string;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

interface CallClient {
  callTool(params: { name: string; arguments: { text: string } }): Promise<unknown>;
  close(): Promise<void>;
}

/** Runs `concurrency` workers over the clients until the time or the call budget is spent. */
async function drive(
  clients: CallClient[],
  concurrency: number,
  durationMs: number,
  maxCalls: number,
): Promise<{
  calls: number;
  errors: number;
  elapsedMs: number;
  latencies: Float64Array;
  firstError?: string;
}> {
  const latencies = new Float64Array(maxCalls);
  let issued = 0;
  let calls = 0;
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async (w: number) => {
    const client = clients[w % clients.length] as CallClient;
    while (issued < maxCalls && performance.now() < deadline) {
      const n = issued++;
      const text = `hello ${n}`;
      const t0 = performance.now();
      try {
        const result = (await client.callTool({ name: 'echo', arguments: { text } })) as {
          content?: Array<{ text?: string }>;
        };
        if (result.content?.[0]?.text !== text)
          throw new Error(`unexpected result ${JSON.stringify(result)}`);
        latencies[calls++] = performance.now() - t0;
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
        if (errors > 100) break;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsedMs = performance.now() - start;
  return {
    calls,
    errors,
    elapsedMs,
    latencies: latencies.subarray(0, calls),
    ...(firstError ? { firstError } : {}),
  };
}

async function sdkClient(era: Era) {
  const { Client } = await import('@modelcontextprotocol/client');
  return new Client(
    { name: 'bench-client', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: MODERN } : 'legacy' } },
  );
}

/**
 * The cheap load driver: one keep-alive agent, request bodies built by string concatenation,
 * responses read as JSON or as a one-event SSE stream. A legacy client opens a session first.
 */
class RawHttpClient implements CallClient {
  private static nextId = 1;
  private sessionId: string | undefined;
  private readonly headers: Record<string, string>;
  private readonly meta = `"_meta":${JSON.stringify({
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  })}`;

  constructor(
    private readonly url: URL,
    private readonly era: Era,
    private readonly agent: http.Agent,
  ) {
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': era === 'modern' ? MODERN : LEGACY,
    };
  }

  async open(): Promise<void> {
    if (this.era === 'modern') return;
    const { headers } = await this.post(
      `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"${LEGACY}","capabilities":{},"clientInfo":{"name":"bench-raw","version":"1.0.0"}}}`,
      {},
    );
    const sessionId = headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      this.sessionId = sessionId;
      this.headers['mcp-session-id'] = sessionId;
    }
    await this.post('{"jsonrpc":"2.0","method":"notifications/initialized"}', {});
  }

  private post(
    body: string,
    extra: Record<string, string>,
    method: 'POST' | 'DELETE' = 'POST',
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          method,
          headers: { ...this.headers, ...extra, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async callTool(params: { name: string; arguments: { text: string } }): Promise<unknown> {
    const id = RawHttpClient.nextId++;
    const args = JSON.stringify(params.arguments);
    const modern = this.era === 'modern';
    const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${params.name}","arguments":${args}${modern ? `,${this.meta}` : ''}}}`;
    const extra: Record<string, string> = modern
      ? { 'mcp-method': 'tools/call', 'mcp-name': params.name }
      : {};
    const { status, text } = await this.post(body, extra);
    const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
    if (status !== 200 || !data) throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
    const message = JSON.parse(data) as { id: number; result?: unknown; error?: { message: string } };
    if (message.id !== id || !message.result) throw new Error(`bad response: ${data.slice(0, 200)}`);
    return message.result;
  }

  async close(): Promise<void> {
    // Ends the 2025 session, as the SDK client's terminateSession() would.
    if (this.sessionId) await this.post('', {}, 'DELETE').catch(() => {});
  }
}

interface Server {
  pid: number | undefined;
  /** Connects the load driver's clients. */
  clients(driver: Driver, options: Options): Promise<CallClient[]>;
  stop(): Promise<void>;
}

function childArgs(target: Target): string[] {
  return ['--import', 'tsx', BENCH_FILE, '--serve', target, ...(fromSource ? ['--source'] : [])];
}

/** The SDK warns once per `responseMode: 'json'` handler (the serverless target); everything else is shown. */
const EXPECTED_WARNING = /^responseMode: 'json' drops mid-call notifications/;

function forwardStderr(stream: NodeJS.ReadableStream | null | undefined): void {
  if (!stream) return;
  createInterface({ input: stream }).on('line', (line) => {
    if (!EXPECTED_WARNING.test(line)) process.stderr.write(`${line}\n`);
  });
}

function childEnv(memFile: string, profilePrefix: string | undefined): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), BENCH_MEM_FILE: memFile };
  if (profilePrefix) env.BENCH_CPU_PROFILE = profilePrefix;
  return env;
}

async function startHttp(scenario: Scenario, env: Record<string, string>): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, childArgs(scenario.target), {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  forwardStderr(child.stderr);
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${scenario.target} exited early (code ${code})`)));
    lines.on('line', (line) => {
      const match = /^READY (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  const url = new URL(`http://127.0.0.1:${port}${MCP_PATH}`);
  const open: CallClient[] = [];
  const agents: http.Agent[] = [];
  return {
    pid: child.pid,
    clients: async (driver, options) => {
      const clients: CallClient[] = [];
      if (driver === 'sdk') {
        const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
        for (let i = 0; i < options.clients; i++) {
          const client = await sdkClient(scenario.era);
          await client.connect(new StreamableHTTPClientTransport(url));
          await client.listTools();
          clients.push(client);
        }
      } else {
        const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
        agents.push(agent);
        // One session per in-flight call for legacy servers, like separate clients would have.
        for (let i = 0; i < options.concurrency; i++) {
          const client = new RawHttpClient(url, scenario.era, agent);
          await client.open();
          clients.push(client);
        }
      }
      open.push(...clients);
      return clients;
    },
    stop: async () => {
      await Promise.allSettled(open.map((c) => c.close()));
      for (const agent of agents) agent.destroy();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      lines.close();
    },
  };
}

async function startStdio(scenario: Scenario, env: Record<string, string>): Promise<Server> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: childArgs(scenario.target),
    cwd: ROOT,
    env,
    stderr: 'pipe',
  });
  forwardStderr(transport.stderr as NodeJS.ReadableStream | null);
  const client = await sdkClient(scenario.era);
  await client.connect(transport);
  await client.listTools();
  return { pid: transport.pid ?? undefined, clients: async () => [client], stop: () => client.close() };
}

async function waitForFile(file: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function driversFor(scenario: Scenario, options: Options): Driver[] {
  return scenario.transport === 'stdio' ? ['sdk'] : options.drivers;
}

/** One server child; each applicable driver is warmed up, then measured. */
async function measure(
  scenario: Scenario,
  options: Options,
  round: number,
): Promise<Map<Driver, Measurement>> {
  const tag = `${scenario.id}-r${round}`;
  const memFile = path.join(os.tmpdir(), `mastra-mcp-bench-${process.pid}-${tag}.json`);
  rmSync(memFile, { force: true });
  const profilePrefix = options.cpuProf ? path.join(PROFILE_DIR, `.${tag}`) : undefined;
  const env = childEnv(memFile, profilePrefix);
  const server =
    scenario.transport === 'http' ? await startHttp(scenario, env) : await startStdio(scenario, env);
  const results = new Map<Driver, Measurement & { latencies?: Float64Array }>();
  const drivers = driversFor(scenario, options);
  try {
    for (const [i, driver] of drivers.entries()) {
      const clients = await server.clients(driver, options);
      await drive(clients, options.concurrency, options.warmupMs, options.maxCalls);
      if (profilePrefix && server.pid) process.kill(server.pid, 'SIGUSR2');
      const cpuBefore = processCpuMs(server.pid);
      const ownBefore = process.cpuUsage();
      const outcome = await drive(clients, options.concurrency, options.durationMs, options.maxCalls);
      const own = process.cpuUsage(ownBefore);
      const cpuAfter = processCpuMs(server.pid);
      if (profilePrefix && server.pid) {
        process.kill(server.pid, 'SIGUSR2');
        const written = `${profilePrefix}-${i + 1}.cpuprofile`;
        if (await waitForFile(written, 30_000)) {
          renameSync(written, path.join(PROFILE_DIR, `${scenario.id}-${driver}-r${round}.cpuprofile`));
        }
      }
      const serverCpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
      const sorted = outcome.latencies.slice().sort();
      const calls = outcome.calls;
      results.set(driver, {
        calls,
        errors: outcome.errors,
        elapsedMs: outcome.elapsedMs,
        throughput: (calls * 1000) / outcome.elapsedMs,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        serverCpuUs: serverCpu !== undefined && calls > 0 ? (serverCpu * 1000) / calls : undefined,
        clientCpuUs: calls > 0 ? (own.user + own.system) / calls : Number.NaN,
        memory: undefined,
        ...(outcome.firstError ? { firstError: outcome.firstError } : {}),
      });
    }
  } finally {
    await server.stop();
  }
  if (existsSync(memFile)) {
    const memory = JSON.parse(readFileSync(memFile, 'utf8')) as MemoryReport;
    rmSync(memFile, { force: true });
    for (const m of results.values()) m.memory = memory;
  }
  return results;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

interface Summary {
  scenario: Scenario;
  driver: Driver;
  runs: Measurement[];
  throughput: number;
  p50: number;
  p99: number;
  serverCpuUs: number | undefined;
  clientCpuUs: number;
  errors: number;
  memory: MemoryReport | undefined;
}

function summarize(scenario: Scenario, driver: Driver, runs: Measurement[]): Summary {
  const cpu = runs.map((r) => r.serverCpuUs).filter((v): v is number => v !== undefined);
  return {
    scenario,
    driver,
    runs,
    throughput: median(runs.map((r) => r.throughput)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    serverCpuUs: cpu.length ? median(cpu) : undefined,
    clientCpuUs: median(runs.map((r) => r.clientCpuUs)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    memory: runs.at(-1)?.memory,
  };
}

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

function table(summaries: Summary[], options: Options): string {
  const key = (id: string, driver: Driver) => `${id}/${driver}`;
  const byKey = new Map(summaries.map((s) => [key(s.scenario.id, s.driver), s]));
  const ratio = (s: Summary, other: string | undefined) => {
    const base = other ? byKey.get(key(other, s.driver)) : undefined;
    return base ? `${(s.throughput / base.throughput).toFixed(2)}x` : '';
  };
  const cpuRatio = (s: Summary, other: string | undefined) => {
    const base = other ? byKey.get(key(other, s.driver)) : undefined;
    return base?.serverCpuUs && s.serverCpuUs ? `${(s.serverCpuUs / base.serverCpuUs).toFixed(2)}x` : '';
  };
  const header = [
    'server',
    'transport',
    'client era',
    'driver',
    'calls/s',
    ...(options.rounds > 1 ? ['runs'] : []),
    'p50 ms',
    'p99 ms',
    'server CPU us/call',
    'client CPU us/call',
    'idle RSS MB',
    'peak RSS MB',
    'peak heap delta MB',
    'calls/s vs raw SDK',
    'calls/s vs bare echo',
    'server CPU/call vs raw SDK',
    'calls/s vs floor',
    'server CPU/call vs floor',
  ];
  const rows = summaries.map((s) => [
    s.scenario.label,
    s.scenario.transport,
    s.scenario.era === 'modern' ? MODERN : LEGACY,
    s.driver,
    s.throughput.toFixed(0) + (s.errors ? ` (${s.errors} errors)` : ''),
    ...(options.rounds > 1 ? [s.runs.map((r) => r.throughput.toFixed(0)).join(' / ')] : []),
    s.p50.toFixed(2),
    s.p99.toFixed(2),
    s.serverCpuUs !== undefined ? s.serverCpuUs.toFixed(0) : '-',
    s.clientCpuUs.toFixed(0),
    s.memory ? mb(s.memory.idleRss) : '-',
    s.memory ? mb(s.memory.peakRss) : '-',
    s.memory ? mb(s.memory.peakHeap - s.memory.idleHeap) : '-',
    ratio(s, s.scenario.sdk),
    ratio(s, s.scenario.bare),
    cpuRatio(s, s.scenario.sdk),
    ratio(s, s.scenario.floor),
    cpuRatio(s, s.scenario.floor),
  ]);
  const lines = [header, ...rows].map((row) => `| ${row.join(' | ')} |`);
  lines.splice(1, 0, `|${header.map(() => '---').join('|')}|`);
  return lines.join('\n');
}

function parseOptions(): Options | { serve: Target } {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      duration: { type: 'string', default: '5000' },
      warmup: { type: 'string', default: '3000' },
      'max-calls': { type: 'string', default: '200000' },
      concurrency: { type: 'string', default: '16' },
      clients: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '1' },
      driver: { type: 'string', default: 'both' },
      only: { type: 'string' },
      'cpu-prof': { type: 'boolean', default: false },
      json: { type: 'string' },
      source: { type: 'boolean', default: false },
    },
  });
  fromSource = values.source;
  if (values.serve) return { serve: values.serve as Target };
  const positive = (name: string, value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0)
      throw new Error(`--${name} must be a positive integer, got '${value}'`);
    return n;
  };
  const only = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : undefined;
  for (const id of only ?? []) {
    if (!SCENARIOS.some((s) => s.id === id)) {
      throw new Error(`unknown scenario '${id}'; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
    }
  }
  if (!['sdk', 'raw', 'both'].includes(values.driver)) {
    throw new Error(`--driver must be sdk, raw or both, got '${values.driver}'`);
  }
  return {
    durationMs: positive('duration', values.duration),
    warmupMs: positive('warmup', values.warmup),
    maxCalls: positive('max-calls', values['max-calls']),
    concurrency: positive('concurrency', values.concurrency),
    clients: positive('clients', values.clients),
    rounds: positive('rounds', values.rounds),
    drivers: values.driver === 'both' ? ['sdk', 'raw'] : [values.driver as Driver],
    only,
    cpuProf: values['cpu-prof'],
    json: values.json,
  };
}

/** The commit under test, marked dirty when src/ has uncommitted changes. */
function sourceRevision(): string {
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  const head = git('rev-parse', '--short', 'HEAD') || 'unknown';
  return git('status', '--porcelain', '--', 'src') ? `${head} + uncommitted src/ changes` : head;
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const parsed = parseOptions();
  if ('serve' in parsed) {
    await serve(parsed.serve);
    return;
  }
  const options = parsed;
  if (options.cpuProf) mkdirSync(PROFILE_DIR, { recursive: true });
  const scenarios = SCENARIOS.filter((s) => !options.only || options.only.has(s.id));
  const started = new Date();
  console.log(
    `mastra-mcp bench ${started.toISOString()}: node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}, ` +
      `load average ${loadavg()}, source ${sourceRevision()}\n` +
      `${options.concurrency} calls in flight (sdk driver: over ${options.clients} HTTP clients / 1 stdio client), ` +
      `warm-up ${options.warmupMs} ms, measured ${options.durationMs} ms (max ${options.maxCalls} calls), ` +
      `${options.rounds} round(s), drivers: ${options.drivers.join(', ')}`,
  );
  const runs = new Map<string, Measurement[]>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const scenario of scenarios) {
      const measured = await measure(scenario, options, round);
      for (const [driver, m] of measured) {
        const key = `${scenario.id}/${driver}`;
        runs.set(key, [...(runs.get(key) ?? []), m]);
        console.log(
          `  round ${round} ${key.padEnd(32)} ${m.throughput.toFixed(0).padStart(6)} calls/s  ` +
            `p50 ${m.p50.toFixed(2)} ms  p99 ${m.p99.toFixed(2)} ms  ` +
            `server ${m.serverCpuUs?.toFixed(0) ?? '-'} us/call  client ${m.clientCpuUs.toFixed(0)} us/call` +
            (m.errors ? `  ERRORS ${m.errors}: ${m.firstError}` : ''),
        );
      }
    }
  }
  const summaries: Summary[] = [];
  for (const driver of options.drivers) {
    for (const scenario of scenarios) {
      const measured = runs.get(`${scenario.id}/${driver}`);
      if (measured) summaries.push(summarize(scenario, driver, measured));
    }
  }
  console.log(`\nload average at the end: ${loadavg()}\n\n${table(summaries, options)}\n`);
  for (const driver of options.drivers) {
    const target = summaries.find((s) => s.scenario.id === 'mcp-http-modern' && s.driver === driver);
    const sdk = summaries.find((s) => s.scenario.id === 'sdk-http-modern' && s.driver === driver);
    if (!target || !sdk) continue;
    const r = target.throughput / sdk.throughput;
    const perRound = target.runs.map((run, i) => run.throughput / (sdk.runs[i]?.throughput ?? Number.NaN));
    const cpu =
      target.serverCpuUs && sdk.serverCpuUs
        ? `, server CPU per call ${(target.serverCpuUs / sdk.serverCpuUs).toFixed(2)}x`
        : '';
    console.log(
      `2026-07-28 HTTP, ${driver} driver: MCPServer / raw SDK throughput = ${r.toFixed(2)}x` +
        (perRound.length > 1 ? ` (per round: ${perRound.map((x) => x.toFixed(2)).join(' / ')})` : '') +
        `${cpu}; target >= 1.10x: ${r >= 1.1 ? 'met' : 'not met'}`,
    );
  }
  if (options.json) {
    const { only, ...rest } = options;
    writeFileSync(
      options.json,
      JSON.stringify(
        {
          started,
          node: process.version,
          source: sourceRevision(),
          options: { ...rest, only: only && [...only] },
          summaries,
        },
        null,
        2,
      ),
    );
  }
  if (summaries.some((s) => s.errors > 0)) process.exitCode = 1;
}

await main();
