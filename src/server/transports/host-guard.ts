/**
 * DNS-rebinding protection for the HTTP transports. A server listening on a loopback address only
 * accepts loopback `Host` and `Origin` headers unless told otherwise; a server on any other
 * address checks them only against lists it was given. Where the listening address is unknown
 * (a Hono context on a runtime other than @hono/node-server) the loopback rules apply: failing
 * closed is what keeps a local server safe, and a public one names its hosts anyway. Decisions use
 * the SDK's validators.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { sendJsonRpcError } from './node-http.js';
import { checkRequestTarget, type RequestTarget } from './request-target.js';

export interface HostGuardOptions {
  /** Hostnames (no port) the `Host` header may name. Default: loopback names on a loopback listener. */
  allowedHosts?: string[];
  /** Hostnames (no port) a browser `Origin` may name. Default: loopback names on a loopback listener. */
  allowedOrigins?: string[];
}

/** What the guard looks at: the two headers and the address the request arrived on. */
export interface GuardedRequest {
  host: string | undefined;
  origin: string | undefined;
  /** The listener's local address; `undefined` when the runtime does not tell (loopback rules apply). */
  localAddress: string | undefined;
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** Returns why the request must be refused (403), or undefined when it may proceed. */
export function hostGuardRejection(
  { host, origin, localAddress }: GuardedRequest,
  options: HostGuardOptions = {},
): string | undefined {
  const loopback = localAddress === undefined || isLoopbackAddress(localAddress);
  const hosts = options.allowedHosts ?? (loopback ? localhostAllowedHostnames() : undefined);
  const origins = options.allowedOrigins ?? (loopback ? localhostAllowedOrigins() : undefined);
  if (hosts) {
    const checked = validateHostHeader(host, hosts);
    if (!checked.ok) return `${checked.message} (allowedHosts: ${hosts.join(', ')})`;
  }
  if (origins) {
    const checked = validateOriginHeader(origin, origins);
    if (!checked.ok) return `${checked.message} (allowedOrigins: ${origins.join(', ')})`;
  }
  return undefined;
}

/** The guard's view of a Node request; a socket without an address counts as a non-loopback one. */
export function guardedNodeRequest(req: IncomingMessage): GuardedRequest {
  return { host: req.headers.host, origin: req.headers.origin, localAddress: req.socket?.localAddress ?? '' };
}

/**
 * The gate in front of every Node HTTP entry point: a malformed request line or `Host` gets 400
 * (405 for a method a web `Request` cannot carry), a foreign `Host`/`Origin` 403. Returns the
 * checked target, or undefined once the refusal is answered.
 */
export function admitRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: HostGuardOptions = {},
): RequestTarget | undefined {
  const checked = checkRequestTarget(req);
  if (!checked.ok) {
    sendJsonRpcError(res, checked.status, -32000, checked.message);
    return undefined;
  }
  const rejection = hostGuardRejection(guardedNodeRequest(req), options);
  if (rejection) {
    sendJsonRpcError(res, 403, -32000, `Forbidden: ${rejection}`);
    return undefined;
  }
  return checked.target;
}
