/**
 * One configured server: its transport, negotiated revision, identity, instructions, managed
 * `subscriptions/listen` stream and notification handler sets (each SDK client it connects is
 * built and routed to them by sdk-client.ts). Invariants: at most one connect is in flight,
 * abandoned (transport closed, child ended, result discarded) once every caller waiting on it gave
 * up; an operation that finds the connection gone reconnects first; an HTTP server that went
 * away (refused, a forgotten legacy session, an answer cut) is recovered from as
 * transport/recovery.ts says; nothing is retried after `close()`, nor after `allowedHosts`
 * refused a host (no fallback, no retry, no reconnect); at most
 * one listen stream is open, its changes made one at a time; `close()` ends every state promptly.
 * Each transport reads within `maxMessageBytes` (message-bound.ts); the schemas compile within
 * the server's pattern budget (pattern-budget.ts).
 */
import { MastraError } from '@mastra/core/error';
import type { RequestContext } from '@mastra/core/request-context';
import type {
  Client,
  Implementation,
  jsonSchemaValidator,
  McpSubscription,
  SubscriptionFilter,
  Transport,
} from '@modelcontextprotocol/client';
import {
  BAGGAGE_META_KEY,
  LOG_LEVEL_META_KEY,
  SdkError,
  SdkErrorCode,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';
import { lazyModule } from '../shared/lazy-module.js';
import { Activity } from './activity.js';
import type { ServerAnswers } from './answers.js';
import { isAuthorizationRequired, type ServerAuthState } from './auth/auth-required.js';
import { reportRegistrations } from './auth/oauth-provider.js';
import type { TimeoutSetting } from './errors.js';
import { describeCause, displayUrl, findCause, httpStatusOf, messageOf } from './errors.js';
import { LegacyResourceSubscriptions } from './legacy-subscriptions.js';
import { ListenRecovery } from './listen-recovery.js';
import { newSdkClient, type SdkClientSettings, ServerHandlers } from './sdk-client.js';
import { loadSdkClient } from './sdk-load.js';
import { offersTasks, TaskPush } from './tasks/task-push.js';
import { guardTaskResults } from './tasks/task-results.js';
import { DEFAULT_MAX_PATTERN_INSTRUCTIONS, PatternBudget } from './tools/pattern-budget.js';
import type { ToolSchemaOverBudget } from './tools/schema-budget.js';
import { budgetedValidator, loadValidation } from './tools/validation.js';
import { hostNotAllowed } from './transport/allowed-hosts.js';
import { watchAnswers } from './transport/answer-watch.js';
import { isHttp, refusesStreamableHttp, requestContextScope } from './transport/http.js';
import { withInstanceAffinity } from './transport/instance-affinity.js';
import { DEFAULT_MAX_MESSAGE_BYTES, MessageBound } from './transport/message-bound.js';
import { ConnectionRecovery } from './transport/recovery.js';
import { type ExitReport, StdioExitError, stdioExitError } from './transport/stdio-exit.js';
import { guardToolLists } from './transport/tool-list-guard.js';
import type { LogHandler, MastraMCPServerDefinition, MCPTraceContext } from './types.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface ConnectionSettings extends SdkClientSettings {
  timeout: number;
  log: LogHandler;
  onConnected: () => void;
  /** What answers this server's sampling and roots requests (answers.ts). */
  answers: ServerAnswers;
}

/** The SDK's transports load with the first connect that needs them, not with the package. */
const loadStdioTransport = lazyModule(() => import('./transport/stdio.js'));
const loadHttpTransports = lazyModule(() => import('./transport/http-transports.js'));

/** A connect in flight and who waits for it. */
interface PendingConnect {
  promise: Promise<Client>;
  abort: AbortController;
  /** Callers waiting with a signal that has not fired yet. */
  waiting: number;
  /** Some caller waits without a signal: the connect is never abandoned for the others. */
  patient: boolean;
}

function isConnectionLoss(error: unknown): boolean {
  return (
    error instanceof SdkError &&
    [SdkErrorCode.ConnectionClosed, SdkErrorCode.NotConnected, SdkErrorCode.SendFailed].includes(
      error.code as SdkErrorCode,
    )
  );
}

export class ServerConnection {
  readonly handlers = new ServerHandlers();
  instructions: string | undefined;
  serverInfo: Implementation | undefined;
  /** With an `authProvider`: 'needs-auth' once authorization was refused, 'authorized' once a connect succeeded. */
  authState: ServerAuthState | undefined;
  /** Busy while someone waits on this server; a stdio child holds the process open only then. */
  readonly activity = new Activity();
  private client: Client | undefined;
  private connecting: PendingConnect | undefined;
  private closed = false;
  /** What an operation on an HTTP server that went away runs again (transport/recovery.ts). */
  private readonly recovery = new ConnectionRecovery(this, (client) => this.detach(client));
  private readonly closing = new AbortController();
  private listen: McpSubscription | undefined;
  private listenFilterKey = '';
  /** The listen change running or last run, and the one queued behind it (which later calls join). */
  private listenRunning: Promise<unknown> = Promise.resolve();
  private listenQueued: Promise<McpSubscription | undefined> | undefined;
  private readonly listenRecovery = new ListenRecovery(this);
  readonly subscribedUris = new Set<string>();
  private readonly legacySubscriptions = new LegacyResourceSubscriptions();
  /** Tasks followed through `notifications/tasks`: a change re-syncs the listen stream. */
  readonly taskPush = new TaskPush(() => {
    void this.syncListen().catch((error: unknown) =>
      this.log('warning', `following tasks on the subscriptions/listen stream failed: ${messageOf(error)}`),
    );
  });
  /** Tools the last `tools/list` left out for exceeding a schema budget (read by `mastra-mcp generate`). */
  readonly skippedTools = new Map<string, ToolSchemaOverBudget>();
  /** Replaced at runtime by the v1 MCPClient reference's `elicitation.onRequest()`. */
  inputRequests: MastraMCPServerDefinition['inputRequests'];
  /** What this server's schema patterns may compile to, with the default validator. */
  readonly patternBudget: PatternBudget;
  /** Validates this server's arguments and structured output: its own validator, or the default within its budget. */
  readonly jsonSchemaValidator: jsonSchemaValidator;
  readonly answers: ServerAnswers;

  constructor(
    readonly name: string,
    readonly definition: MastraMCPServerDefinition,
    private readonly settings: ConnectionSettings,
  ) {
    this.inputRequests = definition.inputRequests;
    this.answers = settings.answers;
    this.patternBudget = new PatternBudget(
      definition.maxPatternInstructions ?? DEFAULT_MAX_PATTERN_INSTRUCTIONS,
      (message) => this.log('warning', message),
    );
    this.jsonSchemaValidator = definition.jsonSchemaValidator ?? budgetedValidator(this.patternBudget);
    if (isHttp(definition)) {
      reportRegistrations(definition.authProvider, (message) => this.log('warning', message));
    }
  }

  get timeout(): number {
    return this.definition.timeout ?? this.settings.timeout;
  }

  /** The timeout and the option it comes from, for the message of a request that ran into it. */
  get timeoutSetting(): TimeoutSetting {
    const option =
      this.definition.timeout !== undefined
        ? `the 'timeout' of server '${this.name}': raise it if the server needs longer`
        : `the client's 'timeout', ${DEFAULT_TIMEOUT_MS} ms unless set: raise it, or set 'timeout' on server '${this.name}'`;
    return { ms: this.timeout, option };
  }

  /** 'modern' (2026-07-28) or 'legacy', once connected. */
  get era(): 'modern' | 'legacy' | undefined {
    return this.client?.getProtocolEra();
  }

  get protocolVersion(): string | undefined {
    return this.client?.getNegotiatedProtocolVersion();
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Aborts, with the MCP_CLIENT_DISCONNECTED error, once the connection is closed for good (`disconnect()`). */
  get closedSignal(): AbortSignal {
    return this.closing.signal;
  }

  /** Every record goes to the client's logger and the server's `logger`; a throwing handler is contained. */
  readonly emit: LogHandler = (entry) => {
    this.settings.log(entry);
    try {
      this.definition.logger?.(entry);
    } catch {
      // A user log handler must not take the connection (or the process) down.
    }
  };

  log(level: 'debug' | 'info' | 'warning' | 'error', message: string, details?: Record<string, unknown>) {
    this.emit({
      level,
      message,
      timestamp: new Date(),
      serverName: this.name,
      ...(details ? { details } : {}),
    });
  }

  private disconnected() {
    const text = `MCP server '${this.name}': the client was disconnected`;
    return mcpError(MCPErrorCode.CLIENT_DISCONNECTED, text, { server: this.name });
  }

  /**
   * The connected SDK client, connecting first (once, however many callers wait). A caller whose
   * `signal` fires stops waiting; when the last caller with a signal gave up and none waits
   * without one, the connect itself is abandoned, and the next caller starts a fresh one.
   */
  async get(signal?: AbortSignal): Promise<Client> {
    if (this.closed) throw this.disconnected();
    if (this.client) return this.client;
    if (!this.connecting || this.connecting.abort.signal.aborted) {
      const abort = new AbortController();
      const pending: PendingConnect = {
        promise: this.activity
          .during(() =>
            this.readsRequestContext
              ? requestContextScope.run(null, () => this.open(abort.signal))
              : this.open(abort.signal),
          )
          .finally(() => {
            if (this.connecting === pending) this.connecting = undefined;
          }),
        abort,
        waiting: 0,
        patient: false,
      };
      this.connecting = pending;
    }
    return this.join(this.connecting, signal);
  }

  private join(pending: PendingConnect, signal: AbortSignal | undefined): Promise<Client> {
    if (!signal) {
      pending.patient = true;
      return pending.promise;
    }
    pending.waiting++;
    return new Promise<Client>((resolve, reject) => {
      const giveUp = () => {
        pending.waiting--;
        if (pending.waiting === 0 && !pending.patient) pending.abort.abort(signal.reason);
        reject(signal.reason);
      };
      if (signal.aborted) return giveUp();
      signal.addEventListener('abort', giveUp, { once: true });
      void pending.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', giveUp));
    });
  }

  /**
   * The first transport to try, or the fallback: legacy SSE for an HTTP endpoint that refuses
   * Streamable HTTP, a fresh legacy process for a stdio server whose in-place probe failed.
   */
  private async transportFor(fallback: boolean, bound: MessageBound): Promise<Transport> {
    const { definition } = this;
    if (isHttp(definition)) {
      const { sseTransport, streamableTransport } = await loadHttpTransports();
      return fallback ? sseTransport(definition, bound) : streamableTransport(definition, bound);
    }
    const { stdioTransport } = await loadStdioTransport();
    return stdioTransport(this.name, definition, this.emit, this.activity, bound);
  }

  private fallbackAfter(error: unknown): string | undefined {
    if (isHttp(this.definition)) {
      // A pinned `transport` has no fallback.
      return this.definition.transport === undefined && refusesStreamableHttp(error)
        ? 'Streamable HTTP was refused; trying the legacy SSE transport'
        : undefined;
    }
    // A program that crashed before answering would crash again: no second start.
    const crashed = error instanceof StdioExitError && error.crashed;
    return this.definition.protocolVersion === undefined && !crashed
      ? 'the server/discover probe failed; trying the legacy initialize handshake on a fresh process'
      : undefined;
  }

  /**
   * Connects one client over one transport; on failure both are closed, and awaited, before
   * rethrowing. `signal` closes the transport too: the SDK's revision probe does not watch it.
   */
  private async attempt(fallback: boolean, signal: AbortSignal): Promise<Client> {
    const limit = this.definition.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const bound = new MessageBound(this.name, limit, (message) => this.log('warning', message));
    const [created, { TelemetryClient }] = await Promise.all([
      this.transportFor(fallback, bound),
      loadSdkClient(),
      loadValidation(),
    ]);
    if (signal.aborted) throw signal.reason;
    const client = newSdkClient(TelemetryClient, this, this.settings);
    if (fallback) client.setVersionNegotiation({ mode: 'legacy' });
    const watched = isHttp(this.definition)
      ? watchAnswers(created, { sse: fallback, repeatableTools: this.recovery.repeatableTools })
      : created;
    const screened = guardToolLists(bound.watch(watched), client, ({ name, label, message, over }) => {
      if (over && name !== undefined) this.skippedTools.set(name, over);
      this.log('error', `tool ${label} skipped: ${message}`);
    });
    const transport = guardTaskResults(screened);
    const abandon = () => void transport.close().catch(() => {});
    signal.addEventListener('abort', abandon, { once: true });
    try {
      await client.connect(transport, { timeout: this.timeout, signal });
      return client;
    } catch (error) {
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      if (signal.aborted) throw signal.reason;
      // A stdio server that died says why better than the handshake it broke off.
      const died =
        isHttp(this.definition) || describeCause(error)
          ? undefined
          : stdioExitError(transport as Partial<ExitReport>, error);
      throw died ?? error;
    } finally {
      signal.removeEventListener('abort', abandon);
    }
  }

  /** `signal`: the connect was abandoned (every caller gave up, or `close()`); its reason is thrown. */
  private async open(signal: AbortSignal): Promise<Client> {
    let client: Client;
    try {
      // `transport: 'sse'` starts where the fallback would.
      client = await this.attempt(isHttp(this.definition) && this.definition.transport === 'sse', signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const fallback = this.fallbackAfter(error);
      if (!fallback || this.closed) throw this.connectError(error);
      this.log('info', `${fallback} (${messageOf(error)})`);
      try {
        client = await this.attempt(true, signal);
      } catch (fallbackError) {
        if (signal.aborted) throw signal.reason;
        throw isHttp(this.definition) ? this.connectError(fallbackError, error) : this.connectError(error);
      }
    }
    if (this.closed || signal.aborted) {
      // Connected just as it was abandoned: nobody will use this client.
      await client.close().catch(() => {});
      throw this.closed ? this.disconnected() : signal.reason;
    }
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.setListen(undefined);
      if (this.closed) return;
      if (isHttp(this.definition)) this.recovery.lost();
      this.log('warning', 'connection closed; the next operation reconnects');
    };
    this.client = client;
    this.recovery.restored();
    if (this.hasAuthProvider) this.authState = 'authorized';
    this.settings.onConnected();
    this.instructions = client.getInstructions();
    this.serverInfo = client.getServerVersion();
    this.log('debug', `connected (${client.getNegotiatedProtocolVersion() ?? 'unknown revision'})`);
    if (
      client.getProtocolEra() === 'legacy' &&
      this.definition.enableServerLogs !== false &&
      client.getServerCapabilities()?.logging
    ) {
      await client
        .setLoggingLevel(this.definition.serverLogLevel ?? 'info', { timeout: this.timeout, signal })
        .catch((error: unknown) => {
          this.log('warning', `logging/setLevel failed: ${messageOf(error)}`);
        });
    }
    await this.syncListen().catch((error: unknown) => {
      this.log('warning', `restoring the subscriptions/listen stream failed: ${messageOf(error)}`);
    });
    return client;
  }

  private get hasAuthProvider(): boolean {
    return isHttp(this.definition) && this.definition.authProvider !== undefined;
  }

  /** Records 'needs-auth' when `error` says the server wants authorization; true if it did. */
  private noteAuthFailure(error: unknown): boolean {
    if (!this.hasAuthProvider || !isAuthorizationRequired(error)) return false;
    this.authState = 'needs-auth';
    return true;
  }

  /** `at <url>` (credentials and query left out) or `(command '<command line>')`, for messages. */
  get where(): string {
    const { definition } = this;
    if (isHttp(definition)) return `at ${displayUrl(definition.url)}`;
    const line = [definition.command, ...(definition.args ?? [])].join(' ');
    return `(command '${line.length > 160 ? `${line.slice(0, 160)}…` : line}')`;
  }

  /** Why a connect attempt failed, in words: the cause underneath, not the SDK's wrapping. */
  private failureOf(error: unknown): string {
    if (error instanceof StdioExitError) return error.message;
    const described = describeCause(error, this.timeoutSetting);
    if (described) return described;
    const code = findCause(error, SdkError)?.code;
    if (
      !isHttp(this.definition) &&
      (code === SdkErrorCode.EraNegotiationFailed || code === SdkErrorCode.ConnectionClosed)
    )
      return 'the process closed its connection before answering the handshake';
    return this.scrubbed(error);
  }

  /** The message of `error`; whatever else it quotes, the configured URL appears without its credentials and query. */
  private scrubbed(error: unknown): string {
    const { definition } = this;
    return isHttp(definition)
      ? messageOf(error).replaceAll(String(definition.url), displayUrl(definition.url))
      : messageOf(error);
  }

  /**
   * Why an operation on this server failed, in words: this package's own errors (a failed
   * connect) as they are, else the cause a connect would name (refused, DNS, TLS, an HTTP status
   * rather than the page it sent, a timeout and its option), else the message.
   */
  describeFailure(error: unknown): string {
    if (error instanceof MastraError) return error.message;
    return describeCause(error, this.timeoutSetting) ?? this.scrubbed(error);
  }

  /**
   * The error a failed connect rejects with. `streamableError`: the Streamable HTTP attempt before
   * the legacy SSE fallback that failed with `error`; both are named, and the HTTP status kept.
   */
  private connectError(error: unknown, streamableError?: unknown) {
    const blocked = hostNotAllowed(error);
    if (blocked) return blocked;
    if (this.noteAuthFailure(error)) {
      return mcpError(
        MCPErrorCode.CLIENT_AUTH_REQUIRED,
        `MCP server '${this.name}' requires authorization ${this.where} (${messageOf(error)}); its auth state is 'needs-auth'`,
        { server: this.name, authState: 'needs-auth' },
        error,
      );
    }
    const status = httpStatusOf(error) ?? httpStatusOf(streamableError);
    const failure =
      streamableError === undefined
        ? this.failureOf(error)
        : `Streamable HTTP: ${this.failureOf(streamableError)}; legacy SSE fallback: ${this.failureOf(error)}`;
    const { protocolVersion } = this.definition;
    // A pinned revision is the likeliest cause when a server that works otherwise fails here.
    const pinned =
      protocolVersion && protocolVersion !== 'legacy'
        ? ` (protocolVersion '${protocolVersion}' is pinned: the server must speak that revision)`
        : '';
    return mcpError(
      MCPErrorCode.CLIENT_CONNECT_FAILED,
      `Failed to connect to MCP server '${this.name}' ${this.where}: ${failure}${pinned}`,
      { server: this.name, ...(status !== undefined ? { httpStatus: status } : {}) },
      error,
    );
  }

  /** The `_meta` every request carries: log level (2026-07-28), trace context, explicit keys last. */
  requestMeta(
    trace?: MCPTraceContext,
    explicit?: Record<string, unknown>,
  ): Record<string, unknown> | undefined {
    const meta: Record<string, unknown> = {};
    if (this.era === 'modern' && this.definition.enableServerLogs !== false) {
      meta[LOG_LEVEL_META_KEY] = this.definition.serverLogLevel ?? 'info';
    }
    const context = this.definition.traceContext ? this.definition.traceContext() : trace;
    if (context?.traceparent) {
      meta[TRACEPARENT_META_KEY] = context.traceparent;
      if (context.tracestate) meta[TRACESTATE_META_KEY] = context.tracestate;
      if (context.baggage) meta[BAGGAGE_META_KEY] = context.baggage;
    }
    const merged = { ...meta, ...explicit };
    return Object.keys(merged).length > 0 ? merged : undefined;
  }

  /**
   * Runs one operation with the request context the custom fetch should see. A lost connection is
   * reopened before the operation; on an HTTP server that went away (refused, a forgotten legacy
   * session, an answer cut) it runs again as transport/recovery.ts says. `signal` stops waiting
   * for a connect (see get()); an operation that should be cancelled with it passes it to its
   * requests. The connection is busy throughout.
   */
  run<T>(
    operation: (client: Client) => Promise<T>,
    requestContext?: RequestContext | null,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.activity.during(() => this.runOnce(operation, requestContext ?? null, signal));
  }

  private async runOnce<T>(
    operation: (client: Client) => Promise<T>,
    requestContext: RequestContext | null,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const attempt = async (client: Client) => {
      try {
        return await this.scoped(operation, client, requestContext);
      } catch (error) {
        // allowedHosts refused a host: reported as it is, never retried.
        const blocked = hostNotAllowed(error);
        if (blocked) throw blocked;
        this.noteAuthFailure(error);
        if (isConnectionLoss(error) && this.client === client) await this.drop(client);
        throw error;
      }
    };
    return isHttp(this.definition) ? this.recovery.run(signal, attempt) : attempt(await this.get(signal));
  }

  /**
   * Whether anything reads the request context scope: only a custom fetch does. Scoping costs, on
   * Node 20 a first `AsyncLocalStorage.run` turns on promise hooks every promise then pays for.
   */
  private get readsRequestContext(): boolean {
    return isHttp(this.definition) && this.definition.fetch !== undefined;
  }

  /**
   * Runs `operation` with what its HTTP requests read: the custom fetch's request context and the
   * operation's instance slot. A stdio server reads neither, so it skips both.
   */
  private scoped<T>(
    operation: (client: Client) => Promise<T>,
    client: Client,
    requestContext: RequestContext | null,
  ): Promise<T> {
    if (!isHttp(this.definition)) return operation(client);
    const affine = () => withInstanceAffinity(() => operation(client));
    return this.readsRequestContext ? requestContextScope.run(requestContext, affine) : affine();
  }

  private async drop(client: Client): Promise<void> {
    this.detach(client);
    await client.close().catch(() => {});
  }

  /** Takes `client` out of use (the next operation reconnects), its listen stream closed. */
  private detach(client: Client): void {
    if (this.client !== client) return;
    const listen = this.listen;
    this.client = undefined;
    this.setListen(undefined);
    void listen?.close().catch(() => {});
  }

  /**
   * The managed listen filter: list-changed kinds with handlers, subscribed resource URIs, and the
   * tasks being followed (`taskIds`, the Tasks extension's member) on a server offering them.
   */
  private listenFilter(client: Client): SubscriptionFilter | undefined {
    const filter: SubscriptionFilter & { taskIds?: string[] } = {};
    if (this.handlers.toolsChanged.size > 0) filter.toolsListChanged = true;
    if (this.handlers.promptsChanged.size > 0) filter.promptsListChanged = true;
    if (this.handlers.resourcesChanged.size > 0) filter.resourcesListChanged = true;
    if (this.subscribedUris.size > 0) filter.resourceSubscriptions = [...this.subscribedUris].sort();
    const taskIds = this.taskPush.taskIds;
    if (taskIds.length > 0 && offersTasks(client)) filter.taskIds = taskIds;
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  private setListen(subscription: McpSubscription | undefined, filterKey = ''): void {
    this.listen = subscription;
    this.listenFilterKey = filterKey;
    this.taskPush.streamChanged(subscription === undefined);
  }

  /**
   * Brings the 2026-07-28 `subscriptions/listen` stream in line with what is wanted: one stream
   * per server, replaced when the filter changes, closed when nothing is wanted, reopened when it
   * ends unasked (listen-recovery.ts); legacy servers, instead, `resources/subscribe`
   * (legacy-subscriptions.ts). Changes run one at a time, and a call made while another waits
   * joins it, so concurrent registrations open one stream with the latest wanted filter.
   */
  syncListen(): Promise<McpSubscription | undefined> {
    if (this.listenQueued) return this.listenQueued;
    const queued = this.listenRunning.then(() => {
      this.listenQueued = undefined;
      return this.activity.during(() => this.applyListen());
    });
    this.listenQueued = queued;
    this.listenRunning = queued.catch(() => {});
    return queued;
  }

  /**
   * The new stream opens before the one it replaces closes, so no change falls between them (one
   * arriving in that moment may be told twice). When the new one cannot be opened, the old stays.
   */
  private async applyListen(): Promise<McpSubscription | undefined> {
    const client = this.client;
    if (client?.getProtocolEra() !== 'modern') return client && this.legacySubscriptions.sync(client, this);
    const filter = this.listenFilter(client);
    const key = JSON.stringify(filter ?? null);
    if (key === this.listenFilterKey && (this.listen || !filter)) return this.listen;
    const previous = this.listen;
    if (!filter) {
      this.setListen(undefined);
      await previous?.close().catch(() => {});
      return undefined;
    }
    const subscription = await client.listen(filter, { timeout: this.timeout });
    if (this.client !== client) {
      // Closed or reconnected meanwhile: a new connection restores its own stream.
      await subscription.close().catch(() => {});
      return undefined;
    }
    this.setListen(subscription, key);
    this.listenRecovery.reopened();
    void subscription.closed.then((reason) => {
      if (this.listen !== subscription) return;
      this.setListen(undefined);
      if (reason !== 'local') this.listenRecovery.ended(reason);
    });
    await previous?.close().catch(() => {});
    return subscription;
  }

  /** Reconnects now (closing the current connection first). */
  async reconnect(): Promise<void> {
    const client = this.client;
    if (client) await this.drop(client);
    await this.get();
  }

  /**
   * Ends every state at once: a connect in flight is abandoned, and closing the client fails its
   * requests in flight and ends its listen stream. Bounded by the transports' own shutdown.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort(this.disconnected());
    const pending = this.connecting;
    pending?.abort.abort(this.disconnected());
    const client = this.client;
    this.client = undefined;
    this.setListen(undefined);
    await Promise.allSettled([client?.close(), pending?.promise, this.recovery.close()]);
  }
}
