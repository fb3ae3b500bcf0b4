/**
 * The legacy HTTP+SSE transport on Node `req`/`res`, using the SDK's frozen v1 SSE transport.
 * Each SSE connection gets its own SDK instance, so subscriptions and log levels are per
 * connection. That transport's package (`@modelcontextprotocol/server-legacy`, deprecated) is
 * imported on the first connection, so a server that never serves legacy SSE never loads it.
 */
import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/server';
import type { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';
import { lazyModule } from '../../shared/lazy-module.js';
import { principalOf } from '../auth/principal.js';
import type { Connections } from '../connections.js';
import { quoted } from '../issues.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from '../limits.js';
import type { ProtocolInstance } from '../protocol-server.js';
import { capacityMessage, sendOverCapacity } from './capacity.js';
import { admitRequest, type HostGuardOptions } from './host-guard.js';
import { answeringFailures, messageProblem, readJsonBody, sendJsonRpcError } from './node-http.js';
import { RequestGate } from './request-gate.js';
import { mayUseSession, type SessionOwner } from './session-owner.js';
import { guardResponse } from './stream-guard.js';
import type { AuthenticatedRequest } from './streamable-http.js';

const loadLegacySse = lazyModule(() => import('./sdk-legacy-sse.js'));

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
    { transport: SSEServerTransport; instance: ProtocolInstance; owner: SessionOwner }
  >();
  latestTransport: SSEServerTransport | undefined;

  constructor(
    private readonly createInstance: () => ProtocolInstance,
    private readonly connections: Connections,
    private readonly onerror: (error: Error) => void,
    private readonly limits: ResolvedLimits = DEFAULT_LIMITS,
  ) {}

  /** Answers one request; never rejects (a failure is logged and answered 500). */
  async handle(options: SseOptions): Promise<void> {
    await answeringFailures(options.res, this.onerror, () => this.route(options));
  }

  private async route(options: SseOptions) {
    const { url, ssePath, messagePath, req, res } = options;
    if (!(await admitRequest(req, res, options, this.limits))) return;
    if (url.pathname === ssePath && req.method === 'GET') {
      await this.open(messagePath, req, res);
      return;
    }
    if (url.pathname === messagePath && req.method === 'POST') {
      const sessionId = url.searchParams.get('sessionId') ?? '';
      const entry = this.transports.get(sessionId);
      // Another principal's connection answers exactly as an unknown one.
      if (!entry || !mayUseSession(entry.owner, req.auth)) {
        sendJsonRpcError(
          res,
          404,
          -32001,
          `SSE session not found: ${quoted(sessionId)} is unknown or closed`,
        );
        return;
      }
      // Read here, not by the frozen transport: it answers 400 over its own 4 MB, has no time
      // limit, and quotes a body it cannot parse in its reply.
      const outcome = await readJsonBody(req, res, this.limits);
      if (!outcome.ok) return;
      const problem = messageProblem(outcome.body);
      if (problem) {
        sendJsonRpcError(res, 400, -32600, problem);
        return;
      }
      await entry.transport.handlePostMessage(req, res, outcome.body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }

  private async open(messagePath: string, req: AuthenticatedRequest, res: ServerResponse): Promise<void> {
    // Loaded before the capacity check, so no other open interleaves between the check and the set.
    const { SSEServerTransport } = await loadLegacySse();
    // The peer may have gone while the first load ran: 'close' would then never fire for cleanup.
    if (res.destroyed) return;
    const { maxSseConnections, maxConcurrentRequests } = this.limits;
    if (this.transports.size >= maxSseConnections) {
      sendOverCapacity(res, capacityMessage(maxSseConnections, 'HTTP+SSE connections', 'maxSseConnections'));
      return;
    }
    const transport = new SSEServerTransport(messagePath, res);
    // The frozen transport writes without looking at backpressure: bound what `res` holds.
    guardResponse(res, {
      limit: this.limits.maxStreamBufferBytes,
      timeoutMs: this.limits.streamWriteTimeoutMs,
      name: () => `legacy SSE session '${transport.sessionId}'`,
      onerror: this.onerror,
    });
    const instance = this.createInstance();
    const untrack = this.connections.track({ ...instance, era: 'legacy', sessionId: transport.sessionId });
    this.transports.set(transport.sessionId, { transport, instance, owner: principalOf(req.auth) });
    this.latestTransport = transport;
    const cleanup = () => {
      if (!this.transports.delete(transport.sessionId)) return;
      untrack();
      void instance.server.close().catch(this.onerror);
    };
    // The frozen transport types against its own copy of the core package; the shape is the same.
    const gate = new RequestGate(transport as unknown as Transport, maxConcurrentRequests);
    gate.onclose = cleanup;
    res.on('close', cleanup);
    await instance.server.connect(gate);
  }

  async close(): Promise<void> {
    const entries = [...this.transports.values()];
    this.transports.clear();
    await Promise.allSettled(entries.map(({ instance }) => instance.server.close()));
  }
}
