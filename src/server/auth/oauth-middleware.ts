/**
 * `createOAuthMiddleware`: OAuth 2.1 resource-server protection for an MCP endpoint on Node
 * `req`/`res`, per the MCP authorization spec. It serves Protected Resource Metadata (RFC 9728),
 * asks for a Bearer token on `mcpPath` only (RFC 6750 challenges carrying `resource_metadata`),
 * validates the token and sets `req.auth` (the SDK's AuthInfo), which MCPServer's HTTP transports
 * hand to tools as `context.mcp.extra.authInfo`. Tokens never appear in responses or logs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConsoleLogger, type IMastraLogger } from '@mastra/core/logger';
import type { AuthInfo } from '@modelcontextprotocol/server';
import {
  type ProtectedResource,
  protectedResource,
  sendProtectedResourceMetadata,
} from './protected-resource-metadata.js';
import { sameResource, type TokenValidationResult, type TokenValidator } from './token-validators.js';

export interface OAuthProtectionOptions {
  /** The canonical URL of the MCP server; returned in the metadata and required as token audience. */
  resource: string;
  /** Authorization servers that issue tokens for this resource. */
  authorizationServers: string[];
  /** Scopes this server understands. Default `['mcp:read', 'mcp:write']`. */
  scopesSupported?: string[];
  /** Human-readable name of the resource server. */
  resourceName?: string;
  /** Validates access tokens. Without it every Bearer token is accepted (never do that in production). */
  validateToken?: TokenValidator;
}

export interface OAuthMiddlewareOptions {
  oauth: OAuthProtectionOptions;
  /** Path of the MCP endpoint; only requests to it need a token. Default `'/mcp'`. */
  mcpPath?: string;
  /** Where warnings and validator failures are logged. Default: a console logger. */
  logger?: IMastraLogger;
}

export type OAuthMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => Promise<{ proceed: boolean }>;

type AuthRequest = IncomingMessage & { auth?: AuthInfo };

/** RFC 6750 §2.1 b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

type Credentials = { kind: 'none' } | { kind: 'malformed' } | { kind: 'bearer'; token: string };

function credentialsOf(header: string | undefined): Credentials {
  if (!header || !/^Bearer(\s|$)/i.test(header)) return { kind: 'none' };
  const match = BEARER.exec(header);
  return match?.[1] ? { kind: 'bearer', token: match[1] } : { kind: 'malformed' };
}

/** A `WWW-Authenticate: Bearer` value; every parameter is a quoted-string (RFC 9110 §11.2). */
function bearerChallenge(params: Record<string, string | undefined>): string {
  const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&').replace(/[^\x20-\x7e]/g, ' ')}"`;
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `${name}=${quoted(value)}`);
  return parts.length > 0 ? `Bearer ${parts.join(', ')}` : 'Bearer';
}

function sendOAuthError(
  res: ServerResponse,
  status: number,
  body: { error: string; error_description: string },
  challenge?: string,
): void {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
  };
  if (challenge) {
    headers['www-authenticate'] = challenge;
    headers['access-control-expose-headers'] = 'WWW-Authenticate';
  }
  res.writeHead(status, headers).end(JSON.stringify(body));
}

const STATUS_BY_ERROR: Record<string, number> = {
  invalid_token: 401,
  insufficient_scope: 403,
  invalid_request: 400,
};

function reject(
  res: ServerResponse,
  prm: ProtectedResource,
  scopes: string[],
  result: TokenValidationResult,
) {
  const error = result.error ?? 'invalid_token';
  const description = result.errorDescription ?? 'The access token is invalid';
  const scope = error === 'insufficient_scope' ? (result.requiredScopes ?? scopes).join(' ') : undefined;
  const challenge = bearerChallenge({
    error,
    error_description: description,
    scope,
    resource_metadata: prm.url,
  });
  sendOAuthError(res, STATUS_BY_ERROR[error] ?? 401, { error, error_description: description }, challenge);
}

function authInfo(
  token: string,
  result: TokenValidationResult,
  resource: string,
  prm: ProtectedResource,
): AuthInfo {
  const extra: Record<string, unknown> = {};
  if (result.subject !== undefined) extra.subject = result.subject;
  if (result.claims !== undefined) extra.claims = result.claims;
  const info: AuthInfo = {
    token,
    clientId: result.clientId ?? '',
    scopes: result.scopes ?? [],
    resource: new URL(resource),
    resourceMetadataUrl: prm.url,
    extra,
  };
  if (result.expiresAt !== undefined) info.expiresAt = result.expiresAt;
  return info;
}

/** Why a result that claims validity must still be refused, if it must. */
function staleOrForeign(result: TokenValidationResult, resource: string): string | undefined {
  if (result.expiresAt !== undefined && result.expiresAt <= Date.now() / 1000)
    return 'The access token expired';
  if (result.audience === undefined) return undefined;
  const audience = Array.isArray(result.audience) ? result.audience : [result.audience];
  return audience.some((entry) => sameResource(entry, resource))
    ? undefined
    : 'The access token was not issued for this resource';
}

export function createOAuthMiddleware({
  oauth,
  mcpPath = '/mcp',
  logger,
}: OAuthMiddlewareOptions): OAuthMiddleware {
  const log = logger ?? new ConsoleLogger({ name: 'MCP OAuth' });
  const scopes = oauth.scopesSupported ?? ['mcp:read', 'mcp:write'];
  const prm = protectedResource({
    resource: oauth.resource,
    authorizationServers: oauth.authorizationServers,
    scopesSupported: scopes,
    resourceName: oauth.resourceName,
    mcpPath,
  });
  const { validateToken } = oauth;
  if (!validateToken) {
    log.warn(
      `OAuth middleware for ${oauth.resource}: no validateToken configured, so every Bearer token is accepted without validation. Configure createIntrospectionValidator() or your own validator before production.`,
    );
  }

  return async (req, res, url) => {
    if (prm.paths.has(url.pathname)) {
      sendProtectedResourceMetadata(req.method, res, prm.document);
      return { proceed: false };
    }
    // CORS preflights carry no credentials; the MCP handler answers them.
    if (url.pathname !== mcpPath || req.method === 'OPTIONS') return { proceed: true };

    const credentials = credentialsOf(req.headers.authorization);
    if (credentials.kind === 'none') {
      // RFC 6750 §3.1: no error code when the request carried no credentials.
      sendOAuthError(
        res,
        401,
        { error: 'unauthorized', error_description: 'This MCP endpoint requires a Bearer access token' },
        bearerChallenge({ resource_metadata: prm.url, scope: scopes.join(' ') }),
      );
      return { proceed: false };
    }
    if (credentials.kind === 'malformed') {
      reject(res, prm, scopes, {
        valid: false,
        error: 'invalid_request',
        errorDescription: 'The Authorization header is not a well-formed Bearer credential',
      });
      return { proceed: false };
    }

    let result: TokenValidationResult = { valid: true };
    if (validateToken) {
      try {
        result = await validateToken(credentials.token, oauth.resource);
      } catch (error) {
        log.error(
          `OAuth middleware for ${oauth.resource}: token validation failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        sendOAuthError(res, 500, { error: 'server_error', error_description: 'Token validation failed' });
        return { proceed: false };
      }
    }
    const refusal = result.valid ? staleOrForeign(result, oauth.resource) : undefined;
    if (!result.valid || refusal) {
      reject(res, prm, scopes, refusal ? { valid: false, errorDescription: refusal } : result);
      return { proceed: false };
    }
    (req as AuthRequest).auth = authInfo(credentials.token, result, oauth.resource, prm);
    return { proceed: true };
  };
}
