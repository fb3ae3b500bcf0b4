/**
 * The HTTP transports of one server. Every request goes through one fetch, which hands a custom
 * `fetch` the request context of the operation that caused it (null during the handshake) and,
 * with `allowedHosts`, refuses hosts the list does not name (allowed-hosts.ts). Streamable HTTP is
 * tried first; a server that refuses it at connect gets the legacy SSE transport (the v1 MCPClient
 * reference's compatibility path), with `eventSourceInit` honoured. The transports' fetch also
 * echoes the answering instance on `input_required` retries (instance-affinity.ts), and reads
 * every answer within `maxMessageBytes` (bounded-fetch.ts), the SSE stream's own fetch included.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from '@mastra/core/request-context';
import {
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { httpStatusOf } from '../errors.js';
import type { HttpServerDefinition, MCPEventSourceInit } from '../types.js';
import { allowedHostsFetch, hostNotAllowed } from './allowed-hosts.js';
import { boundedFetch } from './bounded-fetch.js';
import { instanceAffinityFetch } from './instance-affinity.js';
import type { MessageBound } from './message-bound.js';

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
 * Options both transports share. With `allowedHosts` on the default fetch, redirects are left to
 * that fetch (`redirectPolicy: 'follow'`), which follows them by hand and checks every hop; the
 * SDK's default would refuse any redirect that leaves the origin, even to an allowed host. A
 * custom fetch keeps the SDK's default, so its hops stay within the origin unless it follows
 * redirects by itself.
 */
function transportOptions(
  definition: HttpServerDefinition,
  bound: MessageBound,
  customFetch = !!definition.fetch,
) {
  return {
    fetch: boundedFetch(instanceAffinityFetch(serverFetch(definition, bound.serverName)), bound),
    ...(definition.allowedHosts && !customFetch ? { redirectPolicy: 'follow' as const } : {}),
    ...(definition.requestInit ? { requestInit: definition.requestInit } : {}),
    ...(definition.authProvider ? { authProvider: definition.authProvider } : {}),
  };
}

export function streamableTransport(
  definition: HttpServerDefinition,
  bound: MessageBound,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(definition.url, transportOptions(definition, bound));
}

/**
 * `eventSourceInit`, whose own `fetch` (the SSE stream's, if given) is held to `allowedHosts` and
 * `maxMessageBytes` too.
 */
function eventSourceInit(definition: HttpServerDefinition, bound: MessageBound) {
  const init = definition.eventSourceInit;
  if (!init?.fetch) return init;
  // The stream's fetch is called with a fetch init and must answer a Response: the same contract.
  const own = init.fetch as FetchLike;
  const checked = definition.allowedHosts
    ? allowedHostsFetch(bound.serverName, definition.allowedHosts, own)
    : own;
  return { ...init, fetch: boundedFetch(checked, bound) as NonNullable<MCPEventSourceInit['fetch']> };
}

export function sseTransport(definition: HttpServerDefinition, bound: MessageBound): SSEClientTransport {
  const init = eventSourceInit(definition, bound);
  return new SSEClientTransport(definition.url, {
    ...transportOptions(definition, bound, !!(definition.fetch || init?.fetch)),
    ...(init ? { eventSourceInit: init } : {}),
  });
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
