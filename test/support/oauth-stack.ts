/**
 * The OAuth end-to-end stack of the client tests: an MCPServer behind createOAuthMiddleware with
 * RFC 7662 introspection, a real authorization server for it (fixtures/oidc-server.ts), MCPClients
 * whose server 'secured' is that MCPServer, and a headless browser that plays the user. Everything
 * it starts is closed by the `cleanups` the caller runs after each test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createIntrospectionValidator,
  createOAuthMiddleware,
  getCallbackUrlCandidates,
  type HttpServerDefinition,
  MCPClient,
  MCPOAuthClientProvider,
  type MCPOAuthClientProviderOptions,
  MCPServer,
  type OAuthMiddleware,
  type OAuthStorage,
} from '../../src/index.js';
import { type AuthorizationServer, startAuthorizationServer } from '../fixtures/oidc-server.js';
import { weatherTool } from '../fixtures/tools.js';
import { freePort, listenLocal } from './net.js';

export type Cleanups = Array<() => Promise<unknown>>;

export interface SecuredClientOptions {
  onRedirectToAuthorization: (url: URL) => void;
  storage?: OAuthStorage;
  logger?: HttpServerDefinition['logger'];
  fetch?: HttpServerDefinition['fetch'];
  protocolVersion?: HttpServerDefinition['protocolVersion'];
  /** The provider's identity. Default: the pre-registered client; `{}`: none (the v1 shape, which registers). */
  identity?: Pick<MCPOAuthClientProviderOptions, 'clientInformation' | 'clientMetadataUrl'>;
}

export interface Stack {
  as: AuthorizationServer;
  mcpUrl: URL;
  redirectUrl: string;
  /** An MCPClient whose server 'secured' is the protected MCPServer, behind an MCPOAuthClientProvider. */
  client(options: SecuredClientOptions): MCPClient;
  /** Revokes `token` at the authorization server (RFC 7009), as the public client. */
  revoke(token: string): Promise<void>;
  /** Whether the authorization server still considers `token` active (RFC 7662). */
  active(token: string): Promise<boolean>;
}

let clientCount = 0;

/** An MCPServer behind createOAuthMiddleware, and a real authorization server for it. */
export async function protectedStack(
  cleanups: Cleanups,
  options: { accessTokenTtl?: number; registration?: boolean } = {},
): Promise<Stack> {
  const redirectUrl = `http://127.0.0.1:${await freePort()}/oauth/callback`;
  const redirectUris = getCallbackUrlCandidates(redirectUrl).map(String);
  const mcp = new MCPServer({
    id: 'protected',
    name: 'Protected',
    version: '1.0.0',
    tools: { weather: weatherTool },
  });
  let guard: OAuthMiddleware | undefined;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!guard || !(await guard(req, res, url)).proceed) return;
    await mcp.startHTTP({ url, httpPath: '/mcp', req, res });
  });
  await listenLocal(server);
  const mcpUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const as = await startAuthorizationServer({
    redirectUris,
    resource: mcpUrl.href,
    ...(options.accessTokenTtl ? { accessTokenTtl: options.accessTokenTtl } : {}),
    ...(options.registration !== undefined ? { registration: options.registration } : {}),
  });
  const introspection = { clientId: as.introspection.clientId, clientSecret: as.introspection.clientSecret };
  guard = createOAuthMiddleware({
    oauth: {
      resource: mcpUrl.href,
      authorizationServers: [as.issuer],
      validateToken: createIntrospectionValidator(as.introspection.url, introspection),
    },
  });
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await mcp.close();
    await as.close();
  });
  return {
    as,
    mcpUrl,
    redirectUrl,
    client: ({ onRedirectToAuthorization, storage, logger, fetch, protocolVersion, identity }) => {
      const client = new MCPClient({
        id: `oauth-stack-${++clientCount}`,
        registerProcessHooks: false,
        servers: {
          secured: {
            url: mcpUrl,
            authProvider: new MCPOAuthClientProvider({
              redirectUrl,
              clientMetadata: {
                redirect_uris: redirectUris,
                client_name: 'mastra-mcp oauth test',
                grant_types: ['authorization_code', 'refresh_token'],
                response_types: ['code'],
              },
              ...(identity ?? { clientInformation: { client_id: as.clientId } }),
              onRedirectToAuthorization,
              ...(storage ? { storage } : {}),
            }),
            ...(logger ? { logger } : {}),
            ...(fetch ? { fetch } : {}),
            ...(protocolVersion ? { protocolVersion } : {}),
          },
        },
      });
      cleanups.push(() => client.disconnect());
      return client;
    },
    revoke: async (token) => {
      const response = await fetch(`${as.issuer}/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: as.clientId }),
      });
      if (!response.ok) throw new Error(`revocation failed: HTTP ${response.status}`);
    },
    active: async (token) => {
      const response = await fetch(as.introspection.url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${introspection.clientId}:${introspection.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token }),
      });
      return ((await response.json()) as { active: boolean }).active;
    },
  };
}

/**
 * Plays the user's browser: follows the authorization URL through the authorization server's
 * (auto-approving) consent, then requests the loopback callback, retrying while nothing listens
 * there yet (as a user who approves a little later would). Never blocks the SDK.
 */
export class Browser {
  readonly visits: URL[] = [];
  readonly responses: Array<Promise<number>> = [];

  constructor(
    private readonly as: AuthorizationServer,
    private readonly tamper: (callback: URL) => URL = (callback) => callback,
  ) {}

  readonly onRedirectToAuthorization = (url: URL) => {
    this.visits.push(url);
    const visit = this.visit(url);
    // A visit cut short by the end of a test is not an error of the test.
    visit.catch(() => {});
    this.responses.push(visit);
  };

  private async visit(url: URL): Promise<number> {
    const callback = this.tamper(await this.as.authorize(url));
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(callback);
        await response.body?.cancel();
        return response.status;
      } catch (error) {
        if (attempt >= 200) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }
}

export async function callWeather(mcp: MCPClient, serverName: string): Promise<unknown> {
  const tool = (await mcp.listTools())[`${serverName}_weather`];
  if (!tool?.execute) throw new Error(`no ${serverName}_weather tool`);
  return tool.execute({ location: 'Paris' }, {} as Parameters<typeof tool.execute>[1]);
}
