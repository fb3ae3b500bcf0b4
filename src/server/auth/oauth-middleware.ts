/**
 * `createOAuthMiddleware`: OAuth 2.1 resource-server protection for an MCP endpoint on Node
 * `req`/`res`, per the MCP authorization spec. It serves Protected Resource Metadata (RFC 9728),
 * asks for a Bearer token on `mcpPath` only (RFC 6750 challenges carrying `resource_metadata`),
 * validates the token and sets `req.auth` (the SDK's AuthInfo), which MCPServer's HTTP transports
 * hand to tools as `context.mcp.extra.authInfo`. Tokens never appear in responses or logs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IMastraLogger } from '@mastra/core/logger';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { MCPErrorCode } from '../../errors.js';
import { consoleLogger } from '../../shared/console-logger.js';
import {
  anyObject,
  arrayOf,
  assertOptions,
  fn,
  type OptionsOf,
  object,
  required,
  string,
} from '../../shared/options.js';
import { metadataAnswer, type ProtectedResource, protectedResource } from './protected-resource-metadata.js';
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

/** What the protection answers in place of the endpoint (the metadata, a challenge), for either door to write. */
export interface OAuthAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The protection's decision on one request: an answer, or go on (with the caller, once authenticated). */
export type OAuthOutcome = { proceed: true; auth?: AuthInfo } | { proceed: false; answer: OAuthAnswer };

/** The resource-server protection apart from any request type: Node's middleware and `server.fetch` share it. */
export type OAuthProtection = (
  method: string | undefined,
  pathname: string,
  authorization: string | null | undefined,
) => Promise<OAuthOutcome>;

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

function oauthError(
  status: number,
  body: { error: string; error_description: string },
  challenge?: string,
): OAuthOutcome {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
  };
  if (challenge) {
    headers['www-authenticate'] = challenge;
    headers['access-control-expose-headers'] = 'WWW-Authenticate';
  }
  return { proceed: false, answer: { status, headers, body: JSON.stringify(body) } };
}

const STATUS_BY_ERROR: Record<string, number> = {
  invalid_token: 401,
  insufficient_scope: 403,
  invalid_request: 400,
};

function reject(prm: ProtectedResource, scopes: string[], result: TokenValidationResult): OAuthOutcome {
  const error = result.error ?? 'invalid_token';
  const description = result.errorDescription ?? 'The access token is invalid';
  const scope = error === 'insufficient_scope' ? (result.requiredScopes ?? scopes).join(' ') : undefined;
  const challenge = bearerChallenge({
    error,
    error_description: description,
    scope,
    resource_metadata: prm.url,
  });
  return oauthError(STATUS_BY_ERROR[error] ?? 401, { error, error_description: description }, challenge);
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

/** The `oauth` options, here and in MCPServer's `http` option; the URLs are protectedResource()'s to check. */
export const OAUTH_PROTECTION_OPTIONS = {
  resource: required(string),
  authorizationServers: required(arrayOf(string)),
  scopesSupported: arrayOf(string),
  resourceName: string,
  validateToken: fn,
} satisfies OptionsOf<OAuthProtectionOptions>;

const OPTIONS = object(
  {
    oauth: required(object(OAUTH_PROTECTION_OPTIONS)),
    mcpPath: string,
    logger: anyObject,
  } satisfies OptionsOf<OAuthMiddlewareOptions>,
  'createOAuthMiddleware()',
);

/**
 * The protection as `createOAuthMiddleware` builds it: the metadata on its well-known paths, and a
 * valid Bearer token required on `protects` (default `mcpPath` alone; `listen()` adds its legacy
 * SSE paths). Options are checked here, at construction.
 */
export function oauthProtection(
  options: OAuthMiddlewareOptions,
  protects: readonly string[] = [options?.mcpPath ?? '/mcp'],
): OAuthProtection {
  assertOptions(OPTIONS, options, {
    where: 'createOAuthMiddleware()',
    label: 'the OAuth middleware options',
    code: MCPErrorCode.SERVER_INVALID_OAUTH_CONFIG,
  });
  const { oauth, mcpPath = '/mcp', logger } = options;
  const log = logger ?? consoleLogger('MCP OAuth');
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

  return async (method, pathname, authorization) => {
    if (prm.paths.has(pathname)) return { proceed: false, answer: metadataAnswer(method, prm.document) };
    // CORS preflights carry no credentials; the MCP handler answers them.
    if (!protects.includes(pathname) || method === 'OPTIONS') return { proceed: true };

    const credentials = credentialsOf(authorization ?? undefined);
    if (credentials.kind === 'none') {
      // RFC 6750 §3.1: no error code when the request carried no credentials.
      return oauthError(
        401,
        { error: 'unauthorized', error_description: 'This MCP endpoint requires a Bearer access token' },
        bearerChallenge({ resource_metadata: prm.url, scope: scopes.join(' ') }),
      );
    }
    if (credentials.kind === 'malformed') {
      return reject(prm, scopes, {
        valid: false,
        error: 'invalid_request',
        errorDescription: 'The Authorization header is not a well-formed Bearer credential',
      });
    }

    let result: TokenValidationResult = { valid: true };
    if (validateToken) {
      try {
        result = await validateToken(credentials.token, oauth.resource);
      } catch (error) {
        log.error(
          `OAuth middleware for ${oauth.resource}: token validation failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        return oauthError(500, { error: 'server_error', error_description: 'Token validation failed' });
      }
    }
    const refusal = result.valid ? staleOrForeign(result, oauth.resource) : undefined;
    if (!result.valid || refusal) {
      return reject(prm, scopes, refusal ? { valid: false, errorDescription: refusal } : result);
    }
    return { proceed: true, auth: authInfo(credentials.token, result, oauth.resource, prm) };
  };
}

/** Writes a protection answer to a Node response. */
export function writeOAuthAnswer(res: ServerResponse, answer: OAuthAnswer): void {
  res.writeHead(answer.status, answer.headers).end(answer.body);
}

export function createOAuthMiddleware(options: OAuthMiddlewareOptions): OAuthMiddleware {
  const protection = oauthProtection(options);
  return async (req, res, url) => {
    const outcome = await protection(req.method, url.pathname, req.headers.authorization);
    if (!outcome.proceed) {
      writeOAuthAnswer(res, outcome.answer);
      return { proceed: false };
    }
    if (outcome.auth) (req as AuthRequest).auth = outcome.auth;
    return { proceed: true };
  };
}
