/**
 * The OAuth resource server end to end: createOAuthMiddleware in front of MCPServer, tokens from a
 * real authorization server (fixtures/oidc-server.ts, oidc-provider) validated by RFC 7662
 * introspection, the SDK's own Client on both protocol eras, req.auth reaching tools on every HTTP
 * transport, and Mastra FGA applied to tools/list and tools/call.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from '@mastra/core/agent';
import { type FGACheckParams, FGADeniedError, MastraFGAPermissions } from '@mastra/core/auth/ee';
import { MastraLogger } from '@mastra/core/logger';
import { Mastra } from '@mastra/core/mastra';
import { RequestContext } from '@mastra/core/request-context';
import {
  type Client,
  discoverAuthorizationServerMetadata,
  extractWWWAuthenticateParams,
  refreshAuthorization,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createIntrospectionValidator,
  createOAuthMiddleware,
  createStaticTokenValidator,
  MCPErrorCode,
  MCPServer,
  type MCPServerConfig,
  type OAuthMiddlewareOptions,
  type StreamableHTTPServerTransportOptions,
  type TokenValidator,
} from '../../src/index.js';
import { type AuthorizationServer, startAuthorizationServer } from '../fixtures/oidc-server.js';
import { probeTool, RuleFGA, type TestUser } from '../fixtures/rule-fga.js';
import { contextTool, mockModel } from '../fixtures/tools.js';
import { type Era, newClient } from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Records every log line, so tests can assert what was (and was not) logged. */
class CapturingLogger extends MastraLogger {
  readonly lines: string[] = [];
  private record(level: string, message: string, args: unknown[]) {
    this.lines.push(`${level} ${message} ${args.length ? JSON.stringify(args) : ''}`);
  }
  debug(message: string, ...args: unknown[]) {
    this.record('debug', message, args);
  }
  info(message: string, ...args: unknown[]) {
    this.record('info', message, args);
  }
  warn(message: string, ...args: unknown[]) {
    this.record('warn', message, args);
  }
  error(message: string, ...args: unknown[]) {
    this.record('error', message, args);
  }
}

interface Protected {
  base: string;
  mcpUrl: URL;
  /** Every response body and header the protected server sent, for secret-leak checks. */
  sent: string[];
}

/**
 * Serves `mcp` behind createOAuthMiddleware on 127.0.0.1: /mcp (Streamable HTTP), /mcp-stateless
 * (serverless), /sse + /message and /hono/sse + /hono/message (legacy SSE), /health (unprotected).
 * One middleware per protected path (default /mcp); `configure` receives the /mcp URL (the resource).
 */
async function serveProtected(
  mcp: MCPServer,
  configure: (resource: string) => Promise<OAuthMiddlewareOptions> | OAuthMiddlewareOptions,
  protectedPaths = ['/mcp'],
): Promise<Protected> {
  const sent: string[] = [];
  let guards: ReturnType<typeof createOAuthMiddleware>[] = [];
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    for (const guard of guards) {
      if (!(await guard(req, res, url)).proceed) return;
    }
    if (url.pathname === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else if (url.pathname.startsWith('/hono/')) {
      await mcp.startHonoSSE({ url, ssePath: '/hono/sse', messagePath: '/hono/message', req, res });
    } else if (url.pathname === '/sse' || url.pathname === '/message') {
      await mcp.startSSE({ url, ssePath: '/sse', messagePath: '/message', req, res });
    } else {
      const stateless = url.pathname === '/mcp-stateless';
      const options: StreamableHTTPServerTransportOptions | undefined = stateless
        ? { serverless: true }
        : undefined;
      await mcp.startHTTP({
        url,
        httpPath: stateless ? '/mcp-stateless' : '/mcp',
        req,
        res,
        ...(options ? { options } : {}),
      });
    }
  };
  const server = http.createServer((req, res) => {
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const text = (chunk: unknown) =>
      chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    res.write = ((chunk: unknown, ...rest: never[]) => {
      if (chunk) sent.push(text(chunk));
      return write(chunk as never, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: never[]) => {
      if (chunk && typeof chunk !== 'function') sent.push(text(chunk));
      sent.push(JSON.stringify(res.getHeaders()));
      return end(chunk as never, ...rest);
    }) as typeof res.end;
    void route(req, res);
  });
  await listenLocal(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options = await configure(`${base}/mcp`);
  guards = protectedPaths.map((mcpPath) => createOAuthMiddleware({ ...options, mcpPath }));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await mcp.close();
  });
  return { base, mcpUrl: new URL(`${base}/mcp`), sent };
}

function bearer(token: string): RequestInit {
  return { headers: { Authorization: `Bearer ${token}` } };
}

async function connect(url: URL, era: Era, token: string): Promise<Client> {
  const client = newClient(era);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: bearer(token) }));
  cleanups.push(() => client.close());
  return client;
}

async function whoami(client: Client): Promise<{ authInfo: Record<string, unknown> | null }> {
  return JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
}

function tools(overrides: Partial<MCPServerConfig> = {}): MCPServerConfig {
  return {
    id: 'oauth-server',
    name: 'OAuth Server',
    version: '1.0.0',
    tools: { whoami: contextTool },
    ...overrides,
  };
}

function introspecting(as: AuthorizationServer, logger?: MastraLogger) {
  return (resource: string): OAuthMiddlewareOptions => ({
    oauth: {
      resource,
      authorizationServers: [as.issuer],
      resourceName: 'OAuth test server',
      validateToken: createIntrospectionValidator(as.introspection.url, {
        clientId: as.introspection.clientId,
        clientSecret: as.introspection.clientSecret,
      }),
    },
    ...(logger ? { logger } : {}),
  });
}

/** Starts the MCP listener first (its URL is the resource), then an authorization server for it. */
async function protectedByRealAs(
  mcp: MCPServer,
  asOptions: { accessTokenTtl?: number; logger?: MastraLogger } = {},
): Promise<Protected & { as: AuthorizationServer }> {
  let as: AuthorizationServer | undefined;
  const served = await serveProtected(mcp, async (resource) => {
    as = await startAuthorizationServer({
      redirectUris: [REDIRECT_URI],
      resource,
      otherResources: ['https://other.example.com/mcp'],
      ...(asOptions.accessTokenTtl ? { accessTokenTtl: asOptions.accessTokenTtl } : {}),
    });
    return introspecting(as, asOptions.logger)(resource);
  });
  if (!as) throw new Error('authorization server not started');
  const started = as;
  cleanups.push(() => started.close());
  return { ...served, as: started };
}

describe('the oidc-provider fixture', () => {
  it('issues PKCE-bound, audience-restricted tokens with RFC 9207 iss and refreshes them', async () => {
    const as = await startAuthorizationServer({
      redirectUris: [REDIRECT_URI],
      resource: 'http://127.0.0.1:1/mcp',
    });
    cleanups.push(() => as.close());
    const metadata = await discoverAuthorizationServerMetadata(as.issuer);
    expect(metadata).toMatchObject({
      issuer: as.issuer,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    const tokens = await as.issueTokens();
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'mcp:read mcp:write' });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const refreshed = await refreshAuthorization(as.issuer, {
      ...(metadata ? { metadata } : {}),
      clientInformation: { client_id: as.clientId },
      refreshToken: tokens.refresh_token ?? '',
      resource: as.resource,
    });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    // A request without PKCE is refused: the public client must use S256.
    const plain = new URL(metadata?.authorization_endpoint ?? '');
    plain.search = new URLSearchParams({
      client_id: as.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'mcp:read',
      resource: as.resource,
    }).toString();
    const callback = await as.authorize(plain);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('iss')).toBe(as.issuer);
  });
});

describe('createOAuthMiddleware with introspection against a real authorization server', () => {
  let served: Protected & { as: AuthorizationServer };
  let token: string;
  const logger = new CapturingLogger();
  const keep: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    served = await protectedByRealAs(new MCPServer(tools()), { logger });
    keep.push(...cleanups.splice(0));
    token = (await served.as.issueTokens()).access_token;
  });
  afterAll(async () => {
    while (keep.length) await keep.pop()?.();
  });

  it('serves Protected Resource Metadata at the root and the path-suffixed well-known URLs', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const response = await fetch(`${served.base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: `${served.base}/mcp`,
        authorization_servers: [served.as.issuer],
        scopes_supported: ['mcp:read', 'mcp:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'OAuth test server',
      });
    }
    const preflight = await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
    });
    expect(preflight.status).toBe(204);
    const post = await fetch(`${served.base}/.well-known/oauth-protected-resource`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers 401 with a resource_metadata challenge (and no error code) when no token is sent', async () => {
    const response = await fetch(served.mcpUrl, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toBe(
      `Bearer resource_metadata="${served.base}/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:write"`,
    );
    const params = extractWWWAuthenticateParams(response);
    expect(params.resourceMetadataUrl?.href).toBe(`${served.base}/.well-known/oauth-protected-resource/mcp`);
    expect(params.error).toBeUndefined();
    // The SDK client, without a token, gets no session either.
    const client = newClient('modern');
    await expect(client.connect(new StreamableHTTPClientTransport(served.mcpUrl))).rejects.toThrow();
  });

  it.each<Era>(['modern', 'legacy'])(
    '%s client with a real access token: the tool sees authInfo from introspection',
    async (era) => {
      const client = await connect(served.mcpUrl, era, token);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      const { authInfo } = await whoami(client);
      expect(authInfo).toMatchObject({
        token,
        clientId: served.as.clientId,
        scopes: ['mcp:read', 'mcp:write'],
        resource: `${served.base}/mcp`,
        resourceMetadataUrl: `${served.base}/.well-known/oauth-protected-resource/mcp`,
        extra: { subject: 'test-user', claims: { iss: served.as.issuer, token_type: 'Bearer' } },
      });
      expect(authInfo?.expiresAt).toBeGreaterThan(Date.now() / 1000);
    },
  );

  it('passes the granted scopes through: a read-only token carries only mcp:read', async () => {
    const readOnly = (await served.as.issueTokens({ scope: 'mcp:read' })).access_token;
    const { authInfo } = await whoami(await connect(served.mcpUrl, 'modern', readOnly));
    expect(authInfo?.scopes).toEqual(['mcp:read']);
  });

  it('refuses an unknown token with 401 invalid_token', async () => {
    const response = await fetch(served.mcpUrl, {
      method: 'POST',
      body: '{}',
      ...bearer('not-a-real-token'),
    });
    expect(response.status).toBe(401);
    const params = extractWWWAuthenticateParams(response);
    expect(params.error).toBe('invalid_token');
    expect(params.resourceMetadataUrl?.href).toBe(`${served.base}/.well-known/oauth-protected-resource/mcp`);
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description: 'The access token is not active (unknown, revoked or expired)',
    });
  });

  it('refuses a token issued for another resource', async () => {
    const foreign = (await served.as.issueTokens({ resource: 'https://other.example.com/mcp' })).access_token;
    const response = await fetch(served.mcpUrl, { method: 'POST', body: '{}', ...bearer(foreign) });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await response.json()).error_description).toBe(
      'The access token was not issued for this resource',
    );
  });

  it('answers 400 invalid_request for a malformed Bearer credential', async () => {
    const response = await fetch(served.mcpUrl, {
      method: 'POST',
      body: '{}',
      headers: { Authorization: 'Bearer two words' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });

  it('leaves unprotected paths and CORS preflights alone', async () => {
    const health = await fetch(`${served.base}/health`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');
    const preflight = await fetch(served.mcpUrl, { method: 'OPTIONS' });
    expect(preflight.status).not.toBe(401);
  });

  it('puts no token or client secret into any response or log line', async () => {
    const probes = [token, served.as.introspection.clientSecret];
    await fetch(served.mcpUrl, { method: 'POST', body: '{}', ...bearer(`${token}x`) });
    // whoami answers echo the caller's own authInfo; everything else must not carry the token.
    const everything = [...served.sent.filter((chunk) => !chunk.includes('authInfo')), ...logger.lines].join(
      '\n',
    );
    for (const secret of probes) expect(everything).not.toContain(secret);
    expect(served.sent.length).toBeGreaterThan(0);
  });
});

describe('token lifetime', () => {
  it('refuses an expired token, and the refreshed one is accepted', async () => {
    const served = await protectedByRealAs(new MCPServer(tools()), { accessTokenTtl: 1 });
    const tokens = await served.as.issueTokens();
    served.as.setAccessTokenTtl(300);
    // Wait for the one-second token to lapse (the authorization server counts whole seconds).
    const expired = await eventually('the one-second token to expire', async () => {
      const response = await fetch(served.mcpUrl, {
        method: 'POST',
        body: '{}',
        ...bearer(tokens.access_token),
      });
      if (response.status === 401) return response;
      await response.body?.cancel();
      return undefined;
    });
    expect(extractWWWAuthenticateParams(expired).error).toBe('invalid_token');
    // The server says so itself when the token's `exp` passed by its clock while the authorization
    // server, counting whole seconds, still called it active; otherwise the server relays inactive.
    expect((await expired.json()).error_description).toMatch(
      /^(The access token is not active \(unknown, revoked or expired\)|The access token expired)$/,
    );
    const metadata = await discoverAuthorizationServerMetadata(served.as.issuer);
    const refreshed = await refreshAuthorization(served.as.issuer, {
      ...(metadata ? { metadata } : {}),
      clientInformation: { client_id: served.as.clientId },
      refreshToken: tokens.refresh_token ?? '',
      resource: served.as.resource,
    });
    const after = await whoami(await connect(served.mcpUrl, 'legacy', refreshed.access_token));
    expect(after.authInfo?.token).toBe(refreshed.access_token);
  });
});

describe('req.auth reaches context.mcp.extra.authInfo on every HTTP transport', () => {
  let served: Protected;
  const keep: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    served = await serveProtected(
      new MCPServer(tools()),
      (resource) => ({
        oauth: {
          resource,
          authorizationServers: ['https://auth.example.com'],
          validateToken: createStaticTokenValidator(['transport-token']),
        },
      }),
      ['/mcp', '/mcp-stateless', '/message', '/hono/message'],
    );
    keep.push(...cleanups.splice(0));
  });
  afterAll(async () => {
    while (keep.length) await keep.pop()?.();
  });

  it.each([
    ['Streamable HTTP, 2026-07-28', '/mcp', 'modern'],
    ['Streamable HTTP, legacy session', '/mcp', 'legacy'],
    ['Streamable HTTP, 2026-07-28 serverless', '/mcp-stateless', 'modern'],
    ['Streamable HTTP, legacy serverless', '/mcp-stateless', 'legacy'],
  ] as const)('%s', async (_name, path, era) => {
    const { authInfo } = await whoami(
      await connect(new URL(`${served.base}${path}`), era, 'transport-token'),
    );
    expect(authInfo).toMatchObject({ token: 'transport-token', scopes: [], resource: `${served.base}/mcp` });
  });

  it.each(['/sse', '/hono/sse'])('legacy SSE at %s (the message endpoint is protected)', async (path) => {
    const client = newClient('legacy');
    await client.connect(
      new SSEClientTransport(new URL(`${served.base}${path}`), { requestInit: bearer('transport-token') }),
    );
    cleanups.push(() => client.close());
    expect((await whoami(client)).authInfo).toMatchObject({ token: 'transport-token' });

    const anonymous = newClient('legacy');
    await expect(
      anonymous.connect(new SSEClientTransport(new URL(`${served.base}${path}`))),
    ).rejects.toThrow();
  });
});

describe('validators', () => {
  it('the static validator accepts only its tokens', async () => {
    const served = await serveProtected(new MCPServer(tools()), (resource) => ({
      oauth: {
        resource,
        authorizationServers: ['https://auth.example.com'],
        validateToken: createStaticTokenValidator(['good']),
      },
    }));
    expect((await whoami(await connect(served.mcpUrl, 'legacy', 'good'))).authInfo?.token).toBe('good');
    const bad = await fetch(served.mcpUrl, { method: 'POST', body: '{}', ...bearer('bad') });
    expect(bad.status).toBe(401);
    expect(await bad.text()).not.toContain('bad');
  });

  it('a validator answering insufficient_scope yields 403 with the scope challenge', async () => {
    const validateToken: TokenValidator = async () => ({
      valid: false,
      error: 'insufficient_scope',
      errorDescription: 'mcp:write is required',
      requiredScopes: ['mcp:write'],
    });
    const served = await serveProtected(new MCPServer(tools()), (resource) => ({
      oauth: { resource, authorizationServers: ['https://auth.example.com'], validateToken },
    }));
    const response = await fetch(served.mcpUrl, { method: 'POST', body: '{}', ...bearer('read-only') });
    expect(response.status).toBe(403);
    const params = extractWWWAuthenticateParams(response);
    expect(params).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:write' });
    expect(params.resourceMetadataUrl?.href).toBe(`${served.base}/.well-known/oauth-protected-resource/mcp`);
  });

  it('a custom validator reporting another audience or a past expiry is refused anyway', async () => {
    const validateToken: TokenValidator = async (token) =>
      token === 'foreign'
        ? { valid: true, audience: 'https://elsewhere.example.com/mcp' }
        : { valid: true, expiresAt: Math.floor(Date.now() / 1000) - 10 };
    const served = await serveProtected(new MCPServer(tools()), (resource) => ({
      oauth: { resource, authorizationServers: ['https://auth.example.com'], validateToken },
    }));
    for (const [token, description] of [
      ['foreign', 'The access token was not issued for this resource'],
      ['stale', 'The access token expired'],
    ]) {
      const response = await fetch(served.mcpUrl, { method: 'POST', body: '{}', ...bearer(token ?? '') });
      expect(response.status).toBe(401);
      expect((await response.json()).error_description).toBe(description);
    }
  });

  it('without a validator any Bearer token is accepted, after one warning', async () => {
    const logger = new CapturingLogger();
    const served = await serveProtected(new MCPServer(tools()), (resource) => ({
      oauth: { resource, authorizationServers: ['https://auth.example.com'] },
      logger,
    }));
    expect((await whoami(await connect(served.mcpUrl, 'modern', 'anything'))).authInfo?.token).toBe(
      'anything',
    );
    const warnings = logger.lines.filter(
      (line) => line.startsWith('warn') && line.includes('no validateToken'),
    );
    expect(warnings).toHaveLength(1);
    expect((await fetch(served.mcpUrl, { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it('a failing introspection endpoint answers 500 and logs no token or secret', async () => {
    const logger = new CapturingLogger();
    const secret = 'wrong-secret-value';
    let as: AuthorizationServer | undefined;
    const served = await serveProtected(new MCPServer(tools()), async (resource) => {
      as = await startAuthorizationServer({ redirectUris: [REDIRECT_URI], resource });
      return {
        oauth: {
          resource,
          authorizationServers: [as.issuer],
          validateToken: createIntrospectionValidator(as.introspection.url, {
            clientId: as.introspection.clientId,
            clientSecret: secret,
          }),
        },
        logger,
      };
    });
    const started = as as unknown as AuthorizationServer;
    cleanups.push(() => started.close());
    const token = (await started.issueTokens()).access_token;
    const response = await fetch(served.mcpUrl, { method: 'POST', body: '{}', ...bearer(token) });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: 'server_error',
      error_description: 'Token validation failed',
    });
    const logged = logger.lines.join('\n');
    expect(logged).toContain('Token introspection at');
    expect(logged).toContain('HTTP 401');
    for (const leak of [token, secret]) {
      expect(logged).not.toContain(leak);
      expect(served.sent.join('\n')).not.toContain(leak);
    }
    const validate = createIntrospectionValidator(started.introspection.url, {
      clientId: started.introspection.clientId,
      clientSecret: secret,
    });
    await expect(validate(token, 'https://m.example.com/mcp')).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_TOKEN_INTROSPECTION_FAILED,
      category: 'THIRD_PARTY',
      details: { httpStatus: 401 },
    });
  });

  it('refuses a misconfigured resource or authorization server list at creation', () => {
    expect(() =>
      createOAuthMiddleware({ oauth: { resource: 'mcp', authorizationServers: ['https://a.example.com'] } }),
    ).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_INVALID_OAUTH_CONFIG,
        message: expect.stringMatching(/resource must be an absolute URL/),
      }),
    );
    expect(() =>
      createOAuthMiddleware({ oauth: { resource: 'https://m.example.com/mcp', authorizationServers: [] } }),
    ).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_INVALID_OAUTH_CONFIG,
        message: expect.stringMatching(/at least one authorization server/),
      }),
    );
  });
});

describe('Mastra FGA on tools/list and tools/call', () => {
  const runs: string[] = [];
  const mapped: unknown[] = [];
  const probe = (id: string) =>
    probeTool(id, runs, (requestContext) => ({ user: requestContext.get('user') ?? null }));
  const helper = () =>
    new Agent({
      id: 'helper',
      name: 'Helper',
      description: 'Answers questions.',
      instructions: 'Be brief.',
      model: mockModel('The answer is 42.'),
    });

  function fgaServer(overrides: Partial<MCPServerConfig> = {}) {
    return new MCPServer({
      id: 'fga-server',
      name: 'FGA Server',
      version: '1.0.0',
      tools: { publicTool: probe('publicTool'), secretTool: probe('secretTool'), whoami: contextTool },
      agents: { helper: helper() },
      mapAuthInfoToUser: ({ authInfo }) => {
        mapped.push(authInfo);
        const subject = (authInfo as { extra?: { subject?: string } }).extra?.subject;
        return subject ? { id: subject } : null;
      },
      ...overrides,
    });
  }

  /** Denies secretTool (by its MCP tool resource id) and everything for users other than test-user. */
  const policy = (user: TestUser, params: FGACheckParams) =>
    user.id === 'test-user' && params.resource.id !== JSON.stringify(['fga-server', 'secretTool']);

  async function setup(fga: RuleFGA | undefined, server = fgaServer()) {
    runs.length = 0;
    mapped.length = 0;
    const logger = new CapturingLogger();
    new Mastra({ mcpServers: { fga: server }, logger, ...(fga ? { server: { fga } } : {}) });
    const served = await protectedByRealAs(server);
    const token = (await served.as.issueTokens()).access_token;
    return { served, token, logger };
  }

  it.each<Era>(['modern', 'legacy'])(
    '%s: a denied tool is absent from tools/list, its call fails without running, allowed tools work',
    async (era) => {
      const fga = new RuleFGA(policy);
      const { served, token, logger } = await setup(fga);
      const client = await connect(served.mcpUrl, era, token);

      const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(listed).toEqual(['ask_helper', 'publicTool', 'whoami']);

      const denied = await client.callTool({ name: 'secretTool', arguments: {} });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toMatch(
        /^Tool 'secretTool' is not permitted for this caller: FGA authorization denied/,
      );
      expect(runs).not.toContain('secretTool');
      expect(logger.lines.some((line) => line.includes("Tool 'secretTool' is not permitted"))).toBe(true);

      const allowed = await client.callTool({ name: 'publicTool', arguments: {} });
      expect(allowed.isError).toBeFalsy();
      expect(JSON.parse(textOf(allowed))).toEqual({ user: { id: 'test-user' } });

      // The agent behind ask_helper runs its own FGA check against the same user.
      const answer = await client.callTool({
        name: 'ask_helper',
        arguments: { message: 'What is the answer?' },
      });
      expect(textOf(answer)).toContain('42');
      expect(fga.checks.some(({ params }) => params.resource.type === 'agent')).toBe(true);

      expect(mapped.length).toBeGreaterThan(0);
      expect(mapped[0]).toMatchObject({
        token,
        clientId: served.as.clientId,
        scopes: ['mcp:read', 'mcp:write'],
      });
      const toolCheck = fga.checks.find(
        ({ params }) => params.resource.id === JSON.stringify(['fga-server', 'publicTool']),
      );
      expect(toolCheck?.user).toEqual({ id: 'test-user' });
      expect(toolCheck?.params).toMatchObject({
        resource: { type: 'tool', id: JSON.stringify(['fga-server', 'publicTool']) },
        permission: MastraFGAPermissions.TOOLS_EXECUTE,
        context: { resourceId: JSON.stringify(['fga-server', 'publicTool']) },
      });
    },
  );

  it('applies the server fga overrides: resource type, derived id and mapped permission', async () => {
    const fga = new RuleFGA(
      (user, params) => params.resource.type === 'user' && params.resource.id === user.id,
    );
    const server = fgaServer({
      fga: {
        resourceMapping: { tool: { fgaResourceType: 'user', deriveId: ({ user }) => (user as TestUser).id } },
        permissionMapping: { [MastraFGAPermissions.TOOLS_EXECUTE]: 'read' },
      },
    });
    const { served, token } = await setup(fga, server);
    const client = await connect(served.mcpUrl, 'modern', token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('secretTool');
    expect((await client.callTool({ name: 'secretTool', arguments: {} })).isError).toBeFalsy();
    const toolChecks = fga.checks.filter(({ params }) => params.resource.type !== 'agent');
    expect(toolChecks.length).toBeGreaterThan(0);
    for (const { params } of toolChecks) {
      expect(params.resource).toEqual({ type: 'user', id: 'test-user' });
      expect(params.permission).toBe('read');
    }
  });

  it('without a user (the mapper returns null) every tool is hidden and every call denied', async () => {
    const fga = new RuleFGA(() => true);
    const { served, token } = await setup(fga, fgaServer({ mapAuthInfoToUser: () => null }));
    const client = await connect(served.mcpUrl, 'modern', token);
    expect((await client.listTools()).tools).toEqual([]);
    const denied = await client.callTool({ name: 'publicTool', arguments: {} });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('authenticated user is required');
    expect(runs).toEqual([]);
  });

  it('executeTool() checks the requestContext user too', async () => {
    const fga = new RuleFGA(policy);
    const server = fgaServer();
    new Mastra({ mcpServers: { fga: server }, logger: false, server: { fga } });
    cleanups.push(() => server.close());
    const requestContext = new RequestContext();
    requestContext.set('user', { id: 'test-user' });
    await expect(server.executeTool('publicTool', {}, { requestContext })).resolves.toEqual({
      user: { id: 'test-user' },
    });
    await expect(server.executeTool('secretTool', {}, { requestContext })).rejects.toThrow(FGADeniedError);
  });

  it('without an FGA provider nothing changes: every tool is listed and callable', async () => {
    const { served, token } = await setup(undefined);
    const client = await connect(served.mcpUrl, 'legacy', token);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'ask_helper',
      'publicTool',
      'secretTool',
      'whoami',
    ]);
    expect((await client.callTool({ name: 'secretTool', arguments: {} })).isError).toBeFalsy();
    expect(runs).toEqual(['secretTool']);
  });
});
