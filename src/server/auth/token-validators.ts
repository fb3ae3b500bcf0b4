/**
 * Access-token validators for `createOAuthMiddleware`: a fixed list of tokens (development) and
 * RFC 7662 token introspection (production). A validator answers with a TokenValidationResult and
 * never puts the token or a client secret into a message: results and thrown errors may be logged
 * or sent to the client.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { MCPErrorCode, mcpError } from '../../errors.js';

/** What a validator decides about one bearer token. */
export interface TokenValidationResult {
  valid: boolean;
  /**
   * RFC 6750 error code when `valid` is false: `invalid_token` (the default) answers 401,
   * `insufficient_scope` answers 403, `invalid_request` answers 400.
   */
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | (string & {});
  /** Human-readable reason, sent as `error_description`. Must not contain the token. */
  errorDescription?: string;
  /** With `insufficient_scope`: the scopes the request needs, sent as the challenge's `scope`. */
  requiredScopes?: string[];
  /** Scopes granted to the token. */
  scopes?: string[];
  /** The resource owner (`sub`). */
  subject?: string;
  /** The client the token was issued to (`client_id`). */
  clientId?: string;
  /** Expiry in seconds since the epoch (`exp`). */
  expiresAt?: number;
  /** Audience(s) the token was issued for; when given, the middleware requires its `resource` among them. */
  audience?: string | string[];
  /** Further claims, passed to tools as `authInfo.extra.claims`. */
  claims?: Record<string, unknown>;
}

/** Validates `token` for the protected `resource` (the middleware's `oauth.resource`). */
export type TokenValidator = (token: string, resource: string) => Promise<TokenValidationResult>;

/** Compares resource identifiers as RFC 8707 URIs: without fragment and without one trailing slash. */
export function sameResource(a: string, b: string): boolean {
  const plain = (value: string) => value.split('#')[0]?.replace(/\/$/, '') ?? '';
  return plain(a) === plain(b);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Accepts exactly the given tokens (compared in constant time). For development and tests: the
 * tokens carry no scopes, subject or expiry.
 */
export function createStaticTokenValidator(tokens: string[]): TokenValidator {
  const allowed = tokens.map(digest);
  return async (token) => {
    const presented = digest(token);
    const valid = allowed.some((candidate) => timingSafeEqual(candidate, presented));
    return valid
      ? { valid: true, scopes: [] }
      : { valid: false, error: 'invalid_token', errorDescription: 'The access token is not recognized' };
  };
}

export interface IntrospectionValidatorOptions {
  /** The MCP server's client id at the authorization server. */
  clientId: string;
  /** Its secret, sent with HTTP Basic authentication (RFC 6749 §2.3.1). */
  clientSecret: string;
  /** Per-request timeout in milliseconds. Default 10 000. */
  timeoutMs?: number;
}

const introspectionResponse = z.looseObject({
  active: z.boolean(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  sub: z.string().optional(),
  exp: z.number().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
});

/** RFC 6749 §2.3.1: each part is form-urlencoded before the Basic credentials are built. */
function basicCredentials(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

const rejected = (errorDescription: string): TokenValidationResult => ({
  valid: false,
  error: 'invalid_token',
  errorDescription,
});

/**
 * Validates tokens with RFC 7662 token introspection: POSTs `token` to `url` as a form,
 * authenticating with HTTP Basic. A token is valid only when the authorization server reports it
 * `active`, it has not expired (`exp`), and its audience (`aud`) names the protected resource, so a
 * token issued for another resource server is refused (RFC 8707). An introspection endpoint that
 * fails or answers nonsense throws: that is a server error, not a bad token.
 */
export function createIntrospectionValidator(
  url: string,
  options: IntrospectionValidatorOptions,
): TokenValidator {
  const endpoint = new URL(url);
  const authorization = basicCredentials(options.clientId, options.clientSecret);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (token, resource) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw mcpError(
        MCPErrorCode.SERVER_TOKEN_INTROSPECTION_FAILED,
        `Token introspection at ${endpoint.origin}${endpoint.pathname} failed: HTTP ${response.status}`,
        { url: `${endpoint.origin}${endpoint.pathname}`, httpStatus: response.status },
      );
    }
    const parsed = introspectionResponse.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw mcpError(
        MCPErrorCode.SERVER_TOKEN_INTROSPECTION_FAILED,
        `Token introspection at ${endpoint.origin}${endpoint.pathname} answered with no RFC 7662 response`,
        { url: `${endpoint.origin}${endpoint.pathname}` },
      );
    }
    const claims = parsed.data;
    if (!claims.active) return rejected('The access token is not active (unknown, revoked or expired)');
    if (claims.exp !== undefined && claims.exp <= Date.now() / 1000)
      return rejected('The access token expired');
    const audience = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audience.some((entry) => sameResource(entry, resource))) {
      return rejected('The access token was not issued for this resource');
    }
    const { active: _active, scope, client_id, sub, exp, aud, ...rest } = claims;
    const result: TokenValidationResult = {
      valid: true,
      scopes: scope ? scope.split(' ').filter(Boolean) : [],
      audience,
      claims: rest,
    };
    if (sub !== undefined) result.subject = sub;
    if (client_id !== undefined) result.clientId = client_id;
    if (exp !== undefined) result.expiresAt = exp;
    return result;
  };
}
