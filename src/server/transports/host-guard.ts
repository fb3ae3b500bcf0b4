/**
 * DNS-rebinding protection for the HTTP transports. A server listening on a loopback address only
 * accepts loopback `Host` and `Origin` headers unless told otherwise; a server on any other
 * address checks them only against lists it was given. Where the listening address is unknown
 * (a Hono context on a runtime other than @hono/node-server) the loopback rules apply: failing
 * closed is what keeps a local server safe, and a public one names its hosts anyway. Decisions use
 * the SDK's validators, which compare hostnames; entries written for the SDK v1 transport
 * (`127.0.0.1:3000`, `http://127.0.0.1:3000`) are compared exactly, as that transport did, and
 * its `enableDnsRebindingProtection: false` turns the checks off.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { clip } from '../issues.js';
import {
  type BodyLimits,
  jsonRpcErrorResponse,
  readNodeBody,
  readWebJsonBody,
  refuseNodeRequest,
  requestIdOf,
  sendJsonRpcError,
} from './node-http.js';
import { checkRequestTarget, type RequestTarget } from './request-target.js';

export interface HostGuardOptions {
  /**
   * What the `Host` header may name. Default: loopback names on a loopback listener. An entry
   * without a port (`localhost`) matches the hostname on any port; an entry with one
   * (`localhost:3000`, the SDK v1 transport's form) matches the header exactly.
   */
  allowedHosts?: string[];
  /**
   * What a browser `Origin` may name. Default: loopback names on a loopback listener. A hostname
   * (`localhost`) matches any scheme and port; a full origin (`http://localhost:3000`, the SDK v1
   * transport's form) matches exactly.
   */
  allowedOrigins?: string[];
  /**
   * The SDK v1 transport's switch. `false` turns the `Host`/`Origin` checks off (the v1 meaning:
   * only for servers behind a proxy that checks them); `true` or unset checks them.
   */
  enableDnsRebindingProtection?: boolean;
}

/** Longest refusal reason quoted from the SDK's validators, which repeat the header. */
const MAX_REFUSAL = 200;

/** `host:port` or `[v6]:port`: an SDK v1 entry, compared with the whole header. */
const HOST_WITH_PORT = /^(\[[^\]]*\]|[^:]*):\d+$/;

/** A full origin, not the SDK's `scheme://*` wildcard (which its validator handles). */
function isFullOrigin(entry: string): boolean {
  return entry.includes('://') && !entry.endsWith('://*');
}

function originOf(value: string): string | undefined {
  try {
    return new URL(value).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

function checkHost(host: string | undefined, allowed: string[]): string | undefined {
  const exact = allowed.filter((entry) => HOST_WITH_PORT.test(entry));
  if (host && exact.some((entry) => entry.toLowerCase() === host.toLowerCase())) return undefined;
  const checked = validateHostHeader(
    host,
    allowed.filter((entry) => !exact.includes(entry)),
  );
  if (checked.ok) return undefined;
  // The refused value is the request's own (up to Node's 16 KiB of headers): quoted cut.
  const refused = exact.length && host ? `Invalid Host: ${host}` : checked.message;
  return `${clip(refused, MAX_REFUSAL)} (allowedHosts: ${allowed.join(', ')})`;
}

function checkOrigin(origin: string | undefined, allowed: string[]): string | undefined {
  const exact = allowed.filter(isFullOrigin);
  const sent = origin ? originOf(origin) : undefined;
  if (sent && exact.some((entry) => originOf(entry) === sent)) return undefined;
  const checked = validateOriginHeader(
    origin,
    allowed.filter((entry) => !isFullOrigin(entry)),
  );
  if (checked.ok) return undefined;
  return `${clip(checked.message, MAX_REFUSAL)} (allowedOrigins: ${allowed.join(', ')})`;
}

/** The guard's options as entry points pass them: the user's, and the origins the `cors` option lists. */
export interface GuardOptions extends HostGuardOptions {
  /** Origins (lower case) of the `cors` option: a page there passes the Origin check as well. */
  corsOrigins?: readonly string[];
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
  options: GuardOptions = {},
): string | undefined {
  if (options.enableDnsRebindingProtection === false) return undefined;
  const loopback = localAddress === undefined || isLoopbackAddress(localAddress);
  const hosts = options.allowedHosts ?? (loopback ? localhostAllowedHostnames() : undefined);
  const origins = options.allowedOrigins ?? (loopback ? localhostAllowedOrigins() : undefined);
  const listed = origin !== undefined && options.corsOrigins?.includes(originOf(origin) ?? '');
  return (
    (hosts && checkHost(host, hosts)) || (origins && !listed && checkOrigin(origin, origins)) || undefined
  );
}

/** The guard's view of a Node request; a socket without an address counts as a non-loopback one. */
export function guardedNodeRequest(req: IncomingMessage): GuardedRequest {
  return { host: req.headers.host, origin: req.headers.origin, localAddress: req.socket?.localAddress ?? '' };
}

/** The guard's view of a web `Request`; its local address only where the runtime tells it (else loopback rules). */
export function guardedWebRequest(request: Request, localAddress?: string): GuardedRequest {
  let host = request.headers.get('host') ?? undefined;
  if (host === undefined) {
    try {
      host = new URL(request.url).host;
    } catch {
      // No host to check: the loopback rules refuse it.
    }
  }
  return { host, origin: request.headers.get('origin') ?? undefined, localAddress };
}

/**
 * The gate of the web entry points (`server.fetch()`, Hono SSE): a foreign `Host`/`Origin` gets
 * 403, answering the request its body holds by id when the body parses; undefined to proceed.
 */
export async function admitWebRequest(
  request: Request,
  options: GuardOptions,
  limits: BodyLimits,
  localAddress?: string,
): Promise<Response | undefined> {
  const rejection = hostGuardRejection(guardedWebRequest(request, localAddress), options);
  if (!rejection) return undefined;
  const body = request.method === 'POST' ? await readWebJsonBody(request, limits) : undefined;
  const id = body?.ok ? requestIdOf(body.body) : null;
  return jsonRpcErrorResponse(403, -32000, `Forbidden: ${rejection}`, id);
}

/**
 * The gate in front of every Node HTTP entry point: a malformed request line or `Host` gets 400
 * (405 for a method a web `Request` cannot carry), a foreign `Host`/`Origin` 403. Returns the
 * checked target, or undefined once the refusal is answered.
 */
export async function admitRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: GuardOptions,
  limits: BodyLimits,
): Promise<RequestTarget | undefined> {
  const checked = checkRequestTarget(req);
  if (!checked.ok) {
    sendJsonRpcError(res, checked.status, -32000, checked.message);
    return undefined;
  }
  const rejection = hostGuardRejection(guardedNodeRequest(req), options);
  if (!rejection) return checked.target;
  // The 403 answers the request the body holds, by its id, when the body parses.
  const body = req.method === 'POST' ? await readNodeBody(req, limits) : undefined;
  const id = body?.ok ? requestIdOf(body.body) : null;
  refuseNodeRequest(req, res, { status: 403, code: -32000, message: `Forbidden: ${rejection}`, id }, limits);
  return undefined;
}
