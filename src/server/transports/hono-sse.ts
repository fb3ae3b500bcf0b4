/**
 * The legacy HTTP+SSE endpoint on Hono (the transport is hono-sse-transport.ts): routes GET to a
 * `streamSSE` stream and POSTed messages to their session. Works inside a Hono app (pass its
 * context) or on Node `req`/`res` through `@hono/node-server`; either way the Host/Origin guard
 * applies and a message body is read within `limits` (node-http.ts) before it is parsed. MCPServer
 * imports this module on the first `startHonoSSE()`, so Hono loads only for servers that use it.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { type Context, Hono } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import { principalOf } from '../auth/principal.js';
import type { Connections } from '../connections.js';
import { quoted } from '../issues.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from '../limits.js';
import type { ProtocolInstance } from '../protocol-server.js';
import { capacityMessage, overCapacityResponse } from './capacity.js';
import { SSETransport } from './hono-sse-transport.js';
import { admitRequest, admitWebRequest, type HostGuardOptions } from './host-guard.js';
import {
  answeringFailures,
  jsonRpcErrorResponse,
  messageProblem,
  readJsonBody,
  readWebJsonBody,
  sendJsonRpcError,
} from './node-http.js';
import { RequestGate } from './request-gate.js';
import { mayUseSession, type SessionOwner } from './session-owner.js';

export interface HonoSSETransportOptions extends HostGuardOptions {
  url: URL;
  ssePath: string;
  messagePath: string;
  context: Context;
  authInfo?: AuthInfo | undefined;
}

/** `startHonoSSE` on Node `req`/`res`: the same routes, without a Hono app of the caller's. */
export interface HonoSseNodeOptions extends HostGuardOptions {
  url: URL;
  ssePath: string;
  messagePath: string;
  req: IncomingMessage;
  res: ServerResponse;
  authInfo?: AuthInfo | undefined;
}

/** The local address of a Hono request: known on @hono/node-server only. */
function localAddressOf(context: Context): string | undefined {
  const incoming = (context.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage ? (incoming.socket?.localAddress ?? '') : undefined;
}

export class HonoSseEndpoint {
  private readonly transports = new Map<string, { transport: SSETransport; owner: SessionOwner }>();
  latestTransport: SSETransport | undefined;

  constructor(
    private readonly createInstance: () => ProtocolInstance,
    private readonly connections: Connections,
    private readonly onerror: (error: Error) => void,
    private readonly limits: ResolvedLimits = DEFAULT_LIMITS,
  ) {}

  /** Inside a Hono route: DNS-rebinding guard, the SSE stream, bounded message POSTs. */
  async handle(options: HonoSSETransportOptions): Promise<Response> {
    const { url, ssePath, messagePath, context, authInfo } = options;
    const refused = await admitWebRequest(context.req.raw, options, this.limits, localAddressOf(context));
    if (refused) return refused;
    if (url.pathname === ssePath && context.req.method === 'GET') {
      const { maxSseConnections } = this.limits;
      if (this.transports.size >= maxSseConnections) {
        return overCapacityResponse(
          capacityMessage(maxSseConnections, 'HTTP+SSE connections', 'maxSseConnections'),
        );
      }
      // On Node (@hono/node-server) the response under the stream, so an overflow ends the socket too.
      const outgoing = (context.env as { outgoing?: unknown } | undefined)?.outgoing;
      const destroy = outgoing instanceof ServerResponse ? () => outgoing.destroy() : undefined;
      return streamSSE(context, (stream) => this.serve(messagePath, stream, principalOf(authInfo), destroy));
    }
    if (url.pathname === messagePath && context.req.method === 'POST') {
      const transport = this.session(url, authInfo);
      if (!transport.ok) return jsonRpcErrorResponse(404, -32001, transport.message);
      const outcome = await readWebJsonBody(context.req.raw, this.limits);
      if (!outcome.ok) return outcome.response;
      const delivered = this.deliver(transport.transport, outcome.body, authInfo);
      return delivered
        ? jsonRpcErrorResponse(400, -32600, delivered)
        : new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain' } });
    }
    return context.text('Not found', 404);
  }

  /**
   * On Node `req`/`res`: message POSTs are read here with the Node body reader; the stream (and
   * any other request) goes through Hono. Never rejects: a failure is logged and answered 500.
   */
  async handleNode(options: HonoSseNodeOptions): Promise<void> {
    const { url, messagePath, req, res, authInfo } = options;
    await answeringFailures(res, this.onerror, async () => {
      if (!(await admitRequest(req, res, options, this.limits))) return;
      if (url.pathname !== messagePath || req.method !== 'POST') {
        const app = new Hono();
        app.all('*', (context) => this.handle({ ...options, context }));
        await getRequestListener(app.fetch)(req, res);
        return;
      }
      const transport = this.session(url, authInfo);
      if (!transport.ok) {
        sendJsonRpcError(res, 404, -32001, transport.message);
        return;
      }
      const outcome = await readJsonBody(req, res, this.limits);
      if (!outcome.ok) return;
      const problem = this.deliver(transport.transport, outcome.body, authInfo);
      if (problem) sendJsonRpcError(res, 400, -32600, problem);
      else res.writeHead(202, { 'content-type': 'text/plain' }).end('Accepted');
    });
  }

  /** The connection a message POST names, if `authInfo` is who opened it: else as for an unknown one. */
  private session(
    url: URL,
    authInfo: AuthInfo | undefined,
  ): { ok: true; transport: SSETransport } | { ok: false; message: string } {
    const sessionId = url.searchParams.get('sessionId') ?? '';
    const entry = this.transports.get(sessionId);
    return entry && mayUseSession(entry.owner, authInfo)
      ? { ok: true, transport: entry.transport }
      : { ok: false, message: `SSE session not found: ${quoted(sessionId)} is unknown or closed` };
  }

  /** Hands one message to its session; returns why it is not a JSON-RPC message, if it is not. */
  private deliver(
    transport: SSETransport,
    body: unknown,
    authInfo: AuthInfo | undefined,
  ): string | undefined {
    const problem = messageProblem(body);
    if (!problem) transport.handleMessage(body, authInfo);
    return problem;
  }

  /** Lives as long as the SSE stream: resolves when the client goes away or the server closes. */
  private async serve(
    messagePath: string,
    stream: SSEStreamingApi,
    owner: SessionOwner,
    destroy?: () => void,
  ): Promise<void> {
    const transport = new SSETransport(messagePath, stream, {
      maxBufferBytes: this.limits.maxStreamBufferBytes,
      writeTimeoutMs: this.limits.streamWriteTimeoutMs,
      onerror: this.onerror,
      ...(destroy ? { destroy } : {}),
    });
    const instance = this.createInstance();
    const untrack = this.connections.track({ ...instance, era: 'legacy', sessionId: transport.sessionId });
    this.transports.set(transport.sessionId, { transport, owner });
    this.latestTransport = transport;
    const gate = new RequestGate(transport, this.limits.maxConcurrentRequests);
    const ended = new Promise<void>((resolve) => {
      gate.onclose = resolve;
      stream.onAbort(resolve);
    });
    await instance.server.connect(gate);
    await ended;
    this.transports.delete(transport.sessionId);
    untrack();
    await instance.server.close().catch(this.onerror);
  }

  async close(): Promise<void> {
    const entries = [...this.transports.values()];
    this.transports.clear();
    await Promise.allSettled(entries.map(({ transport }) => transport.close()));
  }
}
