/**
 * SEP-2243 parameter headers on MCPServer: a 2026-07-28 `tools/call` repeats every argument the
 * tool marks with `x-mcp-header` as an `Mcp-Param-*` header, and the server refuses (HTTP 400,
 * -32020) a header that is missing, differs from the argument, holds characters a header may not,
 * or is bad Base64, before the tool runs; on every entry point that serves 2026-07-28. Legacy
 * requests are not checked. The SDK's own v2 client sends the headers itself and is served.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { serve } from '@hono/node-server';
import { createTool } from '@mastra/core/tools';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPServer, type MCPToolContext } from '../../src/index.js';
import {
  answerElicitations,
  connectHttp,
  modernRequest,
  newClient,
  openLegacySession,
  replyOf,
  serveHttp,
  serveReplaceable,
} from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

interface Reply {
  result?: { content?: Array<{ type: string; text?: string }> };
  error?: { code: number; message: string; data?: unknown };
}

/** Runs were seen by the tool: a refused call never reaches it. */
const ran: string[] = [];

function newServer(): MCPServer {
  const deploy = createTool({
    id: 'deploy',
    description: 'Deploys to a region; region, replicas, dryRun and target.zone travel as headers too',
    inputSchema: z.object({
      region: z.string().meta({ 'x-mcp-header': 'Region' }),
      replicas: z.number().int().optional().meta({ 'x-mcp-header': 'Replicas' }),
      dryRun: z.boolean().optional().meta({ 'x-mcp-header': 'Dry-Run' }),
      target: z.object({ zone: z.string().meta({ 'x-mcp-header': 'Zone' }) }).optional(),
      note: z.string().optional(),
    }),
    execute: async ({ region }) => {
      ran.push(region);
      return `deployed to ${region}`;
    },
  });
  // Asks a question first: the retry that carries the answer must carry the headers too.
  const confirmDeploy = createTool({
    id: 'confirm_deploy',
    description: 'Asks before deploying to a region',
    inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
    execute: async ({ region }, context) => {
      const answer = await (context.mcp as unknown as MCPToolContext).elicitation.sendRequest({
        message: `Deploy to ${region}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return `${answer.action} ${region}`;
    },
  });
  const server = new MCPServer({
    name: 'param-headers',
    version: '1.0.0',
    tools: { deploy, confirm_deploy: confirmDeploy },
  });
  cleanups.push(() => server.close());
  return server;
}

async function served(options?: { serverless?: boolean }) {
  const server = newServer();
  const http = await serveHttp(server, options ? { options } : {});
  cleanups.push(() => http.close());
  return { server, url: http.mcpUrl };
}

/** A raw 2026-07-28 `deploy` call with these arguments and `Mcp-Param-*` headers. */
function deployCall(args: Record<string, unknown>, headers: Record<string, string> = {}) {
  return modernRequest('tools/call', { name: 'deploy', arguments: args }, { headers });
}

async function post(url: URL, init: RequestInit): Promise<{ status: number; reply: Reply }> {
  const response = await fetch(url, init);
  return { status: response.status, reply: await replyOf<Reply>(response) };
}

async function expectRefused(
  url: URL,
  init: RequestInit,
  ...message: Array<string | RegExp>
): Promise<string> {
  const before = ran.length;
  const { status, reply } = await post(url, init);
  expect(status).toBe(400);
  expect(reply.error?.code).toBe(-32020);
  const text = reply.error?.message ?? '';
  expect(text).toContain("Header mismatch in tools/call 'deploy'");
  for (const part of message) expect(text).toMatch(part);
  expect(ran.length, 'a refused call never runs the tool').toBe(before);
  return text;
}

async function expectServed(url: URL, init: RequestInit, text: string): Promise<void> {
  const { status, reply } = await post(url, init);
  expect(reply.error).toBeUndefined();
  expect(status).toBe(200);
  expect(textOf(reply.result)).toBe(text);
}

/**
 * One raw HTTP/1.1 POST written byte for byte, for header values `fetch` refuses to send (control
 * and non-ASCII characters); the status line and body of the answer.
 */
function rawPost(url: URL, init: ReturnType<typeof deployCall>, extra: Buffer): Promise<string> {
  const head = Object.entries(init.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const request = Buffer.concat([
    Buffer.from(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n` +
        `Content-Length: ${Buffer.byteLength(init.body)}\r\n${head}`,
    ),
    extra,
    Buffer.from(`\r\n\r\n${init.body}`),
  ]);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('a 2026-07-28 tools/call whose Mcp-Param-* headers do not match its arguments is refused (400, -32020)', () => {
  it('refuses a header whose value differs from the argument, naming tool, header and argument', async () => {
    const { url } = await served();
    await expectRefused(
      url,
      deployCall({ region: 'us' }, { 'mcp-param-region': 'eu' }),
      "header Mcp-Param-Region is 'eu' but arguments.region is 'us'; send the same value",
    );
    // A nested property, an integer and a boolean are compared as their headers carry them.
    await expectRefused(
      url,
      deployCall(
        { region: 'us', target: { zone: 'b' } },
        { 'mcp-param-region': 'us', 'mcp-param-zone': 'a' },
      ),
      "header Mcp-Param-Zone is 'a' but arguments.target.zone is 'b'",
    );
    await expectRefused(
      url,
      deployCall({ region: 'us', replicas: 3 }, { 'mcp-param-region': 'us', 'mcp-param-replicas': '4' }),
      "header Mcp-Param-Replicas is '4' but arguments.replicas is '3'",
    );
    await expectRefused(
      url,
      deployCall({ region: 'us', dryRun: false }, { 'mcp-param-region': 'us', 'mcp-param-dry-run': 'False' }),
      "header Mcp-Param-Dry-Run is 'False' but arguments.dryRun is 'false'",
    );
    // Values are case-sensitive; a Base64 value is compared once decoded.
    await expectRefused(url, deployCall({ region: 'us' }, { 'mcp-param-region': 'US' }), /is 'US' but/);
    await expectRefused(
      url,
      deployCall({ region: 'us' }, { 'mcp-param-region': `=?base64?${btoa('eu')}?=` }),
      "header Mcp-Param-Region is 'eu' but arguments.region is 'us'",
    );
  });

  it('refuses a call whose argument is present but its header is missing, saying to send it', async () => {
    const { url } = await served();
    const { status, reply } = await post(url, deployCall({ region: 'us' }));
    expect(status).toBe(400);
    expect(reply.error).toMatchObject({
      code: -32020,
      message:
        "Header mismatch in tools/call 'deploy': arguments.region is 'us' but header Mcp-Param-Region is missing; send the header with the same value (the tool's inputSchema marks it with x-mcp-header)",
      data: { tool: 'deploy', header: 'Mcp-Param-Region', argument: 'arguments.region' },
    });
    await expectRefused(
      url,
      deployCall({ region: 'us', replicas: 2 }, { 'mcp-param-region': 'us' }),
      "arguments.replicas is '2' but header Mcp-Param-Replicas is missing",
    );
  });

  it('refuses a header present for an argument the body does not carry', async () => {
    const { url } = await served();
    await expectRefused(
      url,
      deployCall({ region: 'us' }, { 'mcp-param-region': 'us', 'mcp-param-replicas': '3' }),
      "header Mcp-Param-Replicas is '3' but arguments.replicas is absent; send the header only when the argument has a value",
    );
    await expectRefused(
      url,
      deployCall({ region: 'us', target: null }, { 'mcp-param-region': 'us', 'mcp-param-zone': 'a' }),
      "header Mcp-Param-Zone is 'a' but arguments.target.zone is absent",
    );
  });

  it('refuses a bad Base64 value: missing padding, characters outside the alphabet, stray bits, not UTF-8', async () => {
    const { url } = await served();
    for (const sent of [
      '=?base64?aGVsbG8?=',
      '=?base64?aGVs!!!bG8=?=',
      '=?base64?aGVsbG9=?=',
      '=?base64?/w==?=',
    ]) {
      await expectRefused(
        url,
        deployCall({ region: 'hello' }, { 'mcp-param-region': sent }),
        `header Mcp-Param-Region is not valid Base64 ('${sent}'); send the UTF-8 of arguments.region as padded standard Base64 between =?base64? and ?=`,
      );
    }
  });

  it('refuses a header holding characters a header value may not (a non-ASCII byte over a socket)', async () => {
    const { url } = await served();
    const init = deployCall({ region: 'zürich' });
    // Node's parser lets obs-text (bytes 0x80-0xFF) through: "zürich" sent raw in Latin-1.
    const answer = await rawPost(
      url,
      init,
      Buffer.concat([Buffer.from('mcp-param-region: z'), Buffer.from([0xfc]), Buffer.from('rich')]),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Reply;
    expect(body.error?.code).toBe(-32020);
    expect(body.error?.message).toContain(
      'header Mcp-Param-Region holds characters a header value may not (control or non-ASCII characters); send such a value Base64-encoded, as =?base64?…?=',
    );
  });

  it('refuses control characters, which a lenient parser or another runtime hands over', async () => {
    const server = newServer();
    // Node's default parser answers a control character 400 itself; with insecureHTTPParser (or
    // on a runtime whose web Headers keep them) it reaches the server.
    const lenient = createServer({ insecureHTTPParser: true }, (req, res) => {
      void server.startHTTP({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), httpPath: '/mcp', req, res });
    });
    const listener = await listenLocal(lenient);
    cleanups.push(() => listener.close());
    const url = new URL(`${listener.url}/mcp`);
    const answer = await rawPost(url, deployCall({ region: 'us' }), Buffer.from('mcp-param-region: u\x01s'));
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":-32020');
    expect(answer).toContain('header Mcp-Param-Region holds characters a header value may not');
    // The same through server.fetch, given a web Request as Bun, Deno and Workers give one.
    const init = deployCall({ region: 'us' }, { 'mcp-param-region': 'u\x1bs' });
    const response = await server.fetch(new Request('http://127.0.0.1/mcp', init));
    expect(response.status).toBe(400);
    expect((await replyOf<Reply>(response)).error).toMatchObject({
      code: -32020,
      message: expect.stringContaining('holds characters a header value may not'),
    });
  });
});

describe('matching Mcp-Param-* headers are served', () => {
  it('serves plain and Base64 values, integers compared as numbers, and omitted headers for absent arguments', async () => {
    const { url } = await served();
    await expectServed(url, deployCall({ region: 'us' }, { 'mcp-param-region': 'us' }), 'deployed to us');
    // Header names are case-insensitive; OWS around a value is not part of it.
    await expectServed(url, deployCall({ region: 'us' }, { 'MCP-PARAM-REGION': '  us ' }), 'deployed to us');
    await expectServed(
      url,
      deployCall({ region: 'Zürich, 世界' }, { 'mcp-param-region': '=?base64?WsO8cmljaCwg5LiW55WM?=' }),
      'deployed to Zürich, 世界',
    );
    // A value that only looks like the sentinel (no closing ?=) is literal.
    await expectServed(
      url,
      deployCall({ region: '=?base64?dXM=' }, { 'mcp-param-region': '=?base64?dXM=' }),
      'deployed to =?base64?dXM=',
    );
    await expectServed(
      url,
      deployCall(
        { region: 'us', replicas: 42, dryRun: true, target: { zone: 'a' }, note: 'no header' },
        {
          'mcp-param-region': 'us',
          'mcp-param-replicas': '42.0',
          'mcp-param-dry-run': 'true',
          'mcp-param-zone': 'a',
        },
      ),
      'deployed to us',
    );
    // Null and absent arguments need no header.
    await expectServed(
      url,
      deployCall({ region: 'us', target: null }, { 'mcp-param-region': 'us' }),
      'deployed to us',
    );
  });

  it('checks on every entry point that serves 2026-07-28: startHTTP, serverless, listen() and server.fetch', async () => {
    const session = await served();
    const serverless = await served({ serverless: true });
    const own = newServer();
    const listener = await own.listen({ port: 0 });
    const fetched = newServer();
    const app = new Hono();
    app.all('/mcp', (c) => fetched.fetch(c.req.raw));
    const node = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((resolve) => node.once('listening', resolve));
    cleanups.push(
      () => new Promise((resolve) => node.close(resolve)),
      () => listener.close(),
    );
    const fetchUrl = new URL(`http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`);
    for (const url of [session.url, serverless.url, listener.url, fetchUrl]) {
      await expectRefused(
        url,
        deployCall({ region: 'us' }, { 'mcp-param-region': 'eu' }),
        /is 'eu' but arguments\.region is 'us'/,
      );
      await expectServed(url, deployCall({ region: 'us' }, { 'mcp-param-region': 'us' }), 'deployed to us');
    }
  });

  it("checks on a client proxy's gateway too, against the proxied tool's schema", async () => {
    const { url } = await served();
    const mcp = new MCPClient({ id: `param-headers-${Math.random()}`, servers: { upstream: { url } } });
    cleanups.push(() => mcp.disconnect());
    const { upstream: proxy } = await mcp.toMCPServerProxies();
    const gateway = await serveReplaceable(() => proxy as unknown as MCPServer);
    cleanups.push(
      () => gateway.close(),
      () => (proxy as unknown as MCPServer).close(),
    );
    await expectRefused(
      gateway.mcpUrl,
      deployCall({ region: 'us' }, { 'mcp-param-region': 'eu' }),
      "header Mcp-Param-Region is 'eu' but arguments.region is 'us'; send the same value",
    );
    await expectServed(
      gateway.mcpUrl,
      deployCall({ region: 'us' }, { 'mcp-param-region': 'us' }),
      'deployed to us',
    );
  });

  it('does not check legacy (2025-11-25) requests', async () => {
    const { url } = await served();
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': await openLegacySession(url),
      'mcp-protocol-version': '2025-11-25',
      'mcp-param-region': 'eu',
    };
    await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }).then((response) => response.text());
    await expectServed(
      url,
      {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'deploy', arguments: { region: 'us' } },
        }),
      },
      'deployed to us',
    );
  });
});

describe("the SDK's v2 client, and MCPClient over it, send the headers themselves", () => {
  /** A server recording the Mcp-Param-Region header of each tools/call it gets. */
  async function recorded() {
    const server = newServer();
    const sent: string[] = [];
    const http = await serveHttp(server, {
      before: (req: IncomingMessage) => {
        if (req.headers['mcp-method'] === 'tools/call')
          sent.push(String(req.headers['mcp-param-region'] ?? '(none)'));
      },
    });
    cleanups.push(() => http.close());
    return { sent, url: http.mcpUrl };
  }

  async function sdkClient(url: URL) {
    const client = await connectHttp(url, 'modern', newClient('modern'));
    cleanups.push(() => client.close());
    return client;
  }

  it('is served, Base64 included, and recovers from a first call made before it listed the tools', async () => {
    const { sent, url } = await recorded();
    const client = await sdkClient(url);
    // Not listed yet: the client sends no Mcp-Param-* header, is refused with -32020, lists the
    // tools and sends the call again with the header.
    expect(textOf(await client.callTool({ name: 'deploy', arguments: { region: 'eu' } }))).toBe(
      'deployed to eu',
    );
    expect(sent).toEqual(['(none)', 'eu']);
    const result = await client.callTool({ name: 'deploy', arguments: { region: 'Zürich', replicas: 2 } });
    expect(textOf(result)).toBe('deployed to Zürich');
    expect(sent.at(-1)).toBe(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
  });

  it('carries the headers on the retry that answers an input request', async () => {
    const { sent, url } = await recorded();
    const client = await sdkClient(url);
    answerElicitations(client, () => ({ ok: true }));
    await client.listTools();
    const result = await client.callTool({ name: 'confirm_deploy', arguments: { region: 'eu' } });
    expect(textOf(result)).toBe('accept eu');
    expect(sent).toEqual(['eu', 'eu']);
  });

  it('MCPClient: a listed tool sends its x-mcp-header arguments', async () => {
    const { sent, url } = await recorded();
    const mcp = new MCPClient({ id: `param-headers-${Math.random()}`, servers: { deploys: { url } } });
    cleanups.push(() => mcp.disconnect());
    const tools = await mcp.listTools();
    const deploy = tools.deploys_deploy as unknown as {
      execute(input: unknown, context: unknown): Promise<unknown>;
    };
    expect(textOf(await deploy.execute({ region: 'Zürich' }, {}))).toBe('deployed to Zürich');
    expect(sent).toEqual([`=?base64?${Buffer.from('Zürich').toString('base64')}?=`]);
  });
});
