/**
 * What MCPClient says when a server cannot be reached, over real transports: a port nothing
 * listens on, HTTP servers answering 401/404/500 (and 405 then 500 through the legacy SSE
 * fallback), a TLS mismatch both ways, stdio commands that do not exist or die at start. Each
 * message names the server, its URL or command and the cause; `errorDetails` keeps the status.
 * Also: listTools() logs what it leaves out, and every error id the package raises is exported.
 */
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MastraError } from '@mastra/core/error';
import { ConsoleLogger } from '@mastra/core/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  MCPErrorCategories,
  MCPErrorCode,
} from '../../src/index.js';
import { type LocalHttpsServer, startLocalHttps } from '../fixtures/local-tls.js';
import { listenLocal } from '../support/net.js';

const servers: http.Server[] = [];
let https: LocalHttpsServer;
let closedPort: number;
/** Answers every request with its status; `/sse-fallback` refuses the POST (405) and the SSE GET (500). */
let statusPort: number;
let nextId = 0;

async function listen(server: http.Server): Promise<number> {
  await listenLocal(server);
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // A port that was free a moment ago: bound, then released.
  const probe = http.createServer();
  closedPort = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  const status = http.createServer((req, res) => {
    const [, path] = /^\/(\S+?)\/mcp/.exec(req.url ?? '') ?? [];
    const code = path === 'sse-fallback' ? (req.method === 'POST' ? 405 : 500) : Number(path);
    res.writeHead(code, { 'content-type': 'text/plain' }).end('no');
  });
  servers.push(status);
  statusPort = await listen(status);
  https = await startLocalHttps((_req, res) => res.writeHead(404).end());
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await https?.close();
});

/** One client, one failing server: its message and details from listToolsWithErrors(). */
async function failureOf(definition: MastraMCPServerDefinition) {
  const client = new MCPClient({
    id: `error-messages-${++nextId}`,
    registerProcessHooks: false,
    timeout: 20_000,
    servers: { target: definition },
  });
  try {
    const { tools, errors, errorDetails } = await client.listToolsWithErrors();
    expect(tools).toEqual({});
    const detail = errorDetails.target;
    expect(detail).toBeDefined();
    expect(errors.target).toContain(detail?.message);
    return detail as NonNullable<typeof detail>;
  } finally {
    await client.disconnect();
  }
}

describe('connect failures name the server, its URL or command, and the cause', () => {
  it('a refused port', async () => {
    const url = `http://127.0.0.1:${closedPort}/mcp`;
    const detail = await failureOf({
      url: new URL(`http://user:SECRET@127.0.0.1:${closedPort}/mcp?key=SECRET`),
    });
    // fetch refuses credentials in a URL before connecting: the message says so, and never quotes them.
    expect(detail.message).toBe(
      `Failed to connect to MCP server 'target' at ${url}: the URL includes a user name or password, which fetch refuses: send them as an Authorization header in 'requestInit'`,
    );
    const plain = await failureOf({ url: new URL(url) });
    expect(plain.message).toBe(
      `Failed to connect to MCP server 'target' at ${url}: connection refused: nothing listens at that address (ECONNREFUSED)`,
    );
    expect(plain.httpStatus).toBeUndefined();
  });

  it('HTTP 401, 404 and 500, the status in errorDetails', async () => {
    for (const [status, cause] of [
      [
        401,
        "HTTP 401 Unauthorized: missing or rejected credentials (an 'authProvider', or an Authorization header in 'requestInit')",
      ],
      [404, 'Streamable HTTP: HTTP 404 Not Found; legacy SSE fallback: HTTP 404 Not Found'],
      [500, 'HTTP 500 Internal Server Error'],
    ] as const) {
      const url = `http://127.0.0.1:${statusPort}/${status}/mcp`;
      const detail = await failureOf({ url: new URL(url) });
      expect(detail.message).toBe(`Failed to connect to MCP server 'target' at ${url}: ${cause}`);
      expect(detail.httpStatus).toBe(status);
    }
  });

  it('through the legacy SSE fallback, the status the fallback got', async () => {
    const url = `http://127.0.0.1:${statusPort}/sse-fallback/mcp`;
    const detail = await failureOf({ url: new URL(url) });
    expect(detail.message).toBe(
      `Failed to connect to MCP server 'target' at ${url}: Streamable HTTP: HTTP 405 Method Not Allowed; legacy SSE fallback: HTTP 500 Internal Server Error`,
    );
    expect(detail.httpStatus).toBe(500);
  });

  it('a TLS mismatch: https to a plain HTTP server, and an untrusted self-signed certificate', async () => {
    const plain = `https://127.0.0.1:${statusPort}/404/mcp`;
    expect((await failureOf({ url: new URL(plain) })).message).toBe(
      `Failed to connect to MCP server 'target' at ${plain}: TLS handshake failed: the server does not speak TLS on that port (an https URL for an http server?) (ERR_SSL_WRONG_VERSION_NUMBER)`,
    );
    const selfSigned = `https://127.0.0.1:${https.port}/mcp`;
    expect((await failureOf({ url: new URL(selfSigned) })).message).toBe(
      `Failed to connect to MCP server 'target' at ${selfSigned}: TLS handshake failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    );
  });

  it('a stdio command that does not exist, and one that exits at start, with its last stderr line', async () => {
    expect((await failureOf({ command: 'mastra-mcp-no-such-command' })).message).toBe(
      "Failed to connect to MCP server 'target' (command 'mastra-mcp-no-such-command'): the command was not found (ENOENT)",
    );
    const script = 'console.error("missing API_KEY"); process.exit(3)';
    expect((await failureOf({ command: process.execPath, args: ['-e', script] })).message).toBe(
      `Failed to connect to MCP server 'target' (command '${process.execPath} -e ${script}'): the process exited with code 3 before answering (its last stderr line: missing API_KEY)`,
    );
  });
});

describe('listTools()', () => {
  it('logs each server it leaves out at error level, with the cause, and returns the rest', async () => {
    const logged: string[] = [];
    class Capturing extends ConsoleLogger {
      override error(message: string): void {
        logged.push(message);
      }
    }
    const client = new MCPClient({
      id: `error-messages-${++nextId}`,
      registerProcessHooks: false,
      servers: { down: { url: new URL(`http://127.0.0.1:${closedPort}/mcp`) } },
    });
    client.logger = new Capturing();
    try {
      expect(await client.listTools()).toEqual({});
    } finally {
      await client.disconnect();
    }
    expect(logged).toEqual([
      `listTools(): Failed to connect to MCP server 'down' at http://127.0.0.1:${closedPort}/mcp: connection refused: nothing listens at that address (ECONNREFUSED); its tools are left out`,
    ]);
  });
});

describe('MCPErrorCode', () => {
  it('holds every error id the sources raise and no other, each with a category', async () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const files = (await readdir(src, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && file !== 'errors.ts',
    );
    const raised = new Set<string>();
    for (const file of files) {
      const text = await readFile(join(src, file), 'utf8');
      for (const [, id] of text.matchAll(/['`](MCP_(?:CLIENT|SERVER|EVENTS|REDIS)_[A-Z0-9_]+)['`]/g))
        if (id !== 'MCP_CLIENT_BRAND') raised.add(id as string);
      // Ids raised through the one constructor, mcpError(MCPErrorCode.KEY, ...).
      for (const [, key] of text.matchAll(/\bMCPErrorCode\.([A-Z0-9_]+)/g)) raised.add(`MCP_${key}`);
    }
    const exported = new Set<string>(Object.values(MCPErrorCode));
    expect([...raised].filter((id) => !exported.has(id))).toEqual([]);
    expect([...exported].filter((id) => !raised.has(id))).toEqual([]);
    for (const id of exported)
      expect(['USER', 'THIRD_PARTY', 'SYSTEM']).toContain(MCPErrorCategories[id as MCPErrorCode]);
  });

  it('a bad configuration is a USER error, raised with the exported id', () => {
    let thrown: unknown;
    try {
      new MCPClient({
        id: `error-messages-${++nextId}`,
        servers: { broken: {} as MastraMCPServerDefinition },
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MastraError);
    expect((thrown as MastraError).id).toBe(MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG);
    expect((thrown as MastraError).category).toBe('USER');
    expect(MCPErrorCategories[MCPErrorCode.CLIENT_CONNECT_FAILED]).toBe('THIRD_PARTY');
  });
});
