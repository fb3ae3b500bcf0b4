/**
 * The legacy HTTP+SSE transport on Node `req`/`res`, using the SDK's frozen v1 SSE transport.
 * Each SSE connection gets its own SDK instance, so subscriptions and log levels are per
 * connection.
 */
import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/server';
import { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';
import type { Connections } from '../connections.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from '../limits.js';
import type { ProtocolInstance } from '../protocol-server.js';
import { type HostGuardOptions, hostGuardRejection } from './host-guard.js';
import { sendJsonRpcError } from './node-http.js';
import type { AuthenticatedRequest } from './streamable-http.js';

export interface SseOptions extends HostGuardOptions {
  url: URL;
  ssePath: string;
  messagePath: string;
  req: AuthenticatedRequest;
  res: ServerResponse;
}

export class SseEndpoint {
  private readonly transports = new Map<
    string,
    { transport: SSEServerTransport; instance: ProtocolInstance }
  >();
  latestTransport: SSEServerTransport | undefined;

  constructor(
    private readonly createInstance: () => ProtocolInstance,
    private readonly connections: Connections,
    private readonly onerror: (error: Error) => void,
    private readonly limits: ResolvedLimits = DEFAULT_LIMITS,
  ) {}

  async handle({
    url,
    ssePath,
    messagePath,
    req,
    res,
    allowedHosts,
    allowedOrigins,
  }: SseOptions): Promise<void> {
    const rejection = hostGuardRejection(req, {
      ...(allowedHosts ? { allowedHosts } : {}),
      ...(allowedOrigins ? { allowedOrigins } : {}),
    });
    if (rejection) {
      sendJsonRpcError(res, 403, -32000, `Forbidden: ${rejection}`);
      return;
    }
    if (url.pathname === ssePath && req.method === 'GET') {
      await this.open(messagePath, res);
      return;
    }
    if (url.pathname === messagePath && req.method === 'POST') {
      const sessionId = url.searchParams.get('sessionId') ?? '';
      const entry = this.transports.get(sessionId);
      if (!entry) {
        sendJsonRpcError(res, 404, -32001, `SSE session not found: '${sessionId}' is unknown or closed`);
        return;
      }
      await entry.transport.handlePostMessage(req, res, req.body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }

  private async open(messagePath: string, res: ServerResponse): Promise<void> {
    const transport = new SSEServerTransport(messagePath, res);
    const instance = this.createInstance();
    const untrack = this.connections.track({ ...instance, era: 'legacy', sessionId: transport.sessionId });
    this.transports.set(transport.sessionId, { transport, instance });
    this.latestTransport = transport;
    const cleanup = () => {
      if (!this.transports.delete(transport.sessionId)) return;
      untrack();
      void instance.server.close().catch(this.onerror);
    };
    transport.onclose = cleanup;
    res.on('close', cleanup);
    // The frozen transport types against its own copy of the core package; the shape is the same.
    await instance.server.connect(transport as unknown as Transport);
  }

  async close(): Promise<void> {
    const entries = [...this.transports.values()];
    this.transports.clear();
    await Promise.allSettled(entries.map(({ instance }) => instance.server.close()));
  }
}
