/**
 * The MCP harness of the integration tests: an HTTP server on 127.0.0.1, stdio child processes,
 * raw 2026-07-28 requests and streams, and the README-wired server process. Waiting, results and
 * listeners that are not MCP-specific live in test/support/.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { MCPServer, MCPServerLimits, StreamableHTTPServerTransportOptions } from '../src/index.js';
import { listenLocal } from './support/net.js';
import { isAlive } from './support/process.js';
import { eventually } from './support/wait.js';

export type Era = 'legacy' | 'modern';

export interface HttpHarness {
  base: string;
  mcpUrl: URL;
  server: http.Server;
  close(): Promise<void>;
}

export interface HarnessOptions {
  options?: StreamableHTTPServerTransportOptions;
  /** Runs before MCPServer sees the request, like an auth middleware. */
  before?: (req: IncomingMessage & { auth?: unknown }, res: ServerResponse) => void;
}

/** `Authorization: Bearer <word>` authenticates subject <word> (`HarnessOptions.before`), as an auth middleware would. */
export function bearerAuth(req: IncomingMessage & { auth?: unknown }): void {
  const token = /^Bearer (\w+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (token) req.auth = { token, clientId: `client-${token}`, scopes: [], extra: { subject: token } };
}

/** Mounts an MCPServer on every transport: /mcp (Streamable HTTP), /sse + /message, /hono/sse + /hono/message. */
export async function serveHttp(mcp: MCPServer, harness: HarnessOptions = {}): Promise<HttpHarness> {
  const server = http.createServer(async (req, res) => {
    harness.before?.(req, res);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/hono/')) {
      await mcp.startHonoSSE({ url, ssePath: '/hono/sse', messagePath: '/hono/message', req, res });
    } else if (url.pathname === '/sse' || url.pathname === '/message') {
      await mcp.startSSE({ url, ssePath: '/sse', messagePath: '/message', req, res });
    } else {
      await mcp.startHTTP({
        url,
        httpPath: '/mcp',
        req,
        res,
        ...(harness.options ? { options: harness.options } : {}),
      });
    }
  });
  const { url: base, close } = await listenLocal(server);
  return { base, mcpUrl: new URL(`${base}/mcp`), server, close };
}

/** Serves whichever MCPServer `current()` returns at each request: replace it as a restarted process would be. */
export function serveReplaceable(
  current: () => MCPServer,
  harness: HarnessOptions = {},
): Promise<HttpHarness> {
  const front = {
    startHTTP: (options: Parameters<MCPServer['startHTTP']>[0]) => current().startHTTP(options),
  } as unknown as MCPServer;
  return serveHttp(front, harness);
}

export function newClient(era: Era, capabilities: Record<string, unknown> = {}): Client {
  return new Client(
    { name: 'test-client', version: '1.0.0' },
    {
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
      capabilities: { elicitation: { form: {} }, ...capabilities },
    },
  );
}

export async function connectHttp(url: URL, era: Era, client = newClient(era)): Promise<Client> {
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

export async function connectSse(url: URL, client = newClient('legacy')): Promise<Client> {
  await client.connect(new SSEClientTransport(url));
  return client;
}

/** The full test server (or another `fixture`) in a child process over stdio (see fixtures/stdio-server.ts). */
export async function connectStdio(
  era: Era,
  client = newClient(era),
  fixture = 'test/fixtures/stdio-server.ts',
): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fixture],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

/**
 * The full test server in a child process, spoken to in raw JSON-RPC lines: `send` one message,
 * `line(id)` the raw reply line to request `id`, `reply(id)` it parsed. The child's stdin is
 * closed, and its exit awaited, by the cleanup pushed onto `cleanups`.
 */
export function rawStdioChild(
  cleanups: Array<() => Promise<unknown>>,
  fixture = 'test/fixtures/stdio-server.ts',
): {
  send: (message: Record<string, unknown>) => void;
  line: (id: number) => Promise<string>;
  reply: <T = { error?: { code: number; message: string; data?: unknown } }>(id: number) => Promise<T>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  cleanups.push(async () => {
    child.stdin.end();
    await eventually('the stdio child to exit', () => !isAlive(child.pid as number), 10_000);
  });
  const lines = new Map<number, string>();
  createInterface({ input: child.stdout }).on('line', (text) => {
    const { id } = JSON.parse(text) as { id?: unknown };
    if (typeof id === 'number') lines.set(id, text);
  });
  // Starting a tsx child that loads @mastra/core takes seconds, many on a busy machine.
  const line = (id: number) => eventually(`reply ${id}`, () => lines.get(id), 50_000);
  return {
    send: (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    line,
    reply: async (id) => JSON.parse(await line(id)),
  };
}

/** Accepts every elicitation with the content `answer` gives for its message. */
export function answerElicitations(
  client: Client,
  answer: (message: string) => Record<string, string | number | boolean>,
): void {
  client.setRequestHandler('elicitation/create', async (request) => ({
    action: 'accept' as const,
    content: answer(request.params.message),
  }));
}

/** The per-request `_meta` envelope of a raw 2026-07-28 request; `capabilities` are the client's. */
export function modernEnvelope(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
}

export interface ModernRequestOptions {
  id?: number | string;
  /** The client capabilities the envelope declares. Default none. */
  capabilities?: Record<string, unknown>;
  /** Merged into the `_meta` envelope. */
  meta?: Record<string, unknown>;
  /** Added to the request headers (`authorization`, ...). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * One raw 2026-07-28 request as fetch() options: JSON in, JSON or SSE out, the routing headers
 * (`Mcp-Name` from `params.name`, `params.uri` or a task's `params.taskId`) and the `_meta`
 * envelope in `params`.
 */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  options: ModernRequestOptions = {},
): RequestInit & { headers: Record<string, string>; body: string } {
  const target = params.name ?? params.uri ?? params.taskId;
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof target === 'string' ? { 'mcp-name': target } : {}),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method,
      params: { ...params, _meta: { ...modernEnvelope(options.capabilities), ...options.meta } },
    }),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/** Opens a legacy (2025-11-25) Streamable HTTP session with a raw `initialize`; its session id. */
export async function openLegacySession(url: URL): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await init.text();
  return init.headers.get('mcp-session-id') as string;
}

/** The JSON-RPC reply in a response: its JSON body, or the last `data:` line of its SSE stream. */
export async function replyOf<T = unknown>(response: Response): Promise<T> {
  const text = await response.text();
  if (text.trim().startsWith('{')) return JSON.parse(text) as T;
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
    .pop();
  if (!data) throw new Error(`no JSON-RPC reply in ${response.status} ${text}`);
  return JSON.parse(data.slice('data: '.length)) as T;
}

/** The streams a client holds open on serveHttp's routes. */
export type StreamTransport = 'legacy SSE' | 'Hono SSE' | 'legacy Streamable HTTP' | 'subscriptions/listen';

/**
 * Opens a `transport` stream over a raw socket to a serveHttp harness, reads only the first bytes
 * of the answer and then never again (`subscriptions/listen` watches the resource `listenUri`).
 * Returns the paused socket, those bytes, and the stream's session id (SSE and legacy sessions).
 */
export async function openStalledStream(
  http: HttpHarness,
  transport: StreamTransport,
  listenUri: string,
): Promise<{ socket: net.Socket; first: string; sessionId: string | undefined }> {
  const host = `Host: ${new URL(http.base).host}\r\n`;
  let head: string;
  let sessionId: string | undefined;
  if (transport === 'legacy SSE' || transport === 'Hono SSE') {
    const path = transport === 'legacy SSE' ? '/sse' : '/hono/sse';
    head = `GET ${path} HTTP/1.1\r\n${host}Accept: text/event-stream\r\n\r\n`;
  } else if (transport === 'legacy Streamable HTTP') {
    sessionId = await openLegacySession(http.mcpUrl);
    head = `GET /mcp HTTP/1.1\r\n${host}Accept: text/event-stream\r\nMcp-Session-Id: ${sessionId}\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n`;
  } else {
    const { headers, body } = modernRequest(
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: [listenUri] } },
      { id: 'listen', capabilities: { elicitation: { form: {} } } },
    );
    const lines = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    head = `POST /mcp HTTP/1.1\r\n${host}${lines}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  }
  const socket = net.connect(Number(new URL(http.base).port), '127.0.0.1');
  socket.write(head);
  const first = await new Promise<string>((resolve) =>
    socket.once('data', (chunk) => resolve(String(chunk))),
  );
  socket.pause();
  sessionId ??= /sessionId=([\w-]+)/.exec(first)?.[1];
  return { socket, first, sessionId };
}

/** The listeners of test/fixtures/readme-wired-server.ts, by entry point. */
export type WiredEntry = 'session' | 'serverless' | 'sse' | 'hono' | 'honoApp' | 'honoPublic';

export interface WiredMemory {
  rss: number;
  /** The peak since the previous reading. */
  peakRss: number;
  heapUsed: number;
}

const WIRED_SERVER = fileURLToPath(new URL('./fixtures/readme-wired-server.ts', import.meta.url));
const wiredChildren = new Set<ChildProcessWithoutNullStreams>();
let killWiredOnExit = false;

/** Kills every README-wired server process this process started (afterAll, signal handlers). */
export function killWiredServers(): void {
  for (const child of wiredChildren) child.kill('SIGKILL');
  wiredChildren.clear();
}

/**
 * test/fixtures/readme-wired-server.ts in a child process: the ports of its listeners, its memory
 * readings, its exit. It exits when its stdin ends ({@link stop}), or with this process.
 */
export class WiredServer {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly memoryWaiters: Array<(memory: WiredMemory) => void> = [];

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly ports: Record<WiredEntry, number>,
    private stderr: string,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null)
        resolve({ code: child.exitCode, signal: child.signalCode });
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-8000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Partial<WiredMemory>;
      if (message.rss !== undefined) this.memoryWaiters.shift()?.(message as WiredMemory);
    });
  }

  /** Starts the process with the `limits` option; resolves once every listener is up. */
  static async start(limits: MCPServerLimits = {}): Promise<WiredServer> {
    if (!killWiredOnExit) process.on('exit', killWiredServers);
    killWiredOnExit = true;
    const child = spawn(process.execPath, [
      '--expose-gc',
      '--import',
      'tsx',
      WIRED_SERVER,
      JSON.stringify(limits),
    ]);
    wiredChildren.add(child);
    child.once('exit', () => wiredChildren.delete(child));
    // A `memory` line written as the process ends.
    child.stdin.on('error', () => {});
    let stderr = '';
    const collect = (chunk: Buffer) => {
      stderr += chunk.toString();
    };
    child.stderr.on('data', collect);
    const lines = createInterface({ input: child.stdout });
    const ports = await new Promise<Record<WiredEntry, number>>((resolve, reject) => {
      lines.once('line', (line) =>
        resolve((JSON.parse(line) as { ports: Record<WiredEntry, number> }).ports),
      );
      child.once('exit', (code) =>
        reject(new Error(`the README-wired server exited (${code}) before serving:\n${stderr}`)),
      );
    });
    lines.close();
    child.stderr.off('data', collect);
    return new WiredServer(child, ports, stderr);
  }

  /** False once the process exited. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The end of what the process wrote to stderr. */
  get stderrTail(): string {
    return this.stderr;
  }

  /** RSS now and its peak since the previous reading, heap used; rejects when the process exits first. */
  memory(): Promise<WiredMemory> {
    if (!this.running) return Promise.reject(this.exitError());
    return new Promise((resolve, reject) => {
      this.memoryWaiters.push(resolve);
      void this.exited.then(() => reject(this.exitError()));
      this.child.stdin.write('memory\n');
    });
  }

  /** Ends stdin (the process exits by itself); SIGKILL when it has not after 5 s. */
  async stop(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }

  private exitError(): Error {
    return new Error(
      `the README-wired server exited (${this.child.exitCode ?? this.child.signalCode}): ${this.stderr}`,
    );
  }
}
