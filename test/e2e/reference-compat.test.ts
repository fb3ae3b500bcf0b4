/**
 * The compatibility paths of the v1 MCPClient reference and of servers configured for the SDK v1
 * transport, over real HTTP at both protocol eras: `elicitation.onRequest()` handlers reading
 * `request.message`/`request.requestedSchema`, `eventSourceInit.fetch` on the SSE fallback,
 * prompt versions in listings and the listed prompt from `prompts.get()`, subscriptions a
 * serverless server cannot serve, `server.elicitation.sendRequest()`, and v1 `allowedHosts` /
 * `allowedOrigins` / `enableDnsRebindingProtection` (with the 403 echoing the request id).
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  type MCPElicitationRequest,
  MCPServer,
  type StreamableHTTPServerTransportOptions,
} from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { type HarnessOptions, serveHttp } from '../helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const ERAS = [
  ['2026-07-28', '2026-07-28'],
  ['legacy', 'legacy'],
] as const;

let nextId = 0;
function client(servers: Record<string, MastraMCPServerDefinition>): MCPClient {
  const mcp = new MCPClient({ id: `compat-${++nextId}`, registerProcessHooks: false, servers });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

async function served(server = new MCPServer(fullConfig()), harness: HarnessOptions = {}) {
  const http = await serveHttp(server, harness);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

/** One raw HTTP exchange, so the `Host` header can be anything. */
function exchange(
  port: number,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 7,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('elicitation.onRequest() (v1 MCPClient reference)', () => {
  it.each(ERAS)(
    'hands the request in the v1 shape to the handler and the answer to the tool (%s)',
    async (_, era) => {
      const { http } = await served();
      const mcp = client({ s: { url: http.mcpUrl, protocolVersion: era } });
      const seen: Array<Pick<MCPElicitationRequest, 'message' | 'serverName'> & { fields: string[] }> = [];
      await mcp.elicitation.onRequest('s', async (request) => {
        seen.push({
          message: request.message,
          serverName: request.serverName,
          fields: Object.keys(request.requestedSchema.properties),
        });
        expect(request.key).toEqual(expect.any(String));
        expect(request.signal.aborted).toBe(false);
        const content: Record<string, string | boolean> = request.requestedSchema.properties.name
          ? { name: 'Alice Smith', email: 'alice@example.com' }
          : { ok: true };
        return { action: 'accept', content };
      });
      const tools = await mcp.listTools();
      const result = await tools.s_contactTool?.execute?.({ reason: 'For the invoice.' }, {} as never);
      expect(JSON.stringify(result)).toContain(
        'Collected {\\"name\\":\\"Alice Smith\\",\\"email\\":\\"alice@example.com\\"} confirmed=true',
      );
      expect(seen).toEqual([
        {
          message: 'Please provide your contact information. For the invoice.',
          serverName: 's',
          fields: ['name', 'email'],
        },
        { message: 'Confirm?', serverName: 's', fields: ['ok'] },
      ]);
    },
  );
});

describe('eventSourceInit (v1 MCPClient reference)', () => {
  it('sends the SSE stream request through eventSourceInit.fetch on the legacy SSE fallback', async () => {
    const { http } = await served();
    const streamRequests: Array<{ url: string; authorization: string | null }> = [];
    const mcp = client({
      s: {
        url: new URL(`${http.base}/sse`),
        eventSourceInit: {
          fetch(input: Request | URL | string, init?: RequestInit) {
            const headers = new Headers(init?.headers || {});
            headers.set('Authorization', 'Bearer your-token');
            streamRequests.push({ url: String(input), authorization: headers.get('authorization') });
            return fetch(input, { ...init, headers });
          },
        },
      },
    });
    expect(Object.keys(await mcp.listTools())).toContain('s_weatherTool');
    expect(streamRequests).toEqual([{ url: `${http.base}/sse`, authorization: 'Bearer your-token' }]);
  });
});

describe('prompt versions', () => {
  const versioned = () =>
    new MCPServer({
      ...fullConfig(),
      prompts: {
        listPrompts: async () => [
          {
            name: 'summary',
            title: 'Summary',
            description: 'Summarise',
            version: '1.0.0',
            arguments: [{ name: 'topic', description: 'What to summarise', required: true }],
          },
          { name: 'summary', title: 'Summary (short)', description: 'Summarise briefly', version: '2.0.0' },
        ],
        getPromptMessages: async ({ name, version, args }) => ({
          prompt: { name },
          messages: [
            { role: 'user', content: { type: 'text', text: `v${version ?? '1.0.0'} about ${args.topic}` } },
          ],
        }),
      },
    });

  // A 2025 listing shows each name once, as its default version: only what the answer says is known of 2.0.0.
  it.each(ERAS)('lists each version and gets the listed prompt back (%s)', async (_, era) => {
    const { http } = await served(versioned());
    const mcp = client({ s: { url: http.mcpUrl, protocolVersion: era } });
    const listed = (await mcp.prompts.list()).s;
    expect(listed?.map((p) => p.version)).toEqual(era === 'legacy' ? ['1.0.0'] : ['1.0.0', '2.0.0']);
    const { prompt, messages } = await mcp.prompts.get({
      serverName: 's',
      name: 'summary',
      args: { topic: 'tides' },
      version: '2.0.0',
    });
    expect(prompt).toEqual({
      name: 'summary',
      ...(era === 'legacy' ? {} : { title: 'Summary (short)' }),
      description: 'Summarise briefly',
      version: '2.0.0',
    });
    expect(messages[0]?.content).toEqual({ type: 'text', text: 'v2.0.0 about tides' });
    const first = await mcp.prompts.get({ serverName: 's', name: 'summary', args: { topic: 'tides' } });
    expect(first.prompt).toMatchObject({
      title: 'Summary',
      version: '1.0.0',
      arguments: [{ name: 'topic', description: 'What to summarise', required: true }],
    });
  });
});

describe('resources.subscribe() on a server that cannot deliver updates', () => {
  it('fails with an error that says why against a serverless MCPServer', async () => {
    const { http } = await served(undefined, { options: { serverless: true } });
    const mcp = client({ s: { url: http.mcpUrl, protocolVersion: '2026-07-28' } });
    await expect(mcp.resources.subscribe('s', 'file://data/1.txt')).rejects.toMatchObject({
      id: 'MCP_CLIENT_SUBSCRIBE_RESOURCE_FAILED',
      message: expect.stringMatching(/'s' does not offer resource subscriptions.*file:\/\/data\/1\.txt/),
    });
    // Everything else still works there.
    expect((await mcp.resources.read('s', 'file://data/1.txt')).contents[0]).toMatchObject({
      text: 'first file',
    });
  });
});

describe('server.elicitation.sendRequest() (v1 MCPClient reference walkthrough)', () => {
  it('rejects with an error that points to the tool context', async () => {
    const server = new MCPServer(fullConfig());
    cleanups.push(() => server.close());
    await expect(
      server.elicitation.sendRequest({
        message: 'Name?',
        requestedSchema: { type: 'object', properties: {} },
      }),
    ).rejects.toMatchObject({
      id: 'MCP_SERVER_ELICITATION_NEEDS_TOOL_CONTEXT',
      message: expect.stringContaining('context.mcp.elicitation.sendRequest()'),
    });
  });
});

describe('startHTTP options written for the SDK v1 transport', () => {
  async function configured(options: (port: number) => StreamableHTTPServerTransportOptions) {
    const harness: HarnessOptions = {};
    const { http } = await served(undefined, harness);
    const port = Number(new URL(http.base).port);
    harness.options = options(port);
    return { http, port };
  }

  it.each(ERAS)('accepts Host and Origin entries with ports and schemes (%s)', async (_, era) => {
    const { http, port } = await configured((p) => ({
      enableDnsRebindingProtection: true,
      allowedHosts: [`127.0.0.1:${p}`, `localhost:${p}`],
      allowedOrigins: [`http://127.0.0.1:${p}`],
    }));
    const mcp = client({ s: { url: http.mcpUrl, protocolVersion: era } });
    expect(Object.keys(await mcp.listTools())).toContain('s_weatherTool');

    const ok = await exchange(
      port,
      { host: `localhost:${port}`, origin: `http://127.0.0.1:${port}` },
      initialize,
    );
    expect(ok.status).toBe(200);
    // An entry with a port matches the whole header: the same hostname on another port is refused.
    const otherPort = await exchange(port, { host: '127.0.0.1:1' }, initialize);
    expect(otherPort.status).toBe(403);
    expect(otherPort.text).toContain('Invalid Host: 127.0.0.1:1');
    const otherOrigin = await exchange(
      port,
      { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:1' },
      initialize,
    );
    expect(otherOrigin.status).toBe(403);
    expect(otherOrigin.text).toContain('allowedOrigins');
  });

  it('matches hostname entries on any port (the v2 form)', async () => {
    const { port } = await configured(() => ({ allowedHosts: ['127.0.0.1'], allowedOrigins: ['127.0.0.1'] }));
    expect(
      (await exchange(port, { host: '127.0.0.1:1', origin: 'http://127.0.0.1:2' }, initialize)).status,
    ).toBe(200);
    expect((await exchange(port, { host: 'localhost:1' }, initialize)).status).toBe(403);
  });

  it('checks nothing with enableDnsRebindingProtection: false, as the v1 transport did', async () => {
    const { port } = await configured(() => ({ enableDnsRebindingProtection: false }));
    const foreign = await exchange(
      port,
      { host: 'evil.example', origin: 'https://evil.example' },
      initialize,
    );
    expect(foreign.status).toBe(200);
  });

  it('answers a refused request with its own id, and null where there is none', async () => {
    const { port } = await configured(() => ({}));
    const refused = await exchange(port, { host: 'evil.example' }, initialize);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32000 } });
    const batch = await exchange(port, { host: 'evil.example' }, [initialize]);
    expect(JSON.parse(batch.text).id).toBeNull();
    const get = await exchange(port, { host: 'evil.example' });
    expect(get.status).toBe(403);
    expect(JSON.parse(get.text).id).toBeNull();
  });
});
