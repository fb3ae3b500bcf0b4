/**
 * One Streamable HTTP endpoint serving both protocol eras. A 2026-07-28 request (it carries the
 * per-request `_meta` envelope) goes to the SDK's stateless `createMcpHandler`; a legacy request
 * goes to a per-session `NodeStreamableHTTPServerTransport` (or a per-request stateless one in
 * serverless mode). The session options therefore govern legacy clients only.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MCPServerHTTPOptions } from '@mastra/core/mcp';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import { MCP_INSTANCE_ID_HEADER } from '../../shared/instance-header.js';
import type { Connections, LiveConnection } from '../connections.js';
import type { ResolvedLimits } from '../limits.js';
import type { ElicitationMode, InstanceScope, ProtocolInstance } from '../protocol-server.js';
import type { StreamableHTTPServerTransportOptions } from '../types.js';
import { hostGuardRejection } from './host-guard.js';
import { readJsonBody, sendJsonRpcError } from './node-http.js';
import { sessionEventStore } from './session-event-store.js';
import { bodylessRequest, sendWebResponse } from './web-bridge.js';

export type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo; body?: unknown };

export interface HttpEndpointDeps {
  createInstance(mode: ElicitationMode, scope?: InstanceScope): ProtocolInstance;
  connections: Connections;
  onerror(error: Error): void;
  /** The server's `limits` (the proxy gateway has none of its own: the defaults). */
  limits?: ResolvedLimits;
  /** Set with the `requestState` option: every response names this instance (sticky retries). */
  instanceId?: string;
}

interface LegacySession {
  transport: NodeStreamableHTTPServerTransport;
  untrack: () => void;
  server: Server;
}

type ModernMode = 'stateful' | 'serverless-json' | 'serverless-sse';

export class StreamableHttpEndpoint {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly modern = new Map<ModernMode, McpHttpHandler>();
  /** The transport of the most recent legacy session, for `getStreamableHTTPTransport()`. */
  latestTransport: NodeStreamableHTTPServerTransport | undefined;

  constructor(private readonly deps: HttpEndpointDeps) {}

  /**
   * `startHTTP()`: 404 off `httpPath`; without transport options legacy clients get sessions
   * (random ids).
   */
  async serve({ url, httpPath, req, res, options }: MCPServerHTTPOptions): Promise<void> {
    if (url.pathname !== httpPath) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const transportOptions: StreamableHTTPServerTransportOptions = options ?? {
      sessionIdGenerator: randomUUID,
    };
    await this.handle(req as AuthenticatedRequest, res, transportOptions);
  }

  async handle(
    req: AuthenticatedRequest,
    res: ServerResponse,
    options: StreamableHTTPServerTransportOptions,
  ): Promise<void> {
    if (this.deps.instanceId) res.setHeader(MCP_INSTANCE_ID_HEADER, this.deps.instanceId);
    const rejection = hostGuardRejection(req, options);
    if (rejection) {
      sendJsonRpcError(res, 403, -32000, `Forbidden: ${rejection}`);
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      const outcome = await readJsonBody(req, res);
      if (!outcome.ok) return;
      body = outcome.body;
    }
    const request = bodylessRequest(req, res);
    if (await isLegacyRequest(request, body)) {
      await this.handleLegacy(req, res, body, options);
      return;
    }
    try {
      const authInfo = req.auth;
      const response = await this.modernHandler(options).fetch(request, {
        parsedBody: body,
        ...(authInfo ? { authInfo } : {}),
      });
      await sendWebResponse(response, res);
    } catch (error) {
      this.deps.onerror(error instanceof Error ? error : new Error(String(error)));
      sendJsonRpcError(res, 500, -32603, 'Internal error');
    }
  }

  private modernHandler(options: StreamableHTTPServerTransportOptions) {
    const mode: ModernMode = options.serverless
      ? options.serverlessStreaming
        ? 'serverless-sse'
        : 'serverless-json'
      : 'stateful';
    let handler = this.modern.get(mode);
    if (!handler) {
      handler = createMcpHandler(
        () =>
          this.deps.createInstance(mode === 'stateful' ? 'modern' : 'serverless', {
            jsonOnly: mode === 'serverless-json',
          }).server,
        {
          legacy: 'reject',
          responseMode: mode === 'serverless-json' ? 'json' : mode === 'serverless-sse' ? 'sse' : 'auto',
          onerror: this.deps.onerror,
        },
      );
      if (mode === 'stateful') this.deps.connections.addNotifier(handler.notify);
      this.modern.set(mode, handler);
    }
    return handler;
  }

  private async handleLegacy(
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    options: StreamableHTTPServerTransportOptions,
  ): Promise<void> {
    const stateless = options.serverless || ('sessionIdGenerator' in options && !options.sessionIdGenerator);
    if (stateless) {
      await this.handleStateless(req, res, body, options);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) {
        sendJsonRpcError(res, 404, -32001, `Session not found: '${sessionId}' is unknown or has expired`);
        return;
      }
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      sendJsonRpcError(
        res,
        400,
        -32000,
        'Bad Request: no session id; a legacy client must start with initialize',
      );
      return;
    }
    await this.openSession(req, res, body, options);
  }

  private async openSession(
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    options: StreamableHTTPServerTransportOptions,
  ): Promise<void> {
    const instance = this.deps.createInstance('legacy');
    const connection: LiveConnection = { ...instance, era: 'legacy' };
    let untrack: () => void = () => {};
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: options.sessionIdGenerator ?? randomUUID,
      enableJsonResponse: options.enableJsonResponse ?? false,
      ...(options.eventStore
        ? { eventStore: sessionEventStore(options.eventStore, () => transport.sessionId, this.deps.onerror) }
        : {}),
      onsessioninitialized: (id) => {
        connection.sessionId = id;
        this.sessions.set(id, { transport, untrack, server: instance.server });
        options.onsessioninitialized?.(id);
      },
      onsessionclosed: (id) => this.dropSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.dropSession(transport.sessionId);
      else untrack();
    };
    untrack = this.deps.connections.track(connection);
    this.latestTransport = transport;
    await instance.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private dropSession(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.untrack();
    void session.server.close().catch(this.deps.onerror);
  }

  private async handleStateless(
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    options: StreamableHTTPServerTransportOptions,
  ): Promise<void> {
    const instance = this.deps.createInstance('serverless', { legacy: true });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: options.serverless
        ? !options.serverlessStreaming
        : (options.enableJsonResponse ?? false),
    });
    res.on('close', () => {
      void instance.server.close().catch(this.deps.onerror);
    });
    await instance.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async close(): Promise<void> {
    const sessions = [...this.sessions.keys()];
    for (const id of sessions) this.dropSession(id);
    await Promise.allSettled([...this.modern.values()].map((handler) => handler.close()));
    this.modern.clear();
  }
}
