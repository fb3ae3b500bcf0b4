/**
 * The legacy HTTP+SSE transport on Hono: a `Transport` that writes with Hono's `streamSSE` and
 * receives POSTed messages from the route handler. Works inside a Hono app (pass its context) or
 * on Node `req`/`res` through `@hono/node-server`.
 */
import { randomUUID } from 'node:crypto';
import {
  type AuthInfo,
  type JSONRPCMessage,
  type MessageExtraInfo,
  parseJSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { Connections } from '../connections.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from '../limits.js';
import type { ProtocolInstance } from '../protocol-server.js';

export class SSETransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private closed = false;

  constructor(
    private readonly messagePath: string,
    private readonly stream: SSEStreamingApi,
  ) {}

  async start(): Promise<void> {
    const separator = this.messagePath.includes('?') ? '&' : '?';
    await this.stream.writeSSE({
      event: 'endpoint',
      data: `${this.messagePath}${separator}sessionId=${encodeURIComponent(this.sessionId)}`,
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error(`SSE session '${this.sessionId}' is closed`);
    await this.stream.writeSSE({ event: 'message', data: JSON.stringify(message) });
  }

  /** Delivers one POSTed message; throws for a body that is not JSON-RPC. */
  handleMessage(body: unknown, authInfo?: AuthInfo): void {
    const message = parseJSONRPCMessage(body);
    this.onmessage?.(message, authInfo ? { authInfo } : undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.stream.close();
    this.onclose?.();
  }
}

export interface HonoSSETransportOptions {
  url: URL;
  ssePath: string;
  messagePath: string;
  context: Context;
  authInfo?: AuthInfo | undefined;
}

export class HonoSseEndpoint {
  private readonly transports = new Map<string, SSETransport>();
  latestTransport: SSETransport | undefined;

  constructor(
    private readonly createInstance: () => ProtocolInstance,
    private readonly connections: Connections,
    private readonly onerror: (error: Error) => void,
    private readonly limits: ResolvedLimits = DEFAULT_LIMITS,
  ) {}

  async handle({ url, ssePath, messagePath, context, authInfo }: HonoSSETransportOptions): Promise<Response> {
    if (url.pathname === ssePath && context.req.method === 'GET') {
      return streamSSE(context, (stream) => this.serve(messagePath, stream));
    }
    if (url.pathname === messagePath && context.req.method === 'POST') {
      const sessionId = context.req.query('sessionId') ?? '';
      const transport = this.transports.get(sessionId);
      if (!transport) return context.text(`SSE session not found: '${sessionId}' is unknown or closed`, 404);
      let body: unknown;
      try {
        body = await context.req.json();
      } catch {
        return context.text('Parse error: the message body is not valid JSON', 400);
      }
      try {
        transport.handleMessage(body, authInfo);
      } catch (error) {
        return context.text(
          `Invalid JSON-RPC message: ${error instanceof Error ? error.message : String(error)}`,
          400,
        );
      }
      return context.text('Accepted', 202);
    }
    return context.text('Not found', 404);
  }

  /** Lives as long as the SSE stream: resolves when the client goes away or the server closes. */
  private async serve(messagePath: string, stream: SSEStreamingApi): Promise<void> {
    const transport = new SSETransport(messagePath, stream);
    const instance = this.createInstance();
    const untrack = this.connections.track({ ...instance, era: 'legacy', sessionId: transport.sessionId });
    this.transports.set(transport.sessionId, transport);
    this.latestTransport = transport;
    const ended = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      stream.onAbort(resolve);
    });
    await instance.server.connect(transport);
    await ended;
    this.transports.delete(transport.sessionId);
    untrack();
    await instance.server.close().catch(this.onerror);
  }

  async close(): Promise<void> {
    const transports = [...this.transports.values()];
    this.transports.clear();
    await Promise.allSettled(transports.map((transport) => transport.close()));
  }
}
