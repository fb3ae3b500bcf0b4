/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for an MCP endpoint: the document, the
 * well-known paths MCP clients probe for it (the path-suffixed form first, then the root form), and
 * the `resource_metadata` URL advertised in `WWW-Authenticate` challenges. The document is built
 * once, when the middleware is created.
 */
import {
  getOAuthProtectedResourceMetadataUrl,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../../errors.js';

export const WELL_KNOWN_PRM_PATH = '/.well-known/oauth-protected-resource';

export interface ProtectedResourceMetadataOptions {
  resource: string;
  authorizationServers: string[];
  scopesSupported: string[];
  resourceName?: string | undefined;
  mcpPath: string;
}

export interface ProtectedResource {
  document: OAuthProtectedResourceMetadata;
  /** Absolute URL of the document, for `resource_metadata` in challenges. */
  url: string;
  /** Request paths answered with the document. */
  paths: Set<string>;
}

const invalidConfig = (text: string, field: string) =>
  mcpError(MCPErrorCode.SERVER_INVALID_OAUTH_CONFIG, text, { field });

/** The option a URL came from: the resource itself, or one of the authorization servers. */
const optionOf = (what: string) => (what === 'resource' ? 'resource' : 'authorizationServers');

function absoluteUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidConfig(`OAuth ${what} must be an absolute URL, got '${value}'`, optionOf(what));
  }
  if (url.hash) throw invalidConfig(`OAuth ${what} must not have a fragment: '${value}'`, optionOf(what));
  return url;
}

export function protectedResource(options: ProtectedResourceMetadataOptions): ProtectedResource {
  const resource = absoluteUrl(options.resource, 'resource');
  if (options.authorizationServers.length === 0) {
    throw invalidConfig(
      'OAuth authorizationServers must name at least one authorization server',
      'authorizationServers',
    );
  }
  for (const server of options.authorizationServers) absoluteUrl(server, 'authorization server');
  // The options were checked when the middleware was created (oauth-middleware.ts) and the URLs above.
  const document: OAuthProtectedResourceMetadata = {
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    scopes_supported: options.scopesSupported,
    bearer_methods_supported: ['header'],
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
  };
  const url = getOAuthProtectedResourceMetadataUrl(resource);
  const mcpPath = options.mcpPath === '/' ? '' : options.mcpPath.replace(/\/$/, '');
  const paths = new Set([WELL_KNOWN_PRM_PATH, `${WELL_KNOWN_PRM_PATH}${mcpPath}`, new URL(url).pathname]);
  return { document, url, paths };
}

const CORS = { 'access-control-allow-origin': '*' };

/** The answer to a request for the document: GET/HEAD with it, OPTIONS as a CORS preflight, else 405. */
export function metadataAnswer(
  method: string | undefined,
  document: OAuthProtectedResourceMetadata,
): { status: number; headers: Record<string, string>; body: string | undefined } {
  if (method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        ...CORS,
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': '*',
      },
      body: undefined,
    };
  }
  if (method !== 'GET' && method !== 'HEAD') {
    return {
      status: 405,
      headers: { ...CORS, allow: 'GET, HEAD, OPTIONS', 'content-type': 'application/json' },
      body: JSON.stringify({
        error: 'method_not_allowed',
        error_description: `${method} is not allowed here`,
      }),
    };
  }
  const body = JSON.stringify(document);
  return {
    status: 200,
    headers: {
      ...CORS,
      'content-type': 'application/json',
      'cache-control': 'public, max-age=3600',
      'content-length': String(new TextEncoder().encode(body).byteLength),
    },
    body: method === 'HEAD' ? undefined : body,
  };
}
