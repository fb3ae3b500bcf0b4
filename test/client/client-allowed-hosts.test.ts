/**
 * `allowedHosts` on HTTP servers: real HTTP servers on several loopback addresses (every
 * 127.0.0.0/8 address is loopback on Linux) and `localhost`, ephemeral ports. The MCP server is a
 * real MCPServer on 127.0.0.1; the other hosts are small node:http redirectors, an OAuth resource
 * front and an authorization server, each counting the requests that reached it.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MastraError } from '@mastra/core/error';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedHostsFetch, isHostAllowed } from '../../src/client/transport/allowed-hosts.js';
import { type HttpServerDefinition, MCPClient, MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';

interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Listener {
  /** `URL.host` of the listener: what an allowedHosts entry names. */
  host: string;
  port: number;
  url(path: string): URL;
  hits: Hit[];
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A node:http server on `address` that records every request (body included) before `handle` answers. */
async function listen(
  address: string,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
): Promise<Listener> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      handle(req, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, resolve);
  });
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    host: `${address}:${bound}`,
    port: bound,
    url: (path) => new URL(path, `http://${address}:${bound}`),
    hits,
  };
}

/** Answers `status` with a Location for each path in `routes`, 404 for any other path. */
function redirector(address: string, routes: Record<string, URL>, status = 307, port = 0): Promise<Listener> {
  return listen(
    address,
    (req, res) => {
      const to = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (to) res.writeHead(status, { location: to.href }).end();
      else res.writeHead(404).end();
    },
    port,
  );
}

/** 127.0.0.2:<port>/mcp -> 127.0.0.3:<same port>/mcp -> `target`: the first hop changes the host only. */
async function redirectorPair(target: URL): Promise<[Listener, Listener]> {
  for (let attempt = 0; ; attempt++) {
    const second = await redirector('127.0.0.3', { '/mcp': target });
    try {
      return [await redirector('127.0.0.2', { '/mcp': second.url('/mcp') }, 307, second.port), second];
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
}

/** A real MCPServer on 127.0.0.1 whose requests are counted (method, path, headers). */
async function mcpServer(): Promise<Listener & { mcpUrl: URL }> {
  const hits: Hit[] = [];
  const server = new MCPServer(fullConfig());
  const served = await serveHttp(server, {
    before: (req) =>
      hits.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: '' }),
  });
  cleanups.push(
    () => served.close(),
    () => server.close(),
  );
  const { port } = served.server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    port,
    url: (path) => new URL(path, served.base),
    hits,
    mcpUrl: served.mcpUrl,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
const run = (tool: any, input: unknown) => tool.execute(input, {});

let nextId = 0;
function client(definition: HttpServerDefinition): MCPClient {
  const mcp = new MCPClient({
    id: `allowed-hosts-${++nextId}`,
    registerProcessHooks: false,
    timeout: 20_000,
    servers: { remote: definition },
  });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

/** The connect error of server 'remote' (reconnectServer surfaces it as it is). */
async function connectError(mcp: MCPClient): Promise<MastraError> {
  return mcp.reconnectServer('remote').then(
    () => {
      throw new Error('expected the connection to fail');
    },
    (error: MastraError) => error,
  );
}

function expectBlocked(error: MastraError, host: string): void {
  expect(error.id).toBe('MCP_CLIENT_HOST_NOT_ALLOWED');
  expect(error.message).toBe(
    `MCP server 'remote': host '${host}' is not in allowedHosts; the request was not sent`,
  );
}

describe('allowedHosts matching', () => {
  const allowed = (url: string, hosts: string[]) => isHostAllowed(new URL(url), hosts);

  it('is exact and case-insensitive on the host', () => {
    expect(allowed('https://API.Example.com/mcp', ['api.example.com'])).toBe(true);
    expect(allowed('https://api.example.com/mcp', ['API.EXAMPLE.COM'])).toBe(true);
    expect(allowed('https://sub.api.example.com/mcp', ['api.example.com'])).toBe(false);
    expect(allowed('https://api.example.com.evil.test/mcp', ['api.example.com'])).toBe(false);
    expect(allowed('https://api.example.com/mcp', ['*.example.com', '*', 'example.com'])).toBe(false);
  });

  it('names the port only when the URL carries a non-default one', () => {
    expect(allowed('http://localhost:8080/', ['localhost'])).toBe(false);
    expect(allowed('http://localhost:8080/', ['localhost:8080'])).toBe(true);
    expect(allowed('http://localhost/', ['localhost:8080'])).toBe(false);
    // Default ports are not part of the host: 80 for http, 443 for https.
    expect(allowed('http://example.com:80/', ['example.com'])).toBe(true);
    expect(allowed('https://example.com:443/', ['example.com'])).toBe(true);
    expect(allowed('https://example.com/', ['example.com:443'])).toBe(false);
    expect(allowed('http://example.com:443/', ['example.com'])).toBe(false);
    expect(allowed('http://example.com:443/', ['example.com:443'])).toBe(true);
  });

  it('does not check the scheme, takes IPv6 in brackets, denies everything when empty', () => {
    expect(allowed('http://example.com/', ['example.com'])).toBe(true);
    expect(allowed('https://example.com/', ['example.com'])).toBe(true);
    expect(allowed('http://[::1]:3000/mcp', ['[::1]:3000'])).toBe(true);
    expect(allowed('http://[::1]/mcp', ['[::1]'])).toBe(true);
    expect(allowed('http://[::1]:3000/mcp', ['::1'])).toBe(false);
    expect(allowed('http://user:secret@example.com/?q=1', ['example.com'])).toBe(true);
    expect(allowed('http://example.com/', [])).toBe(false);
  });
});

describe('MCPClient allowedHosts, default fetch', () => {
  it('connects to an allowed host; unset allowedHosts restricts nothing', async () => {
    const mcp = await mcpServer();
    const restricted = client({ url: mcp.mcpUrl, allowedHosts: [mcp.host] });
    expect(Object.keys(await restricted.listTools())).toContain('remote_weatherTool');
    const open = client({ url: mcp.mcpUrl });
    expect(Object.keys(await open.listTools())).toContain('remote_weatherTool');
  });

  it('works over the legacy SSE fallback too', async () => {
    const mcp = await mcpServer();
    const sse = client({ url: mcp.url('/sse'), allowedHosts: [mcp.host] });
    const tools = await sse.listTools();
    expect(Object.keys(tools)).toContain('remote_weatherTool');
    expect(mcp.hits.some((hit) => hit.method === 'GET' && hit.path === '/sse')).toBe(true);
  });

  it('refuses a host not in the list before any request reaches it', async () => {
    const mcp = await mcpServer();
    // Same port on another address, the port alone, another port: none names 127.0.0.1:<port>.
    for (const allowedHosts of [
      [`127.0.0.2:${mcp.port}`],
      ['127.0.0.1'],
      [`127.0.0.1:${mcp.port + 1}`],
      [],
    ]) {
      const error = await connectError(client({ url: mcp.mcpUrl, allowedHosts }));
      expectBlocked(error, mcp.host);
    }
    expect(mcp.hits).toEqual([]);
  });

  it('matches the host name case-insensitively, without resolving it', async () => {
    const mcp = await mcpServer();
    const byName = new URL(`http://LOCALHOST:${mcp.port}/mcp`);
    const named = client({ url: byName, allowedHosts: [`LocalHost:${mcp.port}`] });
    expect(Object.keys(await named.listTools())).toContain('remote_weatherTool');
    expect(mcp.hits.every((hit) => hit.headers.host === `localhost:${mcp.port}`)).toBe(true);

    const before = mcp.hits.length;
    // localhost resolves to 127.0.0.1, but the entry names a different host.
    const error = await connectError(client({ url: byName, allowedHosts: [mcp.host] }));
    expectBlocked(error, `localhost:${mcp.port}`);
    expect(mcp.hits.length).toBe(before);
  });

  it('the message names the host only, never credentials, path or query', async () => {
    const mcp = await mcpServer();
    const url = new URL(`http://user:secret@127.0.0.1:${mcp.port}/mcp?token=abc`);
    const error = await connectError(client({ url, allowedHosts: ['api.example.com'] }));
    expectBlocked(error, mcp.host);
    expect(JSON.stringify(error.toJSON())).not.toMatch(/secret|token=abc|user/);
  });

  it('follows a redirect chain across allowed hosts, 307 keeping the POST and its body', async () => {
    const mcp = await mcpServer();
    const [first, second] = await redirectorPair(mcp.mcpUrl);
    const mcpClient = client({ url: first.url('/mcp'), allowedHosts: [first.host, second.host, mcp.host] });
    const tools = await mcpClient.listTools();
    const weather = await run(tools.remote_weatherTool, { location: 'Nice' });
    expect(weather).toMatchObject({ location: 'Nice', forecast: 'Weather in Nice is sunny.' });
    const calls = first.hits.filter((hit) => hit.body.includes('"tools/call"'));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('POST');
    // The same body arrived at every hop.
    expect(second.hits.map((hit) => hit.body)).toEqual(first.hits.map((hit) => hit.body));
    expect(mcp.hits.map((hit) => hit.method)).toEqual(first.hits.map((hit) => hit.method));
  });

  it('refuses a hop to a host not in the list before it is sent, and never retries', async () => {
    const mcp = await mcpServer();
    const target = await redirector('127.0.0.3', { '/mcp': mcp.mcpUrl });
    const entry = await redirector('127.0.0.2', { '/mcp': target.url('/mcp') });
    const mcpClient = client({ url: entry.url('/mcp'), allowedHosts: [entry.host, mcp.host] });
    expectBlocked(await connectError(mcpClient), target.host);
    // One request, one refused hop: no retry, no legacy SSE fallback.
    expect(entry.hits).toHaveLength(1);
    expect(target.hits).toEqual([]);
    expect(mcp.hits).toEqual([]);
    // A later operation is a new attempt (one request again), refused the same way.
    const { errors } = await mcpClient.listToolsWithErrors();
    expect(errors.remote).toContain(`host '${target.host}' is not in allowedHosts`);
    expect(entry.hits).toHaveLength(2);
    expect(target.hits).toEqual([]);
  });

  it('fails an operation whose request hops to a host not in the list, without retry or reconnect', async () => {
    const mcp = await mcpServer();
    const target = await redirector('127.0.0.3', { '/mcp': mcp.mcpUrl });
    const routes: Record<string, URL> = { '/mcp': mcp.mcpUrl };
    const entry = await redirector('127.0.0.2', routes);
    // Legacy sessions: the path where a 404 would make the client reopen the session and retry.
    const mcpClient = client({
      url: entry.url('/mcp'),
      allowedHosts: [entry.host, mcp.host],
      protocolVersion: 'legacy',
    });
    const tools = await mcpClient.listTools();
    const initializes = () => entry.hits.filter((hit) => hit.body.includes('"initialize"')).length;
    expect(initializes()).toBe(1);

    routes['/mcp'] = target.url('/mcp');
    const before = entry.hits.length;
    const failure = await run(tools.remote_weatherTool, { location: 'Nice' }).then(
      () => undefined,
      (error: MastraError) => error,
    );
    expect(failure?.id).toBe('MCP_CLIENT_TOOL_CALL_FAILED');
    expect(failure?.message).toContain(
      `host '${target.host}' is not in allowedHosts; the request was not sent`,
    );
    expect(entry.hits.length - before).toBe(1);
    expect(target.hits).toEqual([]);

    // The connection was not dropped: the next call uses the same session.
    routes['/mcp'] = mcp.mcpUrl;
    expect(await run(tools.remote_weatherTool, { location: 'Nice' })).toMatchObject({ location: 'Nice' });
    expect(initializes()).toBe(1);
  });

  it('follows at most 5 redirects', async () => {
    const mcp = await mcpServer();
    const routes: Record<string, URL> = { '/hop/1': mcp.mcpUrl };
    const chain = await redirector('127.0.0.2', routes);
    for (let n = 2; n <= 6; n++) routes[`/hop/${n}`] = chain.url(`/hop/${n - 1}`);
    const allowedHosts = [chain.host, mcp.host];

    const five = client({ url: chain.url('/hop/5'), allowedHosts });
    expect(Object.keys(await five.listTools())).toContain('remote_weatherTool');
    const served = mcp.hits.length;
    expect(served).toBeGreaterThan(0);

    const hopsBefore = chain.hits.length;
    const error = await connectError(client({ url: chain.url('/hop/6'), allowedHosts }));
    expect(error.id).toBe('MCP_CLIENT_CONNECT_FAILED');
    expect(error.message).toContain('more than 5 redirects');
    expect(chain.hits.length - hopsBefore).toBe(6);
    expect(mcp.hits.length).toBe(served);
  });

  it('keeps Authorization and Cookie on same-origin hops and drops them when the port changes', async () => {
    const mcp = await mcpServer();
    const routes: Record<string, URL> = {};
    const gateway = await redirector('127.0.0.1', routes);
    // Same origin: /start -> /next on the gateway; then only the port changes: -> the MCP server.
    routes['/start'] = gateway.url('/next');
    routes['/next'] = mcp.mcpUrl;
    const mcpClient = client({
      url: gateway.url('/start'),
      allowedHosts: [gateway.host, mcp.host],
      requestInit: { headers: { Authorization: 'Bearer secret', Cookie: 'sid=1', 'X-Trace': 'kept' } },
    });
    expect(Object.keys(await mcpClient.listTools())).toContain('remote_weatherTool');
    const atNext = gateway.hits.filter((hit) => hit.path === '/next');
    expect(atNext.length).toBeGreaterThan(0);
    for (const hit of atNext) {
      expect(hit.headers.authorization).toBe('Bearer secret');
      expect(hit.headers.cookie).toBe('sid=1');
    }
    expect(mcp.hits.length).toBeGreaterThan(0);
    for (const hit of mcp.hits) {
      expect(hit.headers.authorization).toBeUndefined();
      expect(hit.headers.cookie).toBeUndefined();
      expect(hit.headers['x-trace']).toBe('kept');
    }
  });

  it('drops Authorization when only the host changes', async () => {
    const mcp = await mcpServer();
    const [first, second] = await redirectorPair(mcp.mcpUrl);
    expect(first.port).toBe(second.port);
    const mcpClient = client({
      url: first.url('/mcp'),
      allowedHosts: [first.host, second.host, mcp.host],
      requestInit: { headers: { Authorization: 'Bearer secret' } },
    });
    expect(Object.keys(await mcpClient.listTools())).toContain('remote_weatherTool');
    expect(first.hits.every((hit) => hit.headers.authorization === 'Bearer secret')).toBe(true);
    expect(second.hits.length).toBeGreaterThan(0);
    expect(second.hits.every((hit) => hit.headers.authorization === undefined)).toBe(true);
  });
});

describe('the allowedHosts fetch, on its own', () => {
  it.each([
    [301, 'GET'],
    [302, 'GET'],
    [303, 'GET'],
    [307, 'POST'],
    [308, 'POST'],
  ])('a %i redirect of a POST arrives as %s, as fetch would send it', async (status, method) => {
    const landing = await listen('127.0.0.3', (_req, res) => res.writeHead(200).end('landed'));
    const entry = await redirector('127.0.0.2', { '/go': landing.url('/landing') }, status);
    const guarded = allowedHostsFetch('remote', [entry.host, landing.host]);
    const response = await guarded(entry.url('/go'), {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('landed');
    expect(response.url).toBe(landing.url('/landing').href);
    expect(response.redirected).toBe(true);
    const [hit] = landing.hits;
    expect(hit?.method).toBe(method);
    expect(hit?.body).toBe(method === 'POST' ? '{"a":1}' : '');
    expect(hit?.headers['content-type']).toBe(method === 'POST' ? 'application/json' : undefined);
  });

  it("leaves a redirect to the caller that asks for redirect: 'manual'", async () => {
    const landing = await listen('127.0.0.3', (_req, res) => res.writeHead(200).end());
    const entry = await redirector('127.0.0.2', { '/go': landing.url('/landing') });
    const guarded = allowedHostsFetch('remote', [entry.host]);
    const response = await guarded(entry.url('/go'), { redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(landing.url('/landing').href);
    expect(landing.hits).toEqual([]);
  });
});

describe('MCPClient allowedHosts, custom fetch', () => {
  it('checks the initial URL before calling the custom fetch', async () => {
    const mcp = await mcpServer();
    let calls = 0;
    const mcpClient = client({
      url: mcp.mcpUrl,
      allowedHosts: ['127.0.0.2'],
      fetch: (url, init) => {
        calls++;
        return fetch(url, init);
      },
    });
    expectBlocked(await connectError(mcpClient), mcp.host);
    expect(calls).toBe(0);
    expect(mcp.hits).toEqual([]);
  });

  it('discards a response whose response.url names a host not in the list, and never retries', async () => {
    // The target answers 404, which would send the client to the legacy SSE fallback were it accepted.
    const target = await listen('127.0.0.3', (_req, res) => res.writeHead(404).end());
    const entry = await redirector('127.0.0.2', { '/mcp': target.url('/mcp') });
    const mcpClient = client({
      url: entry.url('/mcp'),
      allowedHosts: [entry.host],
      // Follows redirects by itself, so response.url is the final URL.
      fetch: (url, init) => fetch(url, { ...init, redirect: 'follow' }),
    });
    const error = await connectError(mcpClient);
    expect(error.id).toBe('MCP_CLIENT_HOST_NOT_ALLOWED');
    expect(error.message).toBe(
      `MCP server 'remote': the response came from host '${target.host}', which is not in allowedHosts; it was discarded`,
    );
    // The hop itself happened (the custom fetch made it); nothing was tried after the refusal.
    expect(entry.hits).toHaveLength(1);
    expect(target.hits).toHaveLength(1);
  });

  it('accepts a hand-built Response (empty response.url) without the after-the-fact check', async () => {
    const mcp = await mcpServer();
    const entry = await redirector('127.0.0.2', { '/mcp': mcp.mcpUrl });
    const mcpClient = client({
      url: entry.url('/mcp'),
      allowedHosts: [entry.host],
      fetch: async (url, init) => {
        const response = await fetch(url, { ...init, redirect: 'follow' });
        const copy = new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
        expect(copy.url).toBe('');
        return copy;
      },
    });
    expect(Object.keys(await mcpClient.listTools())).toContain('remote_weatherTool');
    // The MCP server's host is not in the list, yet it was reached: the documented gap.
    expect(mcp.hits.length).toBeGreaterThan(0);
  });
});

describe('MCPClient allowedHosts, OAuth requests of authProvider', () => {
  /** A resource server that demands a token, and publishes its protected resource metadata. */
  async function protectedResource(authorizationServer: () => URL, metadataUrl?: () => URL) {
    const front: Listener = await listen('127.0.0.1', (req, res) => {
      if (req.url === '/.well-known/oauth-protected-resource') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            resource: front.url('/mcp').href,
            authorization_servers: [authorizationServer().href],
          }),
        );
        return;
      }
      const prm = metadataUrl?.() ?? front.url('/.well-known/oauth-protected-resource');
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${prm.href}"` }).end();
    });
    return front;
  }

  function provider(redirects: URL[]): OAuthClientProvider {
    return {
      get redirectUrl() {
        return 'http://127.0.0.1:1/callback';
      },
      get clientMetadata() {
        return { client_name: 'allowed-hosts test', redirect_uris: ['http://127.0.0.1:1/callback'] };
      },
      clientInformation: () => ({ client_id: 'test-client' }),
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: (url) => {
        redirects.push(url);
      },
      saveCodeVerifier: () => {},
      codeVerifier: () => 'verifier',
    };
  }

  it('refuses discovery on an authorization server whose host is not in the list', async () => {
    const authorizationServer = await listen('127.0.0.3', (_req, res) => res.writeHead(404).end());
    const front = await protectedResource(() => authorizationServer.url('/'));
    const redirects: URL[] = [];
    const mcpClient = client({
      url: front.url('/mcp'),
      allowedHosts: [front.host],
      authProvider: provider(redirects),
    });
    expectBlocked(await connectError(mcpClient), authorizationServer.host);
    expect(front.hits.some((hit) => hit.path === '/.well-known/oauth-protected-resource')).toBe(true);
    expect(authorizationServer.hits).toEqual([]);
    expect(redirects).toEqual([]);
  });

  it('reaches the authorization server once its host is in the list', async () => {
    const authorizationServer = await listen('127.0.0.3', (_req, res) => res.writeHead(404).end());
    const front = await protectedResource(() => authorizationServer.url('/'));
    const redirects: URL[] = [];
    const mcpClient = client({
      url: front.url('/mcp'),
      allowedHosts: [front.host, authorizationServer.host],
      authProvider: provider(redirects),
    });
    const error = await connectError(mcpClient);
    expect(error.id).not.toBe('MCP_CLIENT_HOST_NOT_ALLOWED');
    expect(authorizationServer.hits.length).toBeGreaterThan(0);
    expect(redirects.map((url) => url.host)).toEqual([authorizationServer.host]);
  });

  it('refuses protected resource metadata served from a host not in the list', async () => {
    const elsewhere = await listen('127.0.0.3', (_req, res) => res.writeHead(404).end());
    const front = await protectedResource(
      () => front.url('/'),
      () => elsewhere.url('/.well-known/oauth-protected-resource'),
    );
    const mcpClient = client({
      url: front.url('/mcp'),
      allowedHosts: [front.host],
      authProvider: provider([]),
    });
    expectBlocked(await connectError(mcpClient), elsewhere.host);
    expect(elsewhere.hits).toEqual([]);
  });
});
