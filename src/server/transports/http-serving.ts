/**
 * What an MCPServer serves over HTTP by itself, resolved once from the `http` option (and, for
 * `listen()`, its own options on top): the endpoint's path and transport options, the CORS policy
 * and the OAuth protection, each checked when the server is built or `listen()` is called. The
 * web door is here too: `server.fetch` routes a web `Request` through CORS, then OAuth, then the
 * Streamable HTTP endpoint (its own host guard, limits and stream bounds), and never rejects.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { asError, MCPErrorCode, mcpError } from '../../errors.js';
import { type OAuthAnswer, type OAuthProtection, oauthProtection } from '../auth/oauth-middleware.js';
import type { MCPServerHttpConfig } from '../types.js';
import { CorsPolicy, corsOnWeb } from './cors.js';
import { jsonRpcErrorResponse } from './node-http.js';
import { requestUrl } from './request-target.js';
import type { EndpointOptions, StreamableHttpEndpoint } from './streamable-http.js';

export const DEFAULT_MCP_PATH = '/mcp';

export interface HttpServing {
  /** The MCP endpoint's path. */
  path: string;
  /** The transport options (only those given: `sessionIdGenerator` set to undefined means stateless) and CORS origins. */
  endpointOptions: EndpointOptions;
  cors: CorsPolicy | undefined;
  oauth: OAuthProtection | undefined;
}

export interface ServingSite {
  serverId: string;
  /** Where the options came from, for messages: `"http option: "`, `"listen(): "`. */
  where: string;
  logger: IMastraLogger;
}

/** Resolves `config`; `alsoProtected` are further paths the OAuth protection covers (listen's SSE paths). */
export function resolveHttpServing(
  config: MCPServerHttpConfig | undefined,
  site: ServingSite,
  alsoProtected: readonly string[] = [],
): HttpServing {
  const { path = DEFAULT_MCP_PATH, cors, oauth, ...transport } = config ?? {};
  if (typeof path !== 'string' || !/^\/[^?#\s]*$/.test(path)) {
    throw mcpError(
      MCPErrorCode.SERVER_INVALID_HTTP_OPTION,
      `MCP server '${site.serverId}': ${site.where}path must be a URL path starting with '/', e.g. '/mcp' (got ${JSON.stringify(path)})`,
      { serverId: site.serverId, field: 'path' },
    );
  }
  const policy = CorsPolicy.of(cors, site.where, site.serverId);
  return {
    path,
    endpointOptions: { ...transport, ...(policy ? { corsOrigins: policy.listed } : {}) },
    cors: policy,
    oauth: oauth
      ? oauthProtection({ oauth, mcpPath: path, logger: site.logger }, [path, ...alsoProtected])
      : undefined,
  };
}

/** A protection answer as a web `Response`. */
export function oauthResponse(answer: OAuthAnswer): Response {
  return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
}

/**
 * `server.fetch`: the path routed, CORS and OAuth applied, the endpoint's answer returned; any
 * other path gets 404. A failure is logged and answered 500, so a runtime never sees a rejection.
 */
export function webHandler(
  endpoint: StreamableHttpEndpoint,
  serving: HttpServing,
  onerror: (error: Error) => void,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const { path, endpointOptions, cors, oauth } = serving;
      return await corsOnWeb(cors, request, async () => {
        const pathname = requestUrl(request)?.pathname;
        if (pathname === undefined) {
          return jsonRpcErrorResponse(400, -32000, 'Bad Request: the request target is not a path');
        }
        let auth: AuthInfo | undefined;
        if (oauth) {
          const outcome = await oauth(request.method, pathname, request.headers.get('authorization'));
          if (!outcome.proceed) return oauthResponse(outcome.answer);
          auth = outcome.auth;
        }
        if (pathname !== path)
          return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
        return endpoint.handleWeb(request, endpointOptions, auth);
      });
    } catch (error) {
      onerror(asError(error));
      return jsonRpcErrorResponse(500, -32603, 'Internal error');
    }
  };
}
