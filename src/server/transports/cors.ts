/**
 * The `cors` option of `listen()`, `startHTTP()` and the server's `http` config (`server.fetch`):
 * which browser origins may call the server from pages of their own. Off by default. A preflight
 * (`OPTIONS` with `Access-Control-Request-Method`) from a listed origin is answered 204 with the
 * methods and the MCP request headers it asked for; from any other origin 403 naming the option.
 * Every other answer to a listed origin is tagged: `Access-Control-Allow-Origin` and the response
 * headers a client must read (`Mcp-Session-Id`, `Mcp-Instance-Id`, `WWW-Authenticate`, ...). A
 * listed origin also passes the DNS-rebinding Origin check (host-guard.ts's `corsOrigins`), since
 * listing it says its pages may call; the Host check is unchanged. There is no `*`: a local server
 * open to every origin is open to every page its user visits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { clip } from '../issues.js';

export interface MCPServerCorsOptions {
  /**
   * The origins whose pages may call the server, each `scheme://host[:port]` exactly as a browser
   * sends it (`https://app.example.com`, `http://localhost:5173`).
   */
  origins: string[];
}

/** The request headers of MCP's HTTP transports (and trace context) a page may send. */
const REQUEST_HEADERS = new Set([
  'accept',
  'authorization',
  'baggage',
  'content-type',
  'last-event-id',
  'mcp-instance-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
  'traceparent',
  'tracestate',
]);
/** `Mcp-Param-<name>`: 2026-07-28 routing headers named after a tool's parameters. */
const PARAM_HEADER = 'mcp-param-';
/** What a client reads of an answer besides the CORS-safelisted headers. */
const EXPOSED_HEADERS =
  'Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Instance-Id, WWW-Authenticate, Retry-After';
const METHODS = 'GET, POST, DELETE, OPTIONS';
/** Seconds a browser may keep a preflight's answer (Chromium keeps at most 7,200). */
const MAX_AGE = '600';

/** An answer both doors write: a Node response or a web `Response`. */
export interface CorsAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;

  private constructor(origins: string[]) {
    this.origins = new Set(origins);
  }

  /** The policy of a `cors` option (checked: each entry an origin), or undefined when there is none. */
  static of(
    options: MCPServerCorsOptions | undefined,
    where: string,
    serverId: string,
  ): CorsPolicy | undefined {
    if (options === undefined) return undefined;
    const invalid = (text: string, field: string) =>
      mcpError(MCPErrorCode.SERVER_INVALID_HTTP_OPTION, `MCP server '${serverId}': ${where}${text}`, {
        serverId,
        field,
      });
    if (!Array.isArray(options?.origins)) {
      throw invalid(
        "cors.origins must be a list of origins, e.g. ['https://app.example.com']",
        'cors.origins',
      );
    }
    const origins = options.origins.map((entry, index) => {
      const origin = originOf(entry);
      if (origin === undefined) {
        throw invalid(
          `cors.origins[${index}] ${JSON.stringify(clip(String(entry), 100))} is not an origin: write scheme://host[:port], e.g. 'https://app.example.com' (no path, no '*')`,
          `cors.origins[${index}]`,
        );
      }
      return origin;
    });
    return new CorsPolicy(origins);
  }

  /** The listed origins, as the Origin check compares them. */
  get listed(): readonly string[] {
    return [...this.origins];
  }

  /** Whether `method` and `headers` make a preflight this policy answers. */
  static isPreflight(method: string | undefined, requestMethod: string | null | undefined): boolean {
    return method === 'OPTIONS' && typeof requestMethod === 'string';
  }

  /** The answer to a preflight from `origin` asking to send `requestHeaders`. */
  preflight(origin: string | null | undefined, requestHeaders: string | null | undefined): CorsAnswer {
    const tags = this.tags(origin);
    if (!tags) {
      const text = `Forbidden: origin ${JSON.stringify(clip(String(origin ?? '(none)'), 200))} is not in cors.origins; list it there to let its pages call this server`;
      return {
        status: 403,
        headers: { 'content-type': 'text/plain; charset=utf-8', vary: 'Origin' },
        body: text,
      };
    }
    const asked = (requestHeaders ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => REQUEST_HEADERS.has(name) || name.startsWith(PARAM_HEADER));
    return {
      status: 204,
      headers: {
        ...tags,
        'access-control-allow-methods': METHODS,
        ...(asked.length > 0 ? { 'access-control-allow-headers': asked.join(', ') } : {}),
        'access-control-max-age': MAX_AGE,
      },
      body: undefined,
    };
  }

  /** The headers that tag an answer to `origin`, or undefined when it is not listed. */
  tags(origin: string | null | undefined): Record<string, string> | undefined {
    const listed = origin ? originOf(origin) : undefined;
    if (!listed || !this.origins.has(listed)) return undefined;
    return {
      'access-control-allow-origin': origin as string,
      'access-control-expose-headers': EXPOSED_HEADERS,
      vary: 'Origin',
    };
  }
}

/** The origin `value` names, lower case, or undefined when it is not exactly an origin. */
function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    if (!/^https?:$/.test(url.protocol) || url.origin === 'null') return undefined;
    // Only scheme, host and port: `https://a.example/` (a trailing slash) is the same origin.
    return value.replace(/\/$/, '').toLowerCase() === url.origin.toLowerCase()
      ? url.origin.toLowerCase()
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CORS on Node `req`/`res`: answers a preflight (true), or sets the tags of a listed origin on
 * `res` (the answer written after keeps them) and returns false.
 */
export function corsOnNode(
  policy: CorsPolicy | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (!policy) return false;
  const origin = req.headers.origin;
  if (
    CorsPolicy.isPreflight(req.method, req.headers['access-control-request-method'] as string | undefined)
  ) {
    const answer = policy.preflight(
      origin,
      req.headers['access-control-request-headers'] as string | undefined,
    );
    res.writeHead(answer.status, answer.headers).end(answer.body);
    return true;
  }
  for (const [name, value] of Object.entries(policy.tags(origin) ?? {})) res.setHeader(name, value);
  return false;
}

/** CORS on a web `Request`: a preflight answered here, any other answer (`next`) tagged for a listed origin. */
export async function corsOnWeb(
  policy: CorsPolicy | undefined,
  request: Request,
  next: () => Promise<Response>,
): Promise<Response> {
  if (!policy) return next();
  const origin = request.headers.get('origin');
  if (CorsPolicy.isPreflight(request.method, request.headers.get('access-control-request-method'))) {
    const answer = policy.preflight(origin, request.headers.get('access-control-request-headers'));
    return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
  }
  const response = await next();
  const tags = policy.tags(origin);
  if (!tags) return response;
  return withHeaders(response, tags);
}

/** `response` with `headers` set; a response whose headers are immutable is rebuilt around its body. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
