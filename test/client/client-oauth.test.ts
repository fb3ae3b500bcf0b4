/**
 * MCPClient's OAuth client: MCPOAuthClientProvider (identity, issuer-bound tokens, discovery pin,
 * storage order), the loopback callback server, the auth state machine and authenticate() /
 * cancelAuthentication() against a minimal protected endpoint, and end to end against a real
 * authorization server protecting an MCPServer (support/oauth-stack.ts). Runtime client
 * registration (the v1 shape) is client-oauth-registration.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MastraError } from '@mastra/core/error';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALLBACK_PORT_ATTEMPTS } from '../../src/client/auth/callback-server.js';
import {
  createOAuthCallbackServer,
  createSimpleTokenProvider,
  getCallbackUrlCandidates,
  type HttpServerDefinition,
  InMemoryOAuthStorage,
  MCPClient,
  MCPOAuthClientProvider,
  type MCPOAuthClientProviderOptions,
  MCPServer,
  type OAuthCallbackServer,
  type OAuthStorage,
} from '../../src/index.js';
import { weatherTool } from '../fixtures/tools.js';
import { freePort, listenLocal } from '../support/net.js';
import { Browser, callWeather, protectedStack } from '../support/oauth-stack.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const CIMD_URL = 'https://app.example.com/oauth/client-metadata.json';

function errorOf(work: () => unknown): MastraError {
  try {
    work();
  } catch (error) {
    if (error instanceof MastraError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

async function occupy(port: number): Promise<void> {
  const blocker = http.createServer((_req, res) => res.writeHead(418).end());
  await new Promise<void>((resolve, reject) => {
    blocker.once('error', reject);
    blocker.listen(port, '127.0.0.1', resolve);
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        blocker.closeAllConnections();
        blocker.close(() => resolve());
      }),
  );
}

/** Whether anything accepts connections on `url` (a closed callback server does not). */
async function listening(url: URL): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

function provider(overrides: Partial<MCPOAuthClientProviderOptions> = {}): MCPOAuthClientProvider {
  return new MCPOAuthClientProvider({
    redirectUrl: 'http://127.0.0.1:5533/oauth/callback',
    clientMetadata: { redirect_uris: ['http://127.0.0.1:5533/oauth/callback'], client_name: 'test' },
    clientInformation: { client_id: 'registered-client' },
    ...overrides,
  });
}

function discovery(issuer: string, extra: Record<string, unknown> = {}): OAuthDiscoveryState {
  return {
    authorizationServerUrl: issuer,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      response_types_supported: ['code'],
      ...extra,
    },
  } as OAuthDiscoveryState;
}

describe('MCPOAuthClientProvider', () => {
  it('takes at most one client identity', () => {
    const both = errorOf(() =>
      provider({ clientInformation: { client_id: 'x' }, clientMetadataUrl: CIMD_URL }),
    );
    expect(both.id).toBe('MCP_CLIENT_OAUTH_INVALID_CONFIG');
    expect(both.message).toContain("'clientInformation'");
    expect(both.message).toContain("'clientMetadataUrl'");
    expect(both.details).toMatchObject({ fields: 'clientInformation,clientMetadataUrl' });

    for (const url of ['http://app.example.com/cimd', 'https://app.example.com/', 'not a url']) {
      const refused = errorOf(() => provider({ clientInformation: undefined, clientMetadataUrl: url }));
      expect(refused.id).toBe('MCP_CLIENT_OAUTH_INVALID_CONFIG');
      expect(refused.details).toMatchObject({ fields: 'clientMetadataUrl' });
    }
    expect(
      errorOf(() =>
        provider({
          clientInformation: undefined,
          clientMetadataUrl: CIMD_URL,
          clientMetadata: { redirect_uris: [], client_id: 'https://elsewhere.example.com/cimd.json' },
        }),
      ).message,
    ).toContain('client_id');
    expect(errorOf(() => provider({ redirectUrl: 'not a url' })).details).toMatchObject({
      fields: 'redirectUrl',
    });
  });

  it('can register a client only without a configured identity: only then has it saveClientInformation', () => {
    expect('saveClientInformation' in provider()).toBe(false);
    expect(
      'saveClientInformation' in provider({ clientInformation: undefined, clientMetadataUrl: CIMD_URL }),
    ).toBe(false);
    expect(provider({ clientInformation: undefined }).saveClientInformation).toEqual(expect.any(Function));
  });

  it('returns the pre-registered client for any authorization server', async () => {
    expect(await provider().clientInformation({ issuer: 'https://as.example.com' })).toEqual({
      client_id: 'registered-client',
    });
  });

  it('offers the metadata-document URL only to an authorization server that supports it', async () => {
    const cimd = provider({ clientInformation: undefined, clientMetadataUrl: CIMD_URL });
    await cimd.saveDiscoveryState(discovery('https://as.example.com'));
    const refused = await rejectionOf(
      Promise.resolve(cimd.clientInformation({ issuer: 'https://as.example.com' })),
      MastraError,
    );
    expect(refused.id).toBe('MCP_CLIENT_OAUTH_NO_CLIENT_IDENTITY');
    expect(refused.message).toContain('client_id_metadata_document_supported');
    expect(refused.message).toContain('https://as.example.com');

    await cimd.saveDiscoveryState(
      discovery('https://as.example.com', { client_id_metadata_document_supported: true }),
    );
    expect(await cimd.clientInformation({ issuer: 'https://as.example.com' })).toEqual({
      client_id: CIMD_URL,
    });
    // Support announced by one server says nothing about another.
    expect(
      (
        await rejectionOf(
          Promise.resolve(cimd.clientInformation({ issuer: 'https://other.example.com' })),
          MastraError,
        )
      ).id,
    ).toBe('MCP_CLIENT_OAUTH_NO_CLIENT_IDENTITY');
  });

  it('binds tokens to the issuer that minted them', async () => {
    const subject = provider();
    const fromA = { access_token: 'token-a', token_type: 'Bearer', issuer: 'https://a.example.com' };
    await subject.saveTokens(fromA, { issuer: 'https://a.example.com' });
    expect(await subject.tokens({ issuer: 'https://a.example.com' })).toEqual(fromA);
    expect(await subject.tokens({ issuer: 'https://a.example.com/' })).toEqual(fromA);
    expect(await subject.tokens({ issuer: 'https://b.example.com' })).toBeUndefined();
    expect(await subject.tokens()).toEqual(fromA);

    // Discovery now names issuer B: A's tokens are not sent any more.
    await subject.saveDiscoveryState(discovery('https://b.example.com'));
    expect(await subject.tokens()).toBeUndefined();
    await subject.saveDiscoveryState(discovery('https://a.example.com'));
    expect(await subject.tokens()).toEqual(fromA);

    const fromB = { access_token: 'token-b', token_type: 'Bearer' };
    await subject.saveTokens(fromB, { issuer: 'https://b.example.com' });
    expect(await subject.tokens({ issuer: 'https://b.example.com' })).toEqual({
      ...fromB,
      issuer: 'https://b.example.com',
    });
    expect(await subject.tokens({ issuer: 'https://a.example.com' })).toEqual(fromA);

    await subject.invalidateCredentials('tokens');
    expect(await subject.tokens()).toBeUndefined();
    expect(await subject.tokens({ issuer: 'https://a.example.com' })).toBeUndefined();
    expect(await subject.tokens({ issuer: 'https://b.example.com' })).toBeUndefined();
  });

  it('pins discovery state only while an authorization is outstanding', async () => {
    const subject = provider();
    await subject.saveDiscoveryState(discovery('https://a.example.com'));
    expect(await subject.discoveryState()).toBeUndefined();
    await subject.saveCodeVerifier('verifier');
    expect(await subject.codeVerifier()).toBe('verifier');
    expect((await subject.discoveryState())?.authorizationServerUrl).toBe('https://a.example.com');
    await subject.invalidateCredentials('verifier');
    expect(await subject.discoveryState()).toBeUndefined();
    expect((await rejectionOf(Promise.resolve(subject.codeVerifier()), MastraError)).id).toBe(
      'MCP_CLIENT_OAUTH_NO_CODE_VERIFIER',
    );
  });

  it('keeps tokens, discovery, verifier and state in the storage it is given', async () => {
    const storage = new InMemoryOAuthStorage();
    const subject = provider({ storage });
    await subject.saveTokens(
      { access_token: 'secret', token_type: 'Bearer' },
      { issuer: 'https://a.example.com' },
    );
    await subject.saveDiscoveryState(discovery('https://a.example.com'));
    await subject.saveCodeVerifier('verifier');
    const state = await subject.state();
    expect(JSON.parse((await storage.get('tokens')) as string)).toMatchObject({
      access_token: 'secret',
      issuer: 'https://a.example.com',
    });
    expect(await storage.get('tokens:https://a.example.com')).toBe(await storage.get('tokens'));
    expect(await storage.get('code-verifier')).toBe('verifier');
    expect(await storage.get('state')).toBe(state);
    expect(await storage.get('discovery')).toContain('https://a.example.com');
    // A second provider on the same storage sees the same tokens (a restart).
    expect(await provider({ storage }).tokens()).toMatchObject({ access_token: 'secret' });
  });

  it('orders storage operations within one provider, however slow the backend', async () => {
    const log: string[] = [];
    const entries = new Map<string, string>();
    let delay = 30;
    const slow: OAuthStorage = {
      async get(key) {
        log.push(`get ${key}`);
        return entries.get(key);
      },
      async set(key, value) {
        // Earlier writes take longer: without the queue they would land last.
        const wait = delay;
        delay = Math.max(0, delay - 10);
        await new Promise((resolve) => setTimeout(resolve, wait));
        entries.set(key, value);
        log.push(`set ${key} ${JSON.parse(value).access_token ?? value}`);
      },
      async delete(key) {
        entries.delete(key);
        log.push(`delete ${key}`);
      },
    };
    const subject = provider({ storage: slow });
    const writes = [
      subject.saveTokens({ access_token: 'first', token_type: 'Bearer' }),
      subject.saveTokens({ access_token: 'second', token_type: 'Bearer' }),
      subject.saveTokens({ access_token: 'third', token_type: 'Bearer' }),
    ];
    const read = subject.tokens();
    await Promise.all(writes);
    expect((await read)?.access_token).toBe('third');
    expect(log.filter((line) => line.startsWith('set tokens '))).toEqual([
      'set tokens first',
      'set tokens second',
      'set tokens third',
    ]);
    expect(log.at(-1)).toBe('get tokens');
  });

  it('createSimpleTokenProvider sends the given token', async () => {
    const simple = createSimpleTokenProvider('your-access-token', {
      redirectUrl: 'http://localhost:3000/callback',
      clientMetadata: { redirect_uris: ['http://localhost:3000/callback'], client_name: 'Test Client' },
      clientInformation: { client_id: 'test-client' },
    });
    expect(simple).toBeInstanceOf(MCPOAuthClientProvider);
    expect(await simple.tokens()).toEqual({ access_token: 'your-access-token', token_type: 'Bearer' });
    expect(await simple.clientInformation()).toEqual({ client_id: 'test-client' });
    expect(
      errorOf(() =>
        createSimpleTokenProvider('', {
          redirectUrl: 'http://localhost:3000/callback',
          clientMetadata: { redirect_uris: [] },
          clientInformation: { client_id: 'test-client' },
        }),
      ).id,
    ).toBe('MCP_CLIENT_OAUTH_INVALID_CONFIG');
  });
});

/** A callback server on any free port expecting `state` 'expected'; closed after the test. */
async function callbackServer() {
  const server = await createOAuthCallbackServer({ redirectUrl: 'http://127.0.0.1:0/cb', state: 'expected' });
  cleanups.push(() => server.close());
  return server;
}

/** The browser's request to the callback server, with these query parameters. */
function answer(server: OAuthCallbackServer, params: Record<string, string>, path = server.url.pathname) {
  const url = new URL(path, server.url);
  url.search = new URLSearchParams(params).toString();
  return fetch(url);
}

describe('createOAuthCallbackServer', () => {
  it('lists the redirect URL and the following ports as candidates', () => {
    const candidates = getCallbackUrlCandidates('http://127.0.0.1:5533/oauth/callback');
    expect(candidates).toHaveLength(CALLBACK_PORT_ATTEMPTS);
    expect(candidates.map((url) => url.href)).toEqual(
      Array.from({ length: CALLBACK_PORT_ATTEMPTS }, (_, i) => `http://127.0.0.1:${5533 + i}/oauth/callback`),
    );
    expect(getCallbackUrlCandidates('http://localhost:0/cb').map(String)).toEqual(['http://localhost:0/cb']);
    expect(getCallbackUrlCandidates('http://[::1]:65534/cb').map(String)).toEqual([
      'http://[::1]:65534/cb',
      'http://[::1]:65535/cb',
    ]);
  });

  it('refuses redirect URLs that are not loopback http', async () => {
    for (const url of ['https://127.0.0.1:5533/cb', 'http://app.example.com/cb', 'http://10.0.0.1:5533/cb']) {
      expect(errorOf(() => getCallbackUrlCandidates(url)).id).toBe('MCP_CLIENT_OAUTH_INVALID_REDIRECT_URL');
      expect(
        (await rejectionOf(createOAuthCallbackServer({ redirectUrl: url, state: 's' }), MastraError)).id,
      ).toBe('MCP_CLIENT_OAUTH_INVALID_REDIRECT_URL');
    }
    expect(
      (
        await rejectionOf(
          createOAuthCallbackServer({ redirectUrl: 'http://127.0.0.1:0/cb', state: '' }),
          MastraError,
        )
      ).id,
    ).toBe('MCP_CLIENT_OAUTH_INVALID_STATE');
  });

  it('resolves the code and iss of the response that carries the expected state, then closes', async () => {
    const server = await callbackServer();
    expect(server.url.port).not.toBe('0');
    const response = await answer(server, {
      code: 'the-code',
      state: 'expected',
      iss: 'https://as.example.com',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await server.waitForCode()).toEqual({ code: 'the-code', iss: 'https://as.example.com' });
    await server.close();
    expect(await listening(server.url)).toBe(false);
  });

  it('answers a foreign or missing state with 400 and keeps waiting', async () => {
    const server = await callbackServer();
    let settled = false;
    const waiting = server.waitForCode().finally(() => {
      settled = true;
    });
    const at = (params: Record<string, string>, path?: string) => answer(server, params, path);
    expect((await at({ code: 'forged', state: 'tampered' })).status).toBe(400);
    expect((await at({ code: 'forged' })).status).toBe(400);
    expect((await at({ error: 'access_denied', state: 'tampered' })).status).toBe(400);
    expect((await at({ state: 'expected' })).status).toBe(400);
    expect((await at({ code: 'x', state: 'expected' }, '/elsewhere')).status).toBe(404);
    expect(settled).toBe(false);
    expect((await at({ code: 'genuine', state: 'expected' })).status).toBe(200);
    expect(await waiting).toEqual({ code: 'genuine' });
  });

  it('rejects on an error response that carries the expected state', async () => {
    const server = await callbackServer();
    const response = await answer(server, {
      error: 'access_denied',
      error_description: 'The user said no',
      state: 'expected',
    });
    expect(response.status).toBe(400);
    const error = await rejectionOf(server.waitForCode(), MastraError);
    expect(error.id).toBe('MCP_CLIENT_OAUTH_AUTHORIZATION_FAILED');
    expect(error.message).toContain('access_denied');
    expect(error.message).toContain('The user said no');
  });

  it('falls back to the next port when the redirect port is taken, and reports when all are', async () => {
    const port = await freePort();
    await occupy(port);
    const server = await createOAuthCallbackServer({
      redirectUrl: `http://127.0.0.1:${port}/cb`,
      state: 's',
    });
    cleanups.push(() => server.close());
    const candidates = getCallbackUrlCandidates(`http://127.0.0.1:${port}/cb`).map(String);
    expect(candidates.indexOf(server.url.href)).toBeGreaterThan(0);

    await server.close();
    // Every candidate taken (by us, or by whoever already had it).
    for (const candidate of candidates) await occupy(Number(new URL(candidate).port)).catch(() => undefined);
    const error = await rejectionOf(
      createOAuthCallbackServer({ redirectUrl: `http://127.0.0.1:${port}/cb`, state: 's' }),
      MastraError,
    );
    expect(error.id).toBe('MCP_CLIENT_OAUTH_CALLBACK_PORT_IN_USE');
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  it('close() before a response rejects waitForCode and frees the port', async () => {
    const server = await createOAuthCallbackServer({ redirectUrl: 'http://127.0.0.1:0/cb', state: 's' });
    await server.close();
    expect((await rejectionOf(server.waitForCode(), MastraError)).id).toBe(
      'MCP_CLIENT_OAUTH_CALLBACK_CLOSED',
    );
    expect(await listening(server.url)).toBe(false);
    await server.close();
  });
});

interface Guarded {
  mcpUrl: URL;
  base: string;
  /** `METHOD /path` of every request, in order. */
  hits: string[];
}

/**
 * A minimal protected endpoint: an MCPServer behind a check for one Bearer token (anything else
 * gets 401 with a `resource_metadata` challenge), its protected resource metadata, and the
 * metadata of an authorization server whose endpoints nobody needs to visit.
 */
async function startGuarded(options: { acceptToken?: string; cimd?: boolean } = {}): Promise<Guarded> {
  const hits: string[] = [];
  const mcp = new MCPServer({
    id: 'guarded',
    name: 'Guarded',
    version: '1.0.0',
    tools: { weather: weatherTool },
  });
  let base = '';
  const json = (res: http.ServerResponse, body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    hits.push(`${req.method} ${url.pathname}`);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      json(res, { resource: `${base}/mcp`, authorization_servers: [base] });
    } else if (url.pathname === '/.well-known/oauth-authorization-server') {
      json(res, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        ...(options.cimd ? { client_id_metadata_document_supported: true } : {}),
      });
    } else if (
      url.pathname === '/mcp' &&
      options.acceptToken &&
      req.headers.authorization === `Bearer ${options.acceptToken}`
    ) {
      await mcp.startHTTP({ url, httpPath: '/mcp', req, res });
    } else if (url.pathname === '/mcp') {
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
    } else {
      res.writeHead(404).end();
    }
  });
  await listenLocal(server);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await mcp.close();
  });
  return { mcpUrl: new URL(`${base}/mcp`), base, hits };
}

/** Resolves each time the provider hands out an authorization URL. */
class Redirects {
  readonly urls: URL[] = [];
  private waiters: Array<(url: URL) => void> = [];
  readonly handler = (url: URL) => {
    this.urls.push(url);
    for (const waiter of this.waiters.splice(0)) waiter(url);
  };
  next(): Promise<URL> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

let clientCount = 0;
function clientFor(servers: Record<string, HttpServerDefinition>): MCPClient {
  const mcp = new MCPClient({ id: `oauth-test-${++clientCount}`, registerProcessHooks: false, servers });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

async function loopbackProvider(
  redirects: Redirects,
  overrides: Partial<MCPOAuthClientProviderOptions> = {},
) {
  const redirectUrl = `http://127.0.0.1:${await freePort()}/oauth/callback`;
  return new MCPOAuthClientProvider({
    redirectUrl,
    clientMetadata: {
      redirect_uris: getCallbackUrlCandidates(redirectUrl).map(String),
      client_name: 'oauth test',
    },
    clientInformation: { client_id: 'registered-client' },
    onRedirectToAuthorization: redirects.handler,
    ...overrides,
  });
}

describe('MCPClient auth state and authenticate() (minimal protected endpoint)', () => {
  it("records 'needs-auth' when the server refuses the connection for want of authorization", async () => {
    const guarded = await startGuarded();
    const redirects = new Redirects();
    const mcp = clientFor({
      guarded: { url: guarded.mcpUrl, authProvider: await loopbackProvider(redirects) },
    });
    expect(mcp.getServerAuthState('guarded')).toBeUndefined();
    const { errors, errorDetails } = await mcp.listToolsWithErrors();
    expect(errors.guarded).toContain("MCP server 'guarded' requires authorization");
    expect(errorDetails.guarded?.message).toContain("'needs-auth'");
    expect(mcp.getServerAuthState('guarded')).toBe('needs-auth');
    // The SDK started an authorization with the pre-registered client, and nobody registered one.
    expect(redirects.urls).toHaveLength(1);
    expect(redirects.urls[0]?.searchParams.get('client_id')).toBe('registered-client');
    expect(redirects.urls[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(guarded.hits).not.toContain('POST /register');
    expect(await mcp.cancelAuthentication('guarded')).toBe(false);
  });

  it('has no auth state for servers without an authProvider; unknown servers throw', async () => {
    const guarded = await startGuarded();
    const mcp = clientFor({ plain: { url: guarded.mcpUrl } });
    await mcp.listToolsWithErrors();
    expect(mcp.getServerAuthState('plain')).toBeUndefined();
    expect(errorOf(() => mcp.getServerAuthState('nope')).id).toBe('MCP_CLIENT_UNKNOWN_SERVER');
    expect((await rejectionOf(mcp.cancelAuthentication('nope'), MastraError)).id).toBe(
      'MCP_CLIENT_UNKNOWN_SERVER',
    );
  });

  it('sends the metadata-document URL as client_id where supported, and fails explicitly where not', async () => {
    const supporting = await startGuarded({ cimd: true });
    const refusing = await startGuarded();
    const redirects = new Redirects();
    const cimd = { clientInformation: undefined, clientMetadataUrl: CIMD_URL };
    const mcp = clientFor({
      supporting: { url: supporting.mcpUrl, authProvider: await loopbackProvider(redirects, cimd) },
      refusing: { url: refusing.mcpUrl, authProvider: await loopbackProvider(redirects, cimd) },
    });
    const { errors } = await mcp.listToolsWithErrors();
    expect(redirects.urls.map((url) => url.searchParams.get('client_id'))).toEqual([CIMD_URL]);
    expect(mcp.getServerAuthState('supporting')).toBe('needs-auth');
    expect(errors.refusing).toContain('does not accept Client ID Metadata Documents');
    expect(errors.refusing).toContain("configure 'clientInformation'");
    expect(refusing.hits).not.toContain('POST /register');
  });

  it('refuses authenticate() for servers it cannot drive', async () => {
    const guarded = await startGuarded();
    const redirects = new Redirects();
    const mcp = clientFor({
      plain: { url: guarded.mcpUrl },
      web: {
        url: guarded.mcpUrl,
        authProvider: await loopbackProvider(redirects, {
          redirectUrl: 'https://app.example.com/oauth/callback',
        }),
      },
    });
    expect((await rejectionOf(mcp.authenticate('plain'), MastraError)).id).toBe(
      'MCP_CLIENT_AUTH_NOT_SUPPORTED',
    );
    const web = await rejectionOf(mcp.authenticate('web'), MastraError);
    expect(web.id).toBe('MCP_CLIENT_AUTH_NOT_SUPPORTED');
    expect(web.message).toContain('loopback');
    expect((await rejectionOf(mcp.authenticate('nope'), MastraError)).id).toBe('MCP_CLIENT_UNKNOWN_SERVER');
    expect((await rejectionOf(mcp.authenticate('plain', { timeoutMs: 0 }), MastraError)).id).toBe(
      'MCP_CLIENT_AUTH_INVALID_TIMEOUT',
    );
  });

  it('reconnects without a browser when the stored token is accepted', async () => {
    const guarded = await startGuarded({ acceptToken: 'good-token' });
    const redirectUrl = `http://127.0.0.1:${await freePort()}/cb`;
    const mcp = clientFor({
      guarded: {
        url: guarded.mcpUrl,
        // No onRedirectToAuthorization: a redirect would fail the flow.
        authProvider: createSimpleTokenProvider('good-token', {
          redirectUrl,
          clientMetadata: { redirect_uris: [redirectUrl] },
          clientInformation: { client_id: 'registered-client' },
        }),
      },
    });
    await mcp.authenticate('guarded');
    expect(mcp.getServerAuthState('guarded')).toBe('authorized');
    expect(Object.keys(await mcp.listTools())).toEqual(['guarded_weather']);
    expect(await listening(new URL(redirectUrl))).toBe(false);
  });

  it('joins concurrent authenticate() calls into one flow with one redirect, and cancels it', async () => {
    const guarded = await startGuarded();
    const redirects = new Redirects();
    const authProvider = await loopbackProvider(redirects);
    const mcp = clientFor({ guarded: { url: guarded.mcpUrl, authProvider } });
    const redirected = redirects.next();
    const first = mcp.authenticate('guarded');
    const second = mcp.authenticate('guarded');
    const url = await redirected;
    const callback = new URL(url.searchParams.get('redirect_uri') as string);
    expect(callback.href).toBe(authProvider.redirectUrl);
    expect(await listening(callback)).toBe(true);
    expect(mcp.getServerAuthState('guarded')).toBe('needs-auth');

    expect(await mcp.cancelAuthentication('guarded')).toBe(true);
    const [a, b] = await Promise.allSettled([first, second]);
    expect(a.status === 'rejected' && (a.reason as MastraError).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
    expect(b.status === 'rejected' && (b.reason as MastraError).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
    expect(redirects.urls).toHaveLength(1);
    expect(await listening(callback)).toBe(false);
    // Cancelled after the 401: still 'needs-auth', and a new flow can start at once.
    expect(mcp.getServerAuthState('guarded')).toBe('needs-auth');
    expect(await mcp.cancelAuthentication('guarded')).toBe(false);
    const again = redirects.next();
    const retry = mcp.authenticate('guarded');
    await again;
    expect(redirects.urls).toHaveLength(2);
    expect(await mcp.cancelAuthentication('guarded')).toBe(true);
    expect((await rejectionOf(retry, MastraError)).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
  });

  it('cancels during setup, before anything connected: the state stays undefined', async () => {
    const guarded = await startGuarded();
    const redirects = new Redirects();
    const mcp = clientFor({
      guarded: { url: guarded.mcpUrl, authProvider: await loopbackProvider(redirects) },
    });
    const pending = mcp.authenticate('guarded');
    expect(await mcp.cancelAuthentication('guarded')).toBe(true);
    expect((await rejectionOf(pending, MastraError)).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
    expect(mcp.getServerAuthState('guarded')).toBeUndefined();
    expect(redirects.urls).toEqual([]);
    expect(guarded.hits.filter((hit) => hit.endsWith('/mcp'))).toEqual([]);
  });

  it('rejects after timeoutMs and closes the callback server', async () => {
    const guarded = await startGuarded();
    const redirects = new Redirects();
    const mcp = clientFor({
      guarded: { url: guarded.mcpUrl, authProvider: await loopbackProvider(redirects) },
    });
    const error = await rejectionOf(mcp.authenticate('guarded', { timeoutMs: 300 }), MastraError);
    expect(error.id).toBe('MCP_CLIENT_AUTH_TIMEOUT');
    expect(error.message).toContain("MCP server 'guarded'");
    expect(error.message).toContain('300 ms');
    const callback = new URL(redirects.urls[0]?.searchParams.get('redirect_uri') as string);
    expect(await listening(callback)).toBe(false);
    expect(mcp.getServerAuthState('guarded')).toBe('needs-auth');
  });

  it('binds the next port when the redirect port is taken, and sends that redirect_uri', async () => {
    const guarded = await startGuarded();
    const redirects = new Redirects();
    const authProvider = await loopbackProvider(redirects);
    const configured = new URL(authProvider.redirectUrl);
    await occupy(Number(configured.port));
    const mcp = clientFor({ guarded: { url: guarded.mcpUrl, authProvider } });
    const redirected = redirects.next();
    const flow = mcp.authenticate('guarded');
    const sent = new URL((await redirected).searchParams.get('redirect_uri') as string);
    const candidates = getCallbackUrlCandidates(configured).map(String);
    expect(candidates.indexOf(sent.href)).toBeGreaterThan(0);
    expect(authProvider.redirectUrl).toBe(sent.href);
    expect(await listening(sent)).toBe(true);
    await mcp.cancelAuthentication('guarded');
    await rejectionOf(flow, MastraError);
    expect(authProvider.redirectUrl).toBe(configured.href);
  });

  it('with a port-0 redirect URL, starts a new authorization on the port it bound', async () => {
    const guarded = await startGuarded();
    const redirects = new Redirects();
    const authProvider = await loopbackProvider(redirects, { redirectUrl: 'http://127.0.0.1:0/cb' });
    const mcp = clientFor({ guarded: { url: guarded.mcpUrl, authProvider } });
    await mcp.listToolsWithErrors();
    expect(redirects.urls[0]?.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:0/cb');
    const redirected = redirects.next();
    const flow = mcp.authenticate('guarded');
    const sent = new URL((await redirected).searchParams.get('redirect_uri') as string);
    expect(sent.port).not.toBe('0');
    expect(await listening(sent)).toBe(true);
    expect(await mcp.cancelAuthentication('guarded')).toBe(true);
    await rejectionOf(flow, MastraError);
  });

  it('authenticates different servers independently', async () => {
    const one = await startGuarded();
    const two = await startGuarded();
    const redirectsOne = new Redirects();
    const redirectsTwo = new Redirects();
    const mcp = clientFor({
      one: { url: one.mcpUrl, authProvider: await loopbackProvider(redirectsOne) },
      two: { url: two.mcpUrl, authProvider: await loopbackProvider(redirectsTwo) },
    });
    const [r1, r2] = [redirectsOne.next(), redirectsTwo.next()];
    const flowOne = mcp.authenticate('one');
    const flowTwo = mcp.authenticate('two');
    await Promise.all([r1, r2]);
    expect(await mcp.cancelAuthentication('one')).toBe(true);
    expect((await rejectionOf(flowOne, MastraError)).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
    const stillWaiting = new URL(redirectsTwo.urls[0]?.searchParams.get('redirect_uri') as string);
    expect(await listening(stillWaiting)).toBe(true);
    await mcp.disconnect();
    expect((await rejectionOf(flowTwo, MastraError)).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
    expect(await listening(stillWaiting)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// End to end: a real authorization server (oidc-provider) and an MCPServer behind
// createOAuthMiddleware with RFC 7662 introspection.
// ---------------------------------------------------------------------------------------------

/** OAuthStorage as a JSON file: what survives a restart. */
class FileOAuthStorage implements OAuthStorage {
  constructor(private readonly path: string) {}

  private read(): Record<string, string> {
    try {
      return JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return {};
    }
  }

  async get(key: string): Promise<string | undefined> {
    return this.read()[key];
  }

  async set(key: string, value: string): Promise<void> {
    writeFileSync(this.path, JSON.stringify({ ...this.read(), [key]: value }));
  }

  async delete(key: string): Promise<void> {
    const { [key]: _gone, ...rest } = this.read();
    writeFileSync(this.path, JSON.stringify(rest));
  }
}

/** Every access and refresh token a storage was given, for the leak checks. */
function secretsIn(storage: InMemoryOAuthStorage | FileOAuthStorage, keys: string[]): Promise<string[]> {
  return Promise.all(keys.map((key) => storage.get(key))).then((values) =>
    values.flatMap((value) => {
      if (!value) return [];
      const tokens = JSON.parse(value) as { access_token?: string; refresh_token?: string };
      return [tokens.access_token, tokens.refresh_token].filter((secret): secret is string => !!secret);
    }),
  );
}

/** Everything printed during a test (logger records, console output), plus error messages it adds. */
class Transcript {
  readonly lines: string[] = [];
  readonly logHandler = (entry: { level: string; message: string; details?: unknown }) => {
    this.lines.push(`${entry.level} ${entry.message} ${JSON.stringify(entry.details ?? {})}`);
  };

  captureConsole(): void {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        this.lines.push(`console.${method} ${args.map(String).join(' ')}`);
      });
      cleanups.push(async () => spy.mockRestore());
    }
  }

  leaks(secrets: string[]): string[] {
    return secrets.filter((secret) => this.lines.some((line) => line.includes(secret)));
  }
}

/** A protected stack, a browser, in-memory storage, and a client whose output goes to a transcript. */
async function recordedSession(stackOptions: { accessTokenTtl?: number } = {}) {
  const transcript = new Transcript();
  transcript.captureConsole();
  const stack = await protectedStack(cleanups, stackOptions);
  const browser = new Browser(stack.as);
  const storage = new InMemoryOAuthStorage();
  const mcp = stack.client({
    onRedirectToAuthorization: browser.onRedirectToAuthorization,
    storage,
    logger: transcript.logHandler,
  });
  return { transcript, stack, browser, storage, mcp };
}

describe('MCPClient OAuth end to end (oidc-provider, introspection)', () => {
  it('needs-auth on the first listing, authenticate() via the browser, then tools work; nothing secret is printed', async () => {
    const { transcript, stack, browser, storage, mcp } = await recordedSession();

    const first = await mcp.listToolsWithErrors();
    expect(first.errors.secured).toContain('requires authorization');
    transcript.lines.push(first.errors.secured as string);
    expect(mcp.getServerAuthState('secured')).toBe('needs-auth');
    // The SDK already sent the user to the authorization server; authenticate() completes that one.
    expect(browser.visits).toHaveLength(1);
    const authorization = browser.visits[0] as URL;
    expect(authorization.origin).toBe(stack.as.issuer);
    expect(authorization.searchParams.get('client_id')).toBe(stack.as.clientId);
    expect(authorization.searchParams.get('resource')).toBe(stack.mcpUrl.href);
    expect(authorization.searchParams.get('redirect_uri')).toBe(stack.redirectUrl);

    await mcp.authenticate('secured');
    expect(await Promise.all(browser.responses)).toEqual([200]);
    expect(browser.visits).toHaveLength(1);
    expect(mcp.getServerAuthState('secured')).toBe('authorized');
    expect(await callWeather(mcp, 'secured')).toEqual({
      location: 'Paris',
      forecast: 'Weather in Paris is sunny.',
    });

    const latest = JSON.parse((await storage.get('tokens')) as string);
    expect(latest.issuer).toBe(stack.as.issuer);
    expect(latest.refresh_token).toEqual(expect.any(String));
    expect(await storage.get(`tokens:${stack.as.issuer}`)).toBe(await storage.get('tokens'));
    // The verifier and state are spent once the code was exchanged.
    expect(await storage.get('code-verifier')).toBeUndefined();
    expect(await storage.get('state')).toBeUndefined();

    const secrets = await secretsIn(storage, ['tokens']);
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    expect(transcript.lines.length).toBeGreaterThan(0);
    expect(transcript.leaks(secrets)).toEqual([]);
  });

  it('refreshes an expired access token transparently, printing no token', async () => {
    const { transcript, stack, browser, storage, mcp } = await recordedSession({ accessTokenTtl: 1 });
    await mcp.authenticate('secured');
    const before = JSON.parse((await storage.get('tokens')) as string);
    await eventually('the access token to expire', async () => !(await stack.active(before.access_token)));
    expect(await callWeather(mcp, 'secured')).toMatchObject({ location: 'Paris' });
    const after = JSON.parse((await storage.get('tokens')) as string);
    expect(after.access_token).not.toBe(before.access_token);
    expect(await stack.active(after.access_token)).toBe(true);
    expect(browser.visits).toHaveLength(1);
    expect(mcp.getServerAuthState('secured')).toBe('authorized');
    const secrets = [before.access_token, before.refresh_token, after.access_token, after.refresh_token];
    expect(transcript.leaks(secrets.filter(Boolean))).toEqual([]);
  });

  it("records 'needs-auth' when an operation is refused mid-session, and authenticate() completes the SDK's authorization", async () => {
    const { transcript, stack, browser, storage, mcp } = await recordedSession();
    await mcp.authenticate('secured');
    const revoked = JSON.parse((await storage.get('tokens')) as string);
    await stack.revoke(revoked.refresh_token);
    await stack.revoke(revoked.access_token);
    expect(await stack.active(revoked.access_token)).toBe(false);

    // The 401 makes the SDK try the refresh token (refused), then start a new authorization.
    const { errors } = await mcp.listToolsWithErrors();
    expect(errors.secured).toContain('Unauthorized');
    transcript.lines.push(errors.secured as string);
    expect(mcp.getServerAuthState('secured')).toBe('needs-auth');
    expect(browser.visits).toHaveLength(2);

    await mcp.authenticate('secured');
    expect(browser.visits).toHaveLength(2);
    expect(mcp.getServerAuthState('secured')).toBe('authorized');
    expect(await callWeather(mcp, 'secured')).toMatchObject({ location: 'Paris' });
    const fresh = JSON.parse((await storage.get('tokens')) as string);
    expect(fresh.access_token).not.toBe(revoked.access_token);
    const secrets = [revoked.access_token, revoked.refresh_token, fresh.access_token, fresh.refresh_token];
    expect(transcript.leaks(secrets.filter(Boolean))).toEqual([]);
  });

  it("sends the code exchange through the server's own fetch (so allowedHosts and a custom fetch apply)", async () => {
    const stack = await protectedStack(cleanups);
    const browser = new Browser(stack.as);
    const seen: string[] = [];
    const mcp = stack.client({
      onRedirectToAuthorization: browser.onRedirectToAuthorization,
      fetch: (url, init) => {
        seen.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
        return fetch(url, init);
      },
    });
    await mcp.authenticate('secured');
    expect(seen).toContain('POST /token');
    expect(seen).toContain('POST /mcp');
  });

  it('survives a restart: a new client with the same storage connects without a browser', async () => {
    const stack = await protectedStack(cleanups);
    const dir = mkdtempSync(join(tmpdir(), 'mastra-mcp-oauth-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'oauth.json');
    const firstBrowser = new Browser(stack.as);
    const first = stack.client({
      onRedirectToAuthorization: firstBrowser.onRedirectToAuthorization,
      storage: new FileOAuthStorage(path),
    });
    await first.authenticate('secured');
    await first.disconnect();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveProperty('tokens');

    const secondBrowser = new Browser(stack.as);
    const second = stack.client({
      onRedirectToAuthorization: secondBrowser.onRedirectToAuthorization,
      storage: new FileOAuthStorage(path),
    });
    expect(await callWeather(second, 'secured')).toMatchObject({ location: 'Paris' });
    expect(second.getServerAuthState('secured')).toBe('authorized');
    expect(secondBrowser.visits).toEqual([]);
    await second.authenticate('secured');
    expect(secondBrowser.visits).toEqual([]);
  });

  it('rejects an authorization response whose iss names another issuer (RFC 9207)', async () => {
    const stack = await protectedStack(cleanups);
    const browser = new Browser(stack.as, (callback) => {
      expect(callback.searchParams.get('iss')).toBe(stack.as.issuer);
      callback.searchParams.set('iss', 'https://attacker.example.com');
      return callback;
    });
    const storage = new InMemoryOAuthStorage();
    const mcp = stack.client({ onRedirectToAuthorization: browser.onRedirectToAuthorization, storage });
    const error = await rejectionOf(mcp.authenticate('secured'), MastraError);
    expect(error.id).toBe('MCP_CLIENT_AUTH_FAILED');
    expect(error.message).toContain('https://attacker.example.com');
    expect(await storage.get('tokens')).toBeUndefined();
    expect(mcp.getServerAuthState('secured')).toBe('needs-auth');
  });

  it('ignores a callback with a tampered state (400) and keeps waiting until cancelled', async () => {
    const stack = await protectedStack(cleanups);
    const browser = new Browser(stack.as, (callback) => {
      callback.searchParams.set('state', 'forged-state');
      return callback;
    });
    const storage = new InMemoryOAuthStorage();
    const mcp = stack.client({ onRedirectToAuthorization: browser.onRedirectToAuthorization, storage });
    const flow = mcp.authenticate('secured');
    const settled = flow.then(
      () => 'resolved',
      () => 'rejected',
    );
    await eventually('the browser to get an answer', () => browser.responses.length > 0);
    expect(await browser.responses[0]).toBe(400);
    expect(await Promise.race([settled, Promise.resolve('pending')])).toBe('pending');
    expect(await mcp.cancelAuthentication('secured')).toBe(true);
    expect((await rejectionOf(flow, MastraError)).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
    expect(await storage.get('tokens')).toBeUndefined();
  });

  it('joins concurrent authenticate() calls: one browser visit, one token exchange', async () => {
    const stack = await protectedStack(cleanups);
    const browser = new Browser(stack.as);
    const saved: string[] = [];
    const storage = new InMemoryOAuthStorage();
    const recording: OAuthStorage = {
      get: (key) => storage.get(key),
      set: async (key, value) => {
        if (key === 'tokens') saved.push(value);
        await storage.set(key, value);
      },
      delete: (key) => storage.delete(key),
    };
    const mcp = stack.client({
      onRedirectToAuthorization: browser.onRedirectToAuthorization,
      storage: recording,
    });
    await Promise.all([
      mcp.authenticate('secured'),
      mcp.authenticate('secured'),
      mcp.authenticate('secured'),
    ]);
    expect(browser.visits).toHaveLength(1);
    expect(saved).toHaveLength(1);
    expect(mcp.getServerAuthState('secured')).toBe('authorized');
    expect(await callWeather(mcp, 'secured')).toMatchObject({ location: 'Paris' });
  });

  it('cancelAuthentication and timeouts leave the server ready for an immediate retry', async () => {
    const stack = await protectedStack(cleanups);
    let browser: Browser | undefined;
    const held: URL[] = [];
    // The user ignores the first two authorization URLs, then completes the third.
    const mcp = stack.client({
      onRedirectToAuthorization: (url) => (browser ? browser.onRedirectToAuthorization(url) : held.push(url)),
    });
    const cancelled = mcp.authenticate('secured');
    await eventually('the authorization redirect', () => held.length > 0);
    expect(await mcp.cancelAuthentication('secured')).toBe(true);
    expect((await rejectionOf(cancelled, MastraError)).id).toBe('MCP_CLIENT_AUTH_CANCELLED');
    expect(mcp.getServerAuthState('secured')).toBe('needs-auth');

    expect((await rejectionOf(mcp.authenticate('secured', { timeoutMs: 500 }), MastraError)).id).toBe(
      'MCP_CLIENT_AUTH_TIMEOUT',
    );
    expect(held).toHaveLength(2);
    expect(await listening(new URL(stack.redirectUrl))).toBe(false);

    browser = new Browser(stack.as);
    await mcp.authenticate('secured');
    expect(browser.visits).toHaveLength(1);
    expect(mcp.getServerAuthState('secured')).toBe('authorized');
  });
});
