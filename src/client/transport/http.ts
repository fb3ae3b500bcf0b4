/**
 * The HTTP transports of one server. Every request goes through one fetch, which hands a custom
 * `fetch` the request context of the operation that caused it (null during the handshake).
 * Streamable HTTP is tried first; a server that refuses it at connect gets the legacy SSE
 * transport (the older page's compatibility path), with `eventSourceInit` honoured.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from '@mastra/core/request-context';
import {
  type FetchLike,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { HttpServerDefinition } from '../types.js';

/** The request context of the operation in progress, for the custom fetch. */
export const requestContextScope = new AsyncLocalStorage<RequestContext | null>();

export function serverFetch(definition: HttpServerDefinition): FetchLike {
  const custom = definition.fetch;
  if (!custom) return (url, init) => fetch(url, init);
  return (url, init) => custom(url, init, requestContextScope.getStore() ?? null);
}

export function streamableTransport(definition: HttpServerDefinition): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(definition.url, {
    fetch: serverFetch(definition),
    ...(definition.requestInit ? { requestInit: definition.requestInit } : {}),
    ...(definition.authProvider ? { authProvider: definition.authProvider } : {}),
  });
}

export function sseTransport(definition: HttpServerDefinition): SSEClientTransport {
  return new SSEClientTransport(definition.url, {
    fetch: serverFetch(definition),
    ...(definition.requestInit ? { requestInit: definition.requestInit } : {}),
    ...(definition.eventSourceInit ? { eventSourceInit: definition.eventSourceInit } : {}),
    ...(definition.authProvider ? { authProvider: definition.authProvider } : {}),
  });
}

/**
 * Whether a Streamable HTTP connect failure means "this endpoint speaks the old HTTP+SSE
 * transport": the POST is refused as a method or route the server does not have.
 */
export function refusesStreamableHttp(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof SdkHttpError) return [400, 404, 405].includes(current.status);
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
