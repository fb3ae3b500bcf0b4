/**
 * One Streamable HTTP endpoint serving both protocol eras. A 2026-07-28 request (it carries the
 * per-request `_meta` envelope) goes to the SDK's stateless `createMcpHandler`; a legacy request
 * goes to a per-session `NodeStreamableHTTPServerTransport` (or a per-request stateless one in
 * serverless mode). The session options therefore govern legacy clients only.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MCPServerHTTPOptions } from '@mastra/core/mcp';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpHttpHandler,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { MCP_INSTANCE_ID_HEADER } from '../../shared/instance-header.js';
import { lazyModule } from '../../shared/lazy-module.js';
import { principalOf } from '../auth/principal.js';
import type { Connections, LiveConnection } from '../connections.js';
import { boundedErrorResponse } from '../error-echo.js';
import { describeIssues, quoted } from '../issues.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from '../limits.js';
import type { ElicitationMode, InstanceScope, ProtocolInstance } from '../protocol-server.js';
import { protocolErrorIn } from '../request-errors.js';
import { type TaskListenHost, type TaskListenRequest, taskListenRequest } from '../tasks/listen.js';
import type { MCPStoredTask } from '../tasks/types.js';
import type { StreamableHTTPServerTransportOptions } from '../types.js';
import { capacityMessage, sendOverCapacity } from './capacity.js';
import { admitRequest } from './host-guard.js';
import { LegacySessions, SessionActivity } from './legacy-sessions.js';
import { answeringFailures, readJsonBody, requestIdOf, sendJsonRpcError } from './node-http.js';
import { RequestGate } from './request-gate.js';
import { sessionEventStore } from './session-event-store.js';
import { SessionStream } from './session-stream.js';
import { guardResponse, type ResponseGuard } from './stream-guard.js';
import { TaskListenStreams } from './task-listen-http.js';
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
  /** The server's tasks, when it serves the Tasks extension: listen streams may follow tasks. */
  tasks?: TaskListenHost;
}

type ModernMode = 'stateful' | 'serverless-json' | 'serverless-sse';

/** 2026-07-28 requests whose answer is a stream that stays open: counted against `limits.maxOpenStreams`. */
const OPEN_STREAM_METHODS = new Set(['subscriptions/listen', 'events/stream']);

type RequestId = string | number | null;

/** Longest `MCP-Protocol-Version` header a legacy request is served with (revisions are dates). */
const MAX_VERSION_HEADER = 64;

function requestOf(body: unknown): { method?: unknown; id?: RequestId } {
  return typeof body === 'object' && body !== null ? (body as { method?: unknown; id?: RequestId }) : {};
}

/**
 * The SDK's Node transport (and the Hono server under it) is not loaded with the package: an
 * endpoint starts loading it when built, and a legacy request uses it without waiting once it is
 * there. Waiting costs the request a turn of the event loop, and a client that half-closed after
 * its body loses a reply Node's http server has not started by then (it ends such a socket).
 */
const loadNodeTransport = lazyModule(() => import('./sdk-node-transport.js'));

export class StreamableHttpEndpoint {
  private readonly sessions: LegacySessions;
  private readonly modern = new Map<ModernMode, McpHttpHandler>();
  /** The transport of the most recent legacy session, for `getStreamableHTTPTransport()`. */
  latestTransport: NodeStreamableHTTPServerTransport | undefined;
  private openStreams = 0;
  private readonly limits: ResolvedLimits;
  private readonly taskStreams: TaskListenStreams | undefined;

  constructor(private readonly deps: HttpEndpointDeps) {
    this.limits = deps.limits ?? DEFAULT_LIMITS;
    this.taskStreams = deps.tasks ? new TaskListenStreams(deps.tasks, deps.onerror) : undefined;
    this.sessions = new LegacySessions(this.limits.maxSessions);
    // A failed load is reported by the first legacy request that needs the module.
    loadNodeTransport().catch(() => {});
  }

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
    await answeringFailures(res, this.deps.onerror, () =>
      this.handle(req as AuthenticatedRequest, res, transportOptions),
    );
  }

  async handle(
    req: AuthenticatedRequest,
    res: ServerResponse,
    options: StreamableHTTPServerTransportOptions,
  ): Promise<void> {
    if (this.deps.instanceId) res.setHeader(MCP_INSTANCE_ID_HEADER, this.deps.instanceId);
    const target = await admitRequest(req, res, options, this.limits);
    if (!target) return;
    let body: unknown;
    if (req.method === 'POST') {
      const outcome = await readJsonBody(req, res, this.limits);
      if (!outcome.ok) return;
      body = outcome.body;
    }
    const request = bodylessRequest(target, req, res);
    const legacy = await isLegacyRequest(request, body);
    const { method, id = null } = requestOf(body);
    const guard = guardResponse(res, {
      limit: this.limits.maxStreamBufferBytes,
      timeoutMs: this.limits.streamWriteTimeoutMs,
      name: () =>
        legacy
          ? `Streamable HTTP ${req.method} stream of legacy session '${req.headers['mcp-session-id'] ?? '(new)'}'`
          : `Streamable HTTP '${String(method)}' stream (request id ${JSON.stringify(id)})`,
      onerror: this.deps.onerror,
    });
    if (legacy) {
      await this.handleLegacy(req, res, body, options, guard);
      return;
    }
    if (OPEN_STREAM_METHODS.has(method as string) && !this.openStream(res, method as string, id)) return;
    try {
      const authInfo = req.auth;
      const listen = await this.taskListen(req, res, body);
      if (listen === false) return;
      const response = await this.modernHandler(options).fetch(request, {
        parsedBody: listen ? listen.request.rest : body,
        ...(authInfo ? { authInfo } : {}),
      });
      const followed =
        listen && listen.tasks.length > 0 && this.taskStreams
          ? this.taskStreams.merge(response, listen.request.id, listen.tasks)
          : response.ok
            ? response
            : await boundedRefusal(response);
      await sendWebResponse(followed, res, guard);
    } catch (error) {
      this.deps.onerror(error instanceof Error ? error : new Error(String(error)));
      sendJsonRpcError(res, 500, -32603, 'Internal error');
    }
  }

  /**
   * A listen request naming tasks: the tasks its stream follows (the caller's) and the request
   * the SDK serves without them; false once refused (-32021 undeclared, -32602 malformed or too many).
   */
  private async taskListen(
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
  ): Promise<{ request: TaskListenRequest; tasks: MCPStoredTask[] } | undefined | false> {
    const streams = this.taskStreams;
    if (!streams) return undefined;
    try {
      const request = taskListenRequest(body);
      return request && { request, tasks: await streams.host.listenable(request, req.auth) };
    } catch (error) {
      const refused = protocolErrorIn(error);
      if (!refused) throw error;
      sendJsonRpcError(res, 200, refused.code, refused.message, requestIdOf(body), refused.data);
      return false;
    }
  }

  /** Counts a listen or events stream until its response closes, however it ends; 503 beyond the cap. */
  private openStream(res: ServerResponse, method: string, id: RequestId): boolean {
    const { maxOpenStreams } = this.limits;
    if (this.openStreams >= maxOpenStreams) {
      const streams = "'subscriptions/listen' and 'events/stream' streams";
      sendOverCapacity(
        res,
        `'${method}' refused. ${capacityMessage(maxOpenStreams, streams, 'maxOpenStreams')}`,
        id,
      );
      return false;
    }
    this.openStreams++;
    res.once('close', () => {
      this.openStreams--;
    });
    return true;
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
          // Our own count (openStream) refuses first, with a clear error; never the SDK's.
          maxSubscriptions: this.limits.maxOpenStreams,
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
    guard: ResponseGuard,
  ): Promise<void> {
    // The SDK's transport refuses an unknown revision repeating the header whole (up to Node's
    // 16 KiB of headers); no revision name is anywhere near this long.
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && version.length > MAX_VERSION_HEADER) {
      sendJsonRpcError(res, 400, -32000, `Bad Request: Unsupported protocol version: ${quoted(version)}`);
      return;
    }
    const stateless = options.serverless || ('sessionIdGenerator' in options && !options.sessionIdGenerator);
    if (stateless) {
      await this.handleStateless(req, res, body, options);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      // Another principal's session answers exactly as an unknown one: its id reveals nothing.
      const session = this.sessions.find(sessionId, req.auth);
      if (!session) {
        sendJsonRpcError(
          res,
          404,
          -32001,
          `Session not found: ${quoted(sessionId)} is unknown or has expired`,
        );
        return;
      }
      session.activity.during(res);
      if (req.method === 'GET') session.stream.open(res, guard);
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      const invalid = req.method === 'POST' ? invalidInitialize(body) : undefined;
      if (invalid) sendJsonRpcError(res, 400, -32602, invalid.message, invalid.id);
      else
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
    const { NodeStreamableHTTPServerTransport } = loadNodeTransport.loaded ?? (await loadNodeTransport());
    const { maxSessions, sessionIdleTimeoutMs, maxConcurrentRequests } = this.limits;
    if (!this.sessions.reserve()) {
      const message = capacityMessage(maxSessions, 'legacy sessions', 'maxSessions');
      sendOverCapacity(res, message, requestIdOf(body));
      return;
    }
    const owner = principalOf(req.auth);
    const instance = this.deps.createInstance('legacy');
    const connection: LiveConnection = { ...instance, era: 'legacy' };
    const activity = new SessionActivity(sessionIdleTimeoutMs);
    const untrack = this.deps.connections.track(connection);
    const release = () => {
      untrack();
      void instance.server.close().catch(this.deps.onerror);
    };
    let opened = false;
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: options.sessionIdGenerator ?? randomUUID,
      enableJsonResponse: options.enableJsonResponse ?? false,
      ...(options.eventStore
        ? { eventStore: sessionEventStore(options.eventStore, () => transport.sessionId, this.deps.onerror) }
        : {}),
      onsessioninitialized: (id) => {
        opened = true;
        connection.sessionId = id;
        this.sessions.add(id, session);
        options.onsessioninitialized?.(id);
      },
      onsessionclosed: (id) => this.sessions.drop(id, session),
    });
    const stream = new SessionStream(transport);
    const session = { transport, owner, activity, stream, release };
    const gate = new RequestGate(transport, maxConcurrentRequests, activity, (message, sendOptions) =>
      stream.sending(message, sendOptions),
    );
    gate.onclose = () => {
      if (transport.sessionId) this.sessions.drop(transport.sessionId, session);
    };
    this.latestTransport = transport;
    activity.during(res);
    try {
      await instance.server.connect(gate);
      await transport.handleRequest(req, res, body);
    } finally {
      // Refused by the transport (wrong Accept, bad version, ...) before it became a session.
      if (!opened) {
        this.sessions.unreserve();
        release();
      }
    }
  }

  private async handleStateless(
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    options: StreamableHTTPServerTransportOptions,
  ): Promise<void> {
    const { NodeStreamableHTTPServerTransport } = loadNodeTransport.loaded ?? (await loadNodeTransport());
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
    await instance.server.connect(new RequestGate(transport, this.limits.maxConcurrentRequests));
    await transport.handleRequest(req, res, body);
  }

  async close(): Promise<void> {
    this.taskStreams?.closeAll();
    this.sessions.dropAll();
    await Promise.allSettled([...this.modern.values()].map((handler) => handler.close()));
    this.modern.clear();
  }
}

/**
 * A refusal the SDK's handler answered before any server ran (HTTP 4xx: a header/body mismatch, a
 * malformed envelope), its echoed values bounded. Such answers are small JSON, read whole.
 */
async function boundedRefusal(response: Response): Promise<Response> {
  if (!response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(boundedErrorResponse(reply)), { status: response.status, headers });
}

/** An `initialize` request whose params the SDK's schema rejects: the -32602 naming the fields. */
function invalidInitialize(body: unknown): { message: string; id: string | number | null } | undefined {
  if (typeof body !== 'object' || body === null || (body as { method?: unknown }).method !== 'initialize')
    return undefined;
  const outcome = specTypeSchemas.InitializeRequest['~standard'].validate(body);
  if (outcome instanceof Promise || !outcome.issues) return undefined;
  const id = (body as { id?: unknown }).id;
  return {
    message: `Invalid params for initialize: ${describeIssues([...outcome.issues])}`,
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
  };
}
