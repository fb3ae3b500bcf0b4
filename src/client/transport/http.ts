/**
 * The fetch of one HTTP server: every request goes through it, and it hands a custom `fetch` the
 * request context of the operation that caused it (null during the handshake) and, with
 * `allowedHosts`, refuses hosts the list does not name (allowed-hosts.ts). Streamable HTTP is
 * tried first; a server that refuses it at connect gets the legacy SSE transport (the v1 MCPClient
 * reference's compatibility path). The transports themselves are in http-transports.ts, which
 * loads with the first connect to an HTTP server.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from '@mastra/core/request-context';
import type { FetchLike } from '@modelcontextprotocol/client';
import { httpStatusOf } from '../errors.js';
import type { HttpServerDefinition, MastraMCPServerDefinition } from '../types.js';
import { allowedHostsFetch, hostNotAllowed } from './allowed-hosts.js';

export function isHttp(definition: MastraMCPServerDefinition): definition is HttpServerDefinition {
  return 'url' in definition && definition.url !== undefined;
}

/** The request context of the operation in progress, for the custom fetch. */
export const requestContextScope = new AsyncLocalStorage<RequestContext | null>();

/** Every request of server `serverName` goes through this fetch (OAuth requests of `authProvider` too). */
export function serverFetch(definition: HttpServerDefinition, serverName: string): FetchLike {
  const custom = definition.fetch;
  const bound: FetchLike | undefined =
    custom &&
    // The context is the one the app passed in; its values are whatever the app put there.
    ((url, init) =>
      custom(url, init, (requestContextScope.getStore() ?? null) as Parameters<typeof custom>[2]));
  if (definition.allowedHosts) return allowedHostsFetch(serverName, definition.allowedHosts, bound);
  return bound ?? ((url, init) => fetch(url, init));
}

/**
 * Whether a Streamable HTTP connect failure means "this endpoint speaks the old HTTP+SSE
 * transport": the POST is refused as a method or route the server does not have. A host refused
 * by `allowedHosts` never is (no fallback is tried after one).
 */
export function refusesStreamableHttp(error: unknown): boolean {
  if (hostNotAllowed(error)) return false;
  const status = httpStatusOf(error);
  return status !== undefined && [400, 404, 405].includes(status);
}
