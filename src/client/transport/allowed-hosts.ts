/**
 * `allowedHosts` of one HTTP server: which hosts the client may contact on its behalf (SSRF guard).
 *
 * Matching: an entry is compared with the URL's host as `URL.host` renders it, i.e. the hostname
 * (lowercase, IDNs in punycode, IPv6 in brackets) plus `:port` only when the port is not the
 * scheme's default (80 for http, 443 for https). The comparison is exact and case-insensitive. So
 * `localhost` allows `http://localhost/` and `https://localhost/` but not `http://localhost:8080/`,
 * which needs `localhost:8080`; `example.com:443` allows `http://example.com:443/` only. No
 * wildcards, no subdomains, no DNS resolution, no scheme check. An empty list denies everything.
 *
 * Enforcement, invariant: no request leaves for a host the list does not name, except the redirect
 * hops a caller-supplied `fetch` follows on its own (checked after the fact through `response.url`).
 * - default fetch: each request is checked before it is sent and redirects are followed here, by
 *   hand (at most 5), each hop checked before it is sent; `Authorization`, `Cookie` and
 *   `Proxy-Authorization` are dropped when a hop changes origin (scheme, host or port); 301/302
 *   turn a POST into a body-less GET, 303 anything but HEAD, as fetch does. A caller asking for
 *   `redirect: 'manual'` or `'error'` gets exactly that, one checked request.
 * - custom fetch: the URL is checked before the call; a response whose non-empty `response.url`
 *   names a host not allowed is cancelled and the request fails (an empty `url`, as a hand-built
 *   `new Response()` has, skips that check).
 * A refusal rejects the fetch with a `TypeError` (what fetch itself rejects with, so the SDK treats
 * it as a network failure everywhere, OAuth discovery included) whose `cause` is the
 * `HostNotAllowedError` the connection surfaces and never retries.
 */
import { MastraError } from '@mastra/core/error';
import type { FetchLike } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpErrorDefinition } from '../../errors.js';
import { findCause } from '../errors.js';

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect hop changes origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/** Dropped with the body when a redirect turns the request into a GET (fetch's request-body-header names). */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];

/**
 * A request (or a followed response) refused because its host is not in the server's `allowedHosts`.
 * A class rather than an `mcpError()` so `hostNotAllowed()` finds it in a cause chain by type.
 */
export class HostNotAllowedError extends MastraError {
  constructor(
    readonly serverName: string,
    readonly host: string,
    stage: 'request' | 'response',
  ) {
    super(
      mcpErrorDefinition(
        MCPErrorCode.CLIENT_HOST_NOT_ALLOWED,
        stage === 'request'
          ? `MCP server '${serverName}': host '${host}' is not in allowedHosts; the request was not sent`
          : `MCP server '${serverName}': the response came from host '${host}', which is not in allowedHosts; it was discarded`,
        { server: serverName, host },
      ),
    );
  }
}

/** The HostNotAllowedError behind `error` (itself or a cause a few levels down), if any. */
export function hostNotAllowed(error: unknown): HostNotAllowedError | undefined {
  return findCause(error, HostNotAllowedError);
}

/** What an `allowedHosts` entry is compared with: `URL.host`, lowercased. */
function hostOf(url: URL): string {
  return url.host.toLowerCase();
}

export function isHostAllowed(url: URL, allowedHosts: readonly string[]): boolean {
  return new HostPolicy('', allowedHosts).allows(url);
}

class HostPolicy {
  private readonly hosts: Set<string>;

  constructor(
    readonly serverName: string,
    allowedHosts: readonly string[],
  ) {
    this.hosts = new Set(allowedHosts.map((entry) => entry.toLowerCase()));
  }

  /** A TypeError, as fetch rejects with, carrying the HostNotAllowedError. */
  refusal(host: string, stage: 'request' | 'response'): TypeError {
    const blocked = new HostNotAllowedError(this.serverName, host, stage);
    return new TypeError(blocked.message, { cause: blocked });
  }

  allows(url: URL): boolean {
    return this.hosts.has(hostOf(url));
  }

  /** Throws unless `url` may be requested. */
  check(url: URL): void {
    if (!this.allows(url)) throw this.refusal(hostOf(url), 'request');
  }

  /** Throws (after cancelling the body) when a custom fetch's response came from a host not allowed. */
  async checkResponse(response: Response): Promise<void> {
    if (!response.url) return;
    let host: string | undefined;
    try {
      host = hostOf(new URL(response.url));
    } catch {
      // An unparsable url is refused like a foreign one.
    }
    if (host !== undefined && this.hosts.has(host)) return;
    await response.body?.cancel().catch(() => {});
    throw this.refusal(host ?? '(unparsable response.url)', 'response');
  }
}

function isReplayable(body: RequestInit['body']): boolean {
  return !(body instanceof ReadableStream);
}

/** Fetch with every redirect hop checked before it is sent (see the module comment). */
async function followChecked(
  policy: HostPolicy,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  let current = new URL(url);
  if (init.redirect === 'manual' || init.redirect === 'error') {
    policy.check(current);
    return fetch(current, init);
  }
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  for (let followed = 0; ; followed++) {
    policy.check(current);
    const response = await fetch(current, { ...init, method, headers, body, redirect: 'manual' });
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) {
      // The last hop's own Response: status, headers, body stream and `url` (the final URL) as fetch gives them.
      if (followed > 0) Object.defineProperty(response, 'redirected', { value: true });
      return response;
    }
    await response.body?.cancel().catch(() => {});
    const from = `MCP server '${policy.serverName}': redirect from host '${hostOf(current)}'`;
    if (followed === MAX_REDIRECTS) throw new TypeError(`${from}: more than ${MAX_REDIRECTS} redirects`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new TypeError(`${from}: the Location header is not a valid URL`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new TypeError(`${from} to a ${next.protocol} URL refused`);
    }
    if (next.origin !== current.origin) {
      if (next.username || next.password)
        throw new TypeError(`${from}: a cross-origin Location with credentials`);
      for (const name of CREDENTIAL_HEADERS) headers.delete(name);
    }
    const toGet =
      (response.status === 303 && method !== 'GET' && method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && method === 'POST');
    if (toGet) {
      method = 'GET';
      body = undefined;
      for (const name of BODY_HEADERS) headers.delete(name);
    } else if (body != null && !isReplayable(body)) {
      throw new TypeError(`${from}: a ${response.status} redirect cannot resend a streamed body`);
    }
    current = next;
  }
}

/**
 * The fetch one HTTP server's transports use when `allowedHosts` is set: `custom` (the server's
 * own fetch, already bound to the request context) checked before and after, or the global fetch
 * with redirects followed here.
 */
export function allowedHostsFetch(
  serverName: string,
  allowedHosts: readonly string[],
  custom?: FetchLike,
): FetchLike {
  const policy = new HostPolicy(serverName, allowedHosts);
  if (!custom) return (url, init) => followChecked(policy, url, init);
  return async (url, init) => {
    policy.check(new URL(url));
    const response = await custom(url, init);
    await policy.checkResponse(response);
    return response;
  };
}
