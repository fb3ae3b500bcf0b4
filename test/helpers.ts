/** Real transports for the integration tests: an HTTP server on 127.0.0.1 and stdio child processes. */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { MCPServer, StreamableHTTPServerTransportOptions } from '../src/index.js';

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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    mcpUrl: new URL(`${base}/mcp`),
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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

/** The full test server in a child process over stdio (see fixtures/stdio-server.ts). */
export async function connectStdio(
  era: Era,
  client = newClient(era),
): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'test/fixtures/stdio-server.ts'],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

/** Waits until `check` passes or the deadline passes (then throws with `what`). */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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

/** What `promise` rejected with, or undefined when it resolved. */
export const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
