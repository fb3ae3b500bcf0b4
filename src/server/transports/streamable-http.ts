/**
 * One Streamable HTTP endpoint serving both protocol eras, behind two doors: Node's `req`/`res`
 * (`startHTTP`, `listen`) and a web `Request` (`server.fetch`). Each door admits the request (the
 * host guard, the body read within `limits`) and bounds the answer's stream its own way; the rest
 * is one path in web terms. A 2026-07-28 request (it carries the per-request `_meta` envelope) goes
 * to the SDK's stateless `createMcpHandler`; a legacy request to a per-session
 * `WebStandardStreamableHTTPServerTransport` (or a per-request one without a session when serverless
 * or without a session id generator). Each builds protocol instances of the profile it serves
 * (instance-profile.ts). The session options therefore govern legacy clients only.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MCPServerHTTPOptions } from '@mastra/core/mcp';
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpHttpHandler,
  specTypeSchemas,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { asError } from '../../errors.js';
import { MCP_INSTANCE_ID_HEADER } from '../../shared/instance-header.js';
import type { Telemetry } from '../../shared/telemetry/telemetry.js';
import { principalOf } from '../auth/principal.js';
import type { Connections, LiveConnection } from '../connections.js';
import { boundedErrorResponse } from '../error-echo.js';
import {
  type InstanceProfile,
  REQUESTS,
  SESSION,
  SESSIONLESS_REQUEST,
  serverlessRequests,
} from '../instance-profile.js';
import { describeIssues, quoted } from '../issues.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from '../limits.js';
import type { ProtocolInstance } from '../protocol-server.js';
import { protocolErrorIn } from '../request-errors.js';
import { type TaskListenHost, taskListenRequest } from '../tasks/listen.js';
import type { StreamableHTTPServerTransportOptions } from '../types.js';
import { capacityMessage, overCapacityResponse } from './capacity.js';
import { withHeaders } from './cors.js';
import { admitRequest, admitWebRequest, type GuardOptions } from './host-guard.js';
import { LegacySessions, SessionActivity } from './legacy-sessions.js';
import { tracedListen } from './listen-telemetry.js';
import {
  answeringFailures,
  jsonRpcErrorResponse,
  readJsonBody,
  readWebJsonBody,
  requestIdOf,
} from './node-http.js';
import { type InputSchemaOf, paramHeaderRefusal } from './param-headers.js';
import { RequestGate } from './request-gate.js';
import { sessionEventStore } from './session-event-store.js';
import { SessionStream } from './session-stream.js';
import { guardResponse, type QueueingGuard, type StreamGuardOptions } from './stream-guard.js';
import { TaskListenStreams } from './task-listen-http.js';
import { bodylessRequest, sendWebResponse } from './web-bridge.js';
import { WebStreamGuard } from './web-stream-guard.js';

export type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo; body?: unknown };

/** The transport options with the origins the `cors` option lets past the Origin check. */
export type EndpointOptions = StreamableHTTPServerTransportOptions & GuardOptions;

export interface HttpEndpointDeps {
  createInstance(profile: InstanceProfile): ProtocolInstance;
  connections: Connections;
  onerror(error: Error): void;
  /** The server's `limits` (the proxy gateway has none of its own: the defaults). */
  limits?: ResolvedLimits;
  /** Set with the `requestState` option: every response names this instance (sticky retries). */
  instanceId?: string;
  /** The server's tasks, when it serves the Tasks extension: listen streams may follow tasks. */
  tasks?: TaskListenHost;
  /** A tool's published input schema: its `x-mcp-header` parameters are checked against their headers. */
  toolInputSchema?: InputSchemaOf;
  /** MCPServer's OpenTelemetry: `subscriptions/listen` streams get a span and a session measurement. */
  telemetry?: Telemetry;
}

/** 2026-07-28 requests whose answer is a stream that stays open: counted against `limits.maxOpenStreams`. */
const OPEN_STREAM_METHODS = new Set(['subscriptions/listen', 'events/stream']);

/** The methods of Streamable HTTP; anything else (OPTIONS without `cors`, HEAD, PUT) gets 405. */
const METHODS = new Set(['GET', 'POST', 'DELETE']);

type RequestId = string | number | null;

/** Longest `MCP-Protocol-Version` header a legacy request is served with (revisions are dates). */
const MAX_VERSION_HEADER = 64;

function requestOf(body: unknown): { method?: unknown; id?: RequestId } {
  return typeof body === 'object' && body !== null ? (body as { method?: unknown; id?: RequestId }) : {};
}

/** One request as the endpoint serves it, whichever door it came in by. */
interface Exchange {
  /** Method, URL, headers and a signal aborted when the client goes away (a Node request's without its body). */
  request: Request;
  /** A POST's JSON body, read within `limits`. */
  body: unknown;
  authInfo: AuthInfo | undefined;
  options: EndpointOptions;
  /** Bounds the answer's stream; its end is the end of the exchange, however it ends. */
  guard: QueueingGuard;
  /** Known once the body was looked at; names the stream. */
  legacy?: boolean;
}

export class StreamableHttpEndpoint {
  private readonly sessions: LegacySessions;
  /** The SDK's 2026-07-28 handler per profile its options select (REQUESTS, or serverless answered as JSON or SSE). */
  private readonly modern = new Map<InstanceProfile, McpHttpHandler>();
  /** The transport of the most recent legacy session, for `getStreamableHTTPTransport()`. */
  latestTransport: WebStandardStreamableHTTPServerTransport | undefined;
  private openStreams = 0;
  private readonly limits: ResolvedLimits;
  private readonly taskStreams: TaskListenStreams | undefined;

  constructor(private readonly deps: HttpEndpointDeps) {
    this.limits = deps.limits ?? DEFAULT_LIMITS;
    this.taskStreams = deps.tasks ? new TaskListenStreams(deps.tasks, deps.onerror) : undefined;
    this.sessions = new LegacySessions(this.limits.maxSessions);
  }

  /**
   * `startHTTP()`: 404 off `httpPath`; without transport options legacy clients get sessions
   * (random ids).
   */
  async serve(
    { url, httpPath, req, res, options }: MCPServerHTTPOptions,
    corsOrigins?: readonly string[],
  ): Promise<void> {
    if (url.pathname !== httpPath) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const transportOptions: EndpointOptions = {
      ...((options as StreamableHTTPServerTransportOptions | undefined) ?? {
        sessionIdGenerator: randomUUID,
      }),
      ...(corsOrigins ? { corsOrigins } : {}),
    };
    await answeringFailures(res, this.deps.onerror, () =>
      this.handle(req as AuthenticatedRequest, res, transportOptions),
    );
  }

  /** The Node door: the request admitted and its body read here, the answer written to `res` as it comes. */
  async handle(req: AuthenticatedRequest, res: ServerResponse, options: EndpointOptions): Promise<void> {
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
    const exchange = { request, body, authInfo: req.auth, options } as Exchange;
    exchange.guard = guardResponse(res, this.guardOptions(exchange));
    await sendWebResponse(await this.respond(exchange), res, exchange.guard);
  }

  /**
   * The web door (`server.fetch`): the request admitted and its body read here, an SSE answer's
   * body bounded as its reader takes it (web-stream-guard.ts). Never rejects.
   */
  async handleWeb(request: Request, options: EndpointOptions, authInfo?: AuthInfo): Promise<Response> {
    const refused = await admitWebRequest(request, options, this.limits);
    if (refused) return this.named(refused);
    let body: unknown;
    if (request.method === 'POST') {
      const outcome = await readWebJsonBody(request, this.limits);
      if (!outcome.ok) return this.named(outcome.response);
      body = outcome.body;
    }
    const exchange = { request, body, authInfo, options } as Exchange;
    const guard = new WebStreamGuard(this.guardOptions(exchange));
    exchange.guard = guard;
    return this.named(guard.bound(await this.respond(exchange)));
  }

  private guardOptions(exchange: Exchange): Omit<StreamGuardOptions, 'close'> {
    return {
      limit: this.limits.maxStreamBufferBytes,
      timeoutMs: this.limits.streamWriteTimeoutMs,
      name: () => {
        const { method, id = null } = requestOf(exchange.body);
        const session = exchange.request.headers.get('mcp-session-id') ?? '(new)';
        return exchange.legacy
          ? `Streamable HTTP ${exchange.request.method} stream of legacy session '${session}'`
          : `Streamable HTTP '${String(method)}' stream (request id ${JSON.stringify(id)})`;
      },
      onerror: this.deps.onerror,
    };
  }

  /** Every answer names this instance, when the server was told its name (sticky retries). */
  private named(response: Response): Response {
    return this.deps.instanceId
      ? withHeaders(response, { [MCP_INSTANCE_ID_HEADER]: this.deps.instanceId })
      : response;
  }

  /** Both doors from here on: the answer to an admitted request; a failure is logged and answered 500. */
  private async respond(exchange: Exchange): Promise<Response> {
    const { request, body } = exchange;
    if (!METHODS.has(request.method)) {
      return jsonRpcErrorResponse(
        405,
        -32000,
        `Method Not Allowed: ${request.method}; Streamable HTTP takes GET, POST and DELETE (a browser's OPTIONS preflight is answered with the cors option)`,
        null,
        undefined,
        { allow: 'GET, POST, DELETE' },
      );
    }
    try {
      exchange.legacy = await isLegacyRequest(request, body);
      return exchange.legacy ? await this.respondLegacy(exchange) : await this.respondModern(exchange);
    } catch (error) {
      this.deps.onerror(asError(error));
      return jsonRpcErrorResponse(500, -32603, 'Internal error');
    }
  }

  private async respondModern({ request, body, authInfo, options, guard }: Exchange): Promise<Response> {
    const { method, id = null } = requestOf(body);
    // Before any tool runs: the SDK checks Mcp-Param-* only for its own McpServer, not our Server.
    const mismatch = this.deps.toolInputSchema
      ? paramHeaderRefusal(body, request.headers, this.deps.toolInputSchema)
      : undefined;
    if (mismatch) {
      return jsonRpcErrorResponse(400, mismatch.code, mismatch.message, requestIdOf(body), mismatch.data);
    }
    if (OPEN_STREAM_METHODS.has(method as string)) {
      const refused = this.openStream(guard, method as string, id);
      if (refused) return refused;
    }
    let parsedBody = body;
    let follow: ((response: Response) => Response) | undefined;
    const streams = this.taskStreams;
    if (streams) {
      // A listen request naming tasks: the stream follows the caller's; the SDK serves the rest.
      try {
        const listen = taskListenRequest(body);
        const tasks = listen ? await streams.host.listenable(listen, authInfo) : [];
        if (listen && tasks.length > 0) {
          parsedBody = listen.rest;
          follow = (response) => streams.merge(response, listen.id, tasks);
        } else if (listen) parsedBody = listen.rest;
      } catch (error) {
        // Undeclared (-32021), malformed or too many ids (-32602).
        const refused = protocolErrorIn(error);
        if (!refused) throw error;
        return jsonRpcErrorResponse(200, refused.code, refused.message, requestIdOf(body), refused.data);
      }
    }
    const fetch = () =>
      this.modernHandler(options).fetch(request, { parsedBody, ...(authInfo ? { authInfo } : {}) });
    const { telemetry } = this.deps;
    const response =
      telemetry && method === 'subscriptions/listen'
        ? await tracedListen(telemetry, request, body, guard, fetch)
        : await fetch();
    if (follow) return follow(response);
    return response.ok ? response : await boundedRefusal(response);
  }

  /** Counts a listen or events stream until its answer ends, however it ends; the 503 beyond the cap. */
  private openStream(guard: QueueingGuard, method: string, id: RequestId): Response | undefined {
    const { maxOpenStreams } = this.limits;
    if (this.openStreams >= maxOpenStreams) {
      const streams = "'subscriptions/listen' and 'events/stream' streams";
      return overCapacityResponse(
        `'${method}' refused. ${capacityMessage(maxOpenStreams, streams, 'maxOpenStreams')}`,
        id,
      );
    }
    this.openStreams++;
    guard.onEnd(() => {
      this.openStreams--;
    });
    return undefined;
  }

  private modernHandler(options: StreamableHTTPServerTransportOptions) {
    const profile = options.serverless ? serverlessRequests(Boolean(options.serverlessStreaming)) : REQUESTS;
    let handler = this.modern.get(profile);
    if (!handler) {
      handler = createMcpHandler(() => this.deps.createInstance(profile).server, {
        legacy: 'reject',
        // Our own count (openStream) refuses first, with a clear error; never the SDK's.
        maxSubscriptions: this.limits.maxOpenStreams,
        responseMode: profile.notifies ? 'auto' : profile.streams ? 'sse' : 'json',
        onerror: this.deps.onerror,
      });
      // Its listen streams are how list changes and resource updates reach 2026-07-28 HTTP clients.
      if (profile.notifies) this.deps.connections.addNotifier(handler.notify);
      this.modern.set(profile, handler);
    }
    return handler;
  }

  private async respondLegacy(exchange: Exchange): Promise<Response> {
    const { request, body, authInfo, options, guard } = exchange;
    // The SDK's transport refuses an unknown revision repeating the header whole (up to Node's
    // 16 KiB of headers); no revision name is anywhere near this long.
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && version.length > MAX_VERSION_HEADER) {
      return jsonRpcErrorResponse(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${quoted(version)}`,
      );
    }
    const sessionless =
      options.serverless || ('sessionIdGenerator' in options && !options.sessionIdGenerator);
    if (sessionless) return this.respondSessionless(exchange);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      // Another principal's session answers exactly as an unknown one: its id reveals nothing.
      const session = this.sessions.find(sessionId, authInfo);
      if (!session) {
        return jsonRpcErrorResponse(
          404,
          -32001,
          `Session not found: ${quoted(sessionId)} is unknown or has expired`,
        );
      }
      session.activity.during(guard);
      if (request.method === 'GET') session.stream.open(guard);
      return session.transport.handleRequest(request, sdkRequestOptions(exchange));
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      const invalid = request.method === 'POST' ? invalidInitialize(body) : undefined;
      return invalid
        ? jsonRpcErrorResponse(400, -32602, invalid.message, invalid.id)
        : jsonRpcErrorResponse(
            400,
            -32000,
            'Bad Request: no session id; a legacy client must start with initialize',
          );
    }
    return this.openSession(exchange);
  }

  private async openSession(exchange: Exchange): Promise<Response> {
    const { body, authInfo, options, guard } = exchange;
    const { maxSessions, sessionIdleTimeoutMs, maxConcurrentRequests } = this.limits;
    if (!this.sessions.reserve()) {
      return overCapacityResponse(
        capacityMessage(maxSessions, 'legacy sessions', 'maxSessions'),
        requestIdOf(body),
      );
    }
    const owner = principalOf(authInfo);
    const instance = this.deps.createInstance(SESSION);
    const connection: LiveConnection = { ...instance, era: 'legacy' };
    const activity = new SessionActivity(sessionIdleTimeoutMs);
    const untrack = this.deps.connections.track(connection);
    const release = () => {
      untrack();
      void instance.server.close().catch(this.deps.onerror);
    };
    let opened = false;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
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
    activity.during(guard);
    try {
      await instance.server.connect(gate);
      return await transport.handleRequest(exchange.request, sdkRequestOptions(exchange));
    } finally {
      // Refused by the transport (wrong Accept, bad version, ...) before it became a session.
      if (!opened) {
        this.sessions.unreserve();
        release();
      }
    }
  }

  /** A 2025 request without a session: one instance and transport, closed with its answer. */
  private async respondSessionless(exchange: Exchange): Promise<Response> {
    const { options, guard } = exchange;
    const instance = this.deps.createInstance(SESSIONLESS_REQUEST);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: options.serverless
        ? !options.serverlessStreaming
        : (options.enableJsonResponse ?? false),
    });
    guard.onEnd(() => {
      void instance.server.close().catch(this.deps.onerror);
    });
    await instance.server.connect(new RequestGate(transport, this.limits.maxConcurrentRequests));
    return transport.handleRequest(exchange.request, sdkRequestOptions(exchange));
  }

  async close(): Promise<void> {
    this.taskStreams?.closeAll();
    this.sessions.dropAll();
    await Promise.allSettled([...this.modern.values()].map((handler) => handler.close()));
    this.modern.clear();
  }
}

/** What the SDK's legacy transport is given besides the request: the body read already, the caller. */
function sdkRequestOptions({ body, authInfo }: Exchange): { parsedBody?: unknown; authInfo?: AuthInfo } {
  return { ...(body !== undefined ? { parsedBody: body } : {}), ...(authInfo ? { authInfo } : {}) };
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
