/**
 * The HTTP transports of one server, in a module of their own: connection.ts imports it with the
 * first connect to an HTTP server (shared/lazy-module.ts). Their fetch is the server's (http.ts),
 * which also echoes the answering instance on `input_required` retries (instance-affinity.ts) and
 * reads every answer within `maxMessageBytes` (bounded-fetch.ts), the SSE stream's own fetch
 * included; the legacy SSE transport honours `eventSourceInit`.
 */
import {
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { HttpServerDefinition, MCPEventSourceInit } from '../types.js';
import { allowedHostsFetch } from './allowed-hosts.js';
import { boundedFetch } from './bounded-fetch.js';
import { serverFetch } from './http.js';
import { instanceAffinityFetch } from './instance-affinity.js';
import type { MessageBound } from './message-bound.js';

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
