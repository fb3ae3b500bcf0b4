/**
 * `server.listen()`: a `node:http` server of the MCPServer's own, on `host:port` (127.0.0.1 unless
 * told otherwise): Streamable HTTP for both eras at the `path`, legacy HTTP+SSE at `/sse` and
 * `/messages`, and `GET /health`, with CORS and OAuth in front as the options say (the server's
 * `http` option first, `listen()`'s own on top) and the same host guard and limits as `startHTTP`.
 * `/health` answers before any of them: a load balancer's probe names no public host. `close()`
 * stops accepting, ends the streams that never end by themselves (GET streams, 2026-07-28 listen
 * and events streams), and gives requests in flight `closeTimeoutMs` before closing their
 * connections.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { IMastraLogger } from '@mastra/core/logger';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { writeOAuthAnswer } from '../auth/oauth-middleware.js';
import type { MCPServerHttpConfig, MCPServerListener, MCPServerListenOptions } from '../types.js';
import { corsOnNode } from './cors.js';
import { resolveHttpServing } from './http-serving.js';
import { answeringFailures, sendJsonRpcError } from './node-http.js';
import { requestUrl } from './request-target.js';
import type { SseEndpoint } from './sse.js';
import type { AuthenticatedRequest, StreamableHttpEndpoint } from './streamable-http.js';

export const SSE_PATH = '/sse';
export const MESSAGE_PATH = '/messages';
const HEALTH_PATH = '/health';
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_CLOSE_TIMEOUT_MS = 5000;
/** 2026-07-28 requests (named by their `Mcp-Method` header) whose answer is a stream that stays open. */
const STREAM_METHODS = new Set(['subscriptions/listen', 'events/stream']);

export interface ListenDeps {
  serverId: string;
  http: StreamableHttpEndpoint;
  sse: SseEndpoint;
  logger: IMastraLogger;
  onerror(error: Error): void;
}

function invalid(serverId: string, text: string, field: string) {
  return mcpError(MCPErrorCode.SERVER_INVALID_HTTP_OPTION, `MCP server '${serverId}': listen(): ${text}`, {
    serverId,
    field,
  });
}

/** `host` as a URL writes it; an address meaning "every interface" as the loopback one a local client dials. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

function listenError(serverId: string, host: string, port: number, error: NodeJS.ErrnoException) {
  const where = `${host}:${port}`;
  const why =
    error.code === 'EADDRINUSE'
      ? `port ${port} is in use; stop what holds it, pick another port, or pass port: 0 for a free one`
      : error.code === 'EACCES'
        ? `port ${port} needs privileges this process lacks; use a port above 1023`
        : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
          ? `'${host}' is not an address of this machine; use '127.0.0.1' (this machine only) or '0.0.0.0' (every interface)`
          : error.message;
  return mcpError(
    MCPErrorCode.SERVER_LISTEN_FAILED,
    `MCP server '${serverId}' cannot listen on ${where}: ${why}`,
    { serverId, host, port, code: error.code },
    error,
  );
}

export async function listenHttp(
  deps: ListenDeps,
  serverHttp: MCPServerHttpConfig | undefined,
  options: MCPServerListenOptions,
): Promise<MCPServerListener> {
  const { serverId } = deps;
  const {
    port,
    host = DEFAULT_HOST,
    closeTimeoutMs = DEFAULT_CLOSE_TIMEOUT_MS,
    ...httpConfig
  } = { ...serverHttp, ...options };
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw invalid(
      serverId,
      `port must be an integer from 0 to 65535, 0 for a free one (got ${String(port)})`,
      'port',
    );
  }
  if (!(typeof closeTimeoutMs === 'number' && closeTimeoutMs >= 0)) {
    throw invalid(
      serverId,
      `closeTimeoutMs must be a number of milliseconds (got ${String(closeTimeoutMs)})`,
      'closeTimeoutMs',
    );
  }
  const serving = resolveHttpServing(httpConfig, { serverId, where: 'listen(): ', logger: deps.logger }, [
    SSE_PATH,
    MESSAGE_PATH,
  ]);
  const { path, endpointOptions, cors, oauth } = serving;
  if ([SSE_PATH, MESSAGE_PATH, HEALTH_PATH].includes(path)) {
    throw invalid(
      serverId,
      `path '${path}' is taken by legacy SSE or the health check; use another, e.g. '/mcp'`,
      'path',
    );
  }
  const { allowedHosts, allowedOrigins, enableDnsRebindingProtection, corsOrigins } = endpointOptions;
  const guard = { allowedHosts, allowedOrigins, enableDnsRebindingProtection, corsOrigins };

  const route = async (req: AuthenticatedRequest, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req);
    if (!url) {
      sendJsonRpcError(res, 400, -32000, 'Bad Request: the request target is not a path');
      return;
    }
    if (url.pathname === HEALTH_PATH) {
      const ok = req.method === 'GET' || req.method === 'HEAD';
      res
        .writeHead(ok ? 200 : 405, {
          'content-type': 'application/json',
          ...(ok ? {} : { allow: 'GET, HEAD' }),
        })
        .end(ok && req.method === 'GET' ? '{"status":"ok"}' : undefined);
      return;
    }
    if (corsOnNode(cors, req, res)) return;
    if (oauth) {
      const outcome = await oauth(req.method, url.pathname, req.headers.authorization);
      if (!outcome.proceed) {
        writeOAuthAnswer(res, outcome.answer);
        return;
      }
      if (outcome.auth) req.auth = outcome.auth;
    }
    if (url.pathname === path) {
      await deps.http.handle(req, res, endpointOptions);
      return;
    }
    if (url.pathname === SSE_PATH || url.pathname === MESSAGE_PATH) {
      await deps.sse.handle({ url, ssePath: SSE_PATH, messagePath: MESSAGE_PATH, req, res, ...guard });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  };

  /** Requests being answered: true for a stream that stays open until one side ends it. */
  const inFlight = new Map<ServerResponse, boolean>();
  let closing: Promise<void> | undefined;
  const server = http.createServer((req: IncomingMessage, res) => {
    const method = req.headers['mcp-method'];
    inFlight.set(res, req.method === 'GET' || (typeof method === 'string' && STREAM_METHODS.has(method)));
    res.once('close', () => {
      inFlight.delete(res);
      // Once closing, a keep-alive connection is let go as soon as its last answer is out.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    void answeringFailures(res, deps.onerror, () => route(req, res));
  });

  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(listenError(serverId, host, port, error));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  server.on('error', (error) => deps.onerror(error));
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;

  return {
    url: new URL(`http://${urlHost(host)}:${bound}${path}`),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        for (const [res, stream] of inFlight) if (stream) res.destroy();
        const timer = setTimeout(() => server.closeAllConnections(), closeTimeoutMs);
        server.once('close', () => clearTimeout(timer));
      });
      return closing;
    },
  };
}
