/**
 * The request line and `Host` header of a Node request, checked before anything builds a URL or a
 * web `Request` from them. Node's parser lets through what `new URL`/`new Request` throw on
 * (`Host: a@b`, `POST http://u:p@host/`, `POST http://[x/`, `TRACE`), and a throw there used to
 * end the process. Every HTTP entry point goes through `checkRequestTarget` first: an
 * absolute-form target is rewritten to origin form in `req.url`, so whatever reads the request
 * after it (the SDK's transports, Hono, `bodylessRequest`) sees only values a `Request` accepts.
 */
import type { IncomingMessage } from 'node:http';

/** A request that passed the checks: its URL as a web `Request` takes it. */
export interface RequestTarget {
  readonly href: string;
  readonly method: string;
}

export type TargetCheck =
  | { ok: true; target: RequestTarget }
  | { ok: false; status: 400 | 405; message: string };

/** The methods a web `Request` refuses to carry (Fetch "forbidden methods"). */
const UNCARRIED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** `host[:port]`: a DNS name or IPv4 address, or a bracketed IPv6 literal; no userinfo, path or spaces. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d{1,5})?$/;

/**
 * The origin-form path (`/path?query`) of a request target in origin or absolute form, or
 * undefined when it is neither, does not parse or carries credentials.
 */
function originFormPath(target: string): string | undefined {
  if (target.startsWith('/')) return URL.canParse(`http://localhost${target}`) ? target : undefined;
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    if (url.username || url.password) return undefined;
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

/** Checks the method, target and `Host` of `req`; rewrites an absolute-form `req.url` to origin form. */
export function checkRequestTarget(req: IncomingMessage): TargetCheck {
  const method = req.method ?? 'GET';
  if (UNCARRIED_METHODS.has(method.toUpperCase())) {
    return { ok: false, status: 405, message: `Method Not Allowed: ${method}` };
  }
  const path = originFormPath(req.url ?? '/');
  if (path === undefined) {
    return {
      ok: false,
      status: 400,
      message: 'Bad Request: the request target is not a path or an http(s) URL without credentials',
    };
  }
  const host = req.headers.host;
  if (host !== undefined && !(HOST_HEADER.test(host) && URL.canParse(`http://${host}/`))) {
    return {
      ok: false,
      status: 400,
      message: 'Bad Request: the Host header is not a host name with an optional port',
    };
  }
  req.url = path;
  return { ok: true, target: { href: `http://${host ?? 'localhost'}${path}`, method } };
}

/** What `requestUrl` takes: a Node request, a web `Request`, or a Hono context (`c`). */
export type RoutableRequest = IncomingMessage | Request | { req: { url: string } };

/** The target of `request` in origin form (`/path?query`), or undefined when it has none. */
function targetOf(request: RoutableRequest): string | undefined {
  if (request instanceof Request || 'req' in request) {
    // A web request's URL is absolute, and its host may be one `new URL` refuses (`Host: xn--a.com`
    // gives Hono `http://xn--a.com/...`): only its path is taken, the host is never parsed.
    const url = request instanceof Request ? request.url : request.req.url;
    const path = /^https?:\/\/[^/?#]*([/?#].*)?$/i.exec(url)?.[1] ?? '/';
    return originFormPath(path.startsWith('/') ? path : `/${path}`);
  }
  return originFormPath(request.url ?? '/');
}

/**
 * The URL of a request resolved against `base` (only its origin is used), for routing: a Node
 * `req` in a `node:http` handler, a web `Request` (Bun, Deno, Workers), or a Hono context `c`.
 * `undefined` when the request target is malformed or carries credentials (answer 400). Unlike
 * `new URL(req.url, base)` or `new URL(c.req.url)` it never throws (a `Host` such as
 * `xn--a.com` made those throw), and it never lets a target such as `//host/path` replace the
 * origin.
 */
export function requestUrl(request: RoutableRequest, base = 'http://localhost'): URL | undefined {
  const path = targetOf(request);
  if (path === undefined) return undefined;
  try {
    return new URL(`${new URL(base).origin}${path}`);
  } catch {
    return undefined;
  }
}
