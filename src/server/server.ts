/**
 * MCPServer: publishes Mastra tools, agents and workflows (plus resources and prompts) over
 * stdio, Streamable HTTP (both protocol eras), legacy SSE and Hono SSE. State shared by every
 * connection (tool registry, suspended calls, connection set) lives here; each connection or
 * 2026-07-28 request gets a cheap SDK instance from `createProtocolServer`.
 */
import type { ToolsInput } from '@mastra/core/agent';
import type { Mastra } from '@mastra/core/mastra';
import {
  MCPServerBase,
  type MCPServerHonoSSEOptions,
  type MCPServerHTTPOptions,
  type ServerDetailInfo,
  type ServerInfo,
} from '@mastra/core/mcp';
import { RequestContext } from '@mastra/core/request-context';
import type { InternalCoreTool } from '@mastra/core/tools';
import type { LoggingLevel, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import type { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { MCPErrorCode, mcpError } from '../errors.js';
import { Telemetry } from '../shared/telemetry/telemetry.js';
import { AppResourceSet } from './app-resources.js';
import { ToolAuthorization } from './auth/fga.js';
import { Connections } from './connections.js';
import { boundedLogLine } from './error-echo.js';
import { busMembership } from './event-bus.js';
import { EventsService } from './events/service.js';
import type { MCPServerEvents } from './events/types.js';
import { type InstanceProfile, SESSION } from './instance-profile.js';
import { type MCPServerLimits, resolveLimits } from './limits.js';
import { MastraToolSync } from './mastra-tools.js';
import { checkEventType, checkHttpOptions, checkListenOptions, checkServerConfig } from './options.js';
import { PromptHandlers } from './prompts.js';
import {
  createProtocolServer,
  type ProtocolHost,
  type ProtocolInstance,
  reportingOf,
} from './protocol-server.js';
import { ToolRegistry } from './registry.js';
import { resolveRequestState } from './request-state.js';
import { ResourceHandlers } from './resources.js';
import { registryServerDetail, registryServerInfo } from './server-info.js';
import { planSkills } from './skills/plan.js';
import { SkillsService } from './skills/service.js';
import type { MCPServerSkillsApi } from './skills/types.js';
import { SuspendedCalls } from './suspended-calls.js';
import { workflowResumer } from './tasks/resume.js';
import { TasksService } from './tasks/service.js';
import type { ToolEntry } from './tool-entry.js';
import { coreTool, type ToolInfo, toolInfo } from './tool-info.js';
import { CorsPolicy, corsOnNode, type MCPServerCorsOptions } from './transports/cors.js';
import type { HonoSSETransportOptions, HonoSseEndpoint } from './transports/hono-sse.js';
import type { SSETransport } from './transports/hono-sse-transport.js';
import type { HostGuardOptions } from './transports/host-guard.js';
import { type HttpServing, resolveHttpServing, webHandler } from './transports/http-serving.js';
import { listenHttp } from './transports/listener.js';
import { sendJsonRpcError } from './transports/node-http.js';
import { SseEndpoint, type SseOptions } from './transports/sse.js';
import { loadTrackedStdio, type StdioServing } from './transports/stdio.js';
import { StreamableHttpEndpoint } from './transports/streamable-http.js';
import type { AppResources, MCPServerConfig, MCPServerListener, MCPServerListenOptions } from './types.js';

/**
 * Each server's Hono SSE endpoint, for src/compat (startHonoSSE() on Node `req`/`res`): kept
 * beside the class rather than as a member, so it is not part of its public declaration.
 */
const honoSseEndpoints = new WeakMap<MCPServerCore, () => Promise<HonoSseEndpoint>>();

/** The server's Hono SSE endpoint, built (and Hono loaded) by the first call. */
export function honoSseEndpointOf(server: MCPServerCore): Promise<HonoSseEndpoint> {
  return (honoSseEndpoints.get(server) as () => Promise<HonoSseEndpoint>)();
}

/** `agent` or `workflow` for an `ask_`/`run_` tool, as Mastra's MCP tool type; none for other tools. */
function toolTypeOf(entry: ToolEntry) {
  return entry.kind === 'tool' ? undefined : entry.kind;
}

function entryInfo(entry: ToolEntry): ToolInfo {
  return toolInfo(entry.definition, toolTypeOf(entry));
}

/**
 * MCPServer without the shapes kept only for older reference pages (src/compat/server.ts adds
 * them; the public MCPServer is that class).
 */
export class MCPServerCore extends MCPServerBase {
  /**
   * The published tools: built once from the config, changed only by `toolActions`. What
   * MCPServerBase and Mastra read of them (`originalTools`, `convertedTools`) is derived from it
   * in `publishTools()`.
   */
  private readonly registry: ToolRegistry;
  private readonly connections: Connections;
  private readonly suspended: SuspendedCalls;
  private readonly host: ProtocolHost;
  private readonly http: StreamableHttpEndpoint;
  private readonly sse: SseEndpoint;
  /** Built by the first `startHonoSSE()`: its module loads Hono, which other servers never need. */
  private honoSse: HonoSseEndpoint | undefined;
  private readonly loadHonoSse: () => Promise<HonoSseEndpoint>;
  private readonly resourceHandlers: ResourceHandlers | undefined;
  private stdio: StdioServing | undefined;
  /** The `http` option as `fetch` serves it; `listen()` resolves its own on top. */
  private readonly httpConfig: MCPServerConfig['http'];
  private readonly listeners = new Set<MCPServerListener>();
  /** startHTTP() option mistakes already logged: each once, not once per request. */
  private readonly misconfigurations = new Set<string>();
  private readonly eventsService: EventsService;
  private readonly tasksService: TasksService;
  private readonly skillsService: SkillsService | undefined;
  private readonly mastraTools = new MastraToolSync(
    () => this.id,
    () => this.logger,
  );

  readonly resourceOptions: MCPServerConfig['resources'];
  readonly promptOptions: MCPServerConfig['prompts'];
  readonly appResources: AppResources | undefined;
  readonly mapAuthInfoToUser: MCPServerConfig['mapAuthInfoToUser'];
  /** The `limits` option with its defaults (docs/SECURITY.md). */
  readonly limits: Required<MCPServerLimits>;
  readonly fga: MCPServerConfig['fga'];

  /** Resource change notifications. */
  readonly resources: {
    notifyUpdated: ({ uri }: { uri: string }) => Promise<void>;
    notifyListChanged: () => Promise<void>;
  };
  /** MCP Events (SEP-3415): `emit()` occurrences of the event types configured in `events`. */
  readonly events: MCPServerEvents;
  /** Prompt change notifications. */
  readonly prompts: { notifyListChanged: () => Promise<void> };
  /** The `skills` option's skills (the Skills extension): `ready()`, `list()`, `refresh()`. */
  readonly skills: MCPServerSkillsApi;
  /**
   * The web-standard handler: MCP over Streamable HTTP (both protocol eras, sessions, streams,
   * tasks) at the `http` option's `path` (default `/mcp`), with its `cors` and `oauth`, the host
   * guard and `limits`; any other path gets 404. It is a bound function that ignores arguments
   * after the request, so runtimes take it as it is: `Deno.serve(server.fetch)`,
   * `Bun.serve({ fetch: server.fetch })`, `export default { fetch: server.fetch }` on Workers,
   * `export const POST = server.fetch` in a Next.js route, `app.all('/mcp', (c) =>
   * server.fetch(c.req.raw))` in Hono. No runtime tells it the address a request arrived on, so
   * the DNS-rebinding guard applies the loopback rules: on a public host, name it in
   * `http.allowedHosts`. It never rejects.
   */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Dynamic tool management; `tools()` is the registry getter, hence the name. */
  readonly toolActions: {
    add: (tools: ToolsInput) => Promise<void>;
    remove: (toolIds: string[]) => Promise<void>;
    notifyListChanged: () => Promise<void>;
  };

  constructor(config: MCPServerConfig) {
    super(checkServerConfig(config));
    this.registry = new ToolRegistry(
      { tools: config.tools, agents: config.agents, workflows: config.workflows },
      () => this.logger,
    );
    this.publishTools();
    this.resourceOptions = config.resources;
    this.promptOptions = config.prompts;
    this.appResources = config.appResources;
    this.mapAuthInfoToUser = config.mapAuthInfoToUser;
    this.fga = config.fga;
    const requestState = resolveRequestState(this.id, config.requestState);
    this.limits = resolveLimits(this.id, config.limits);
    this.suspended = new SuspendedCalls(requestState, this.limits);
    this.connections = new Connections(
      () => this.logger,
      busMembership(config, this.id),
      this.limits.streamWriteTimeoutMs,
    );
    const apps = new AppResourceSet(this.id, config.appResources);
    apps.warnUnserved(this.registry.list(), this.logger);
    this.skillsService = config.skills
      ? new SkillsService(planSkills(this.id, config.skills), {
          logger: () => this.logger,
          listChanged: () => this.connections.resourcesChanged(),
          updated: (uri) => this.connections.resourceUpdated(uri),
        })
      : undefined;
    this.skills = this.skillsService?.api ?? {
      ready: async () => {},
      list: async () => [],
      refresh: async () => {},
    };
    this.resourceHandlers =
      config.resources || apps.size > 0 || this.skillsService
        ? new ResourceHandlers(config.resources, apps, this.skillsService)
        : undefined;
    const self = this;
    this.eventsService = new EventsService(config.events, () => this.logger);
    this.events = {
      ...this.eventsService.api,
      define: (name, type) => {
        checkEventType(this.id, name, type);
        this.eventsService.api.define(name, type);
      },
    };
    this.tasksService = new TasksService(
      config.tasks,
      requestState.instanceId,
      () => this.logger,
      workflowResumer(
        () => this.registry,
        () => reportingOf(this.host),
      ),
    );
    this.tasksService.warnUnserved((name) => this.registry.get(name) !== undefined);
    this.host = {
      get id() {
        return self.id;
      },
      info: {
        name: config.name,
        version: config.version,
        ...(config.description ? { description: config.description } : {}),
      },
      instructions: config.instructions,
      telemetry: new Telemetry('server', config.telemetry),
      get registry() {
        return self.registry;
      },
      resources: this.resourceHandlers,
      prompts: config.prompts ? new PromptHandlers(config.prompts) : undefined,
      suspended: this.suspended,
      access: new ToolAuthorization({
        server: () => ({ id: this.id, name: this.name }),
        mastra: () => this.mastra,
        mapAuthInfoToUser: config.mapAuthInfoToUser,
        fga: config.fga,
      }),
      get logger() {
        return self.logger;
      },
      mastra: () => this.mastra,
      events: this.eventsService.enabled ? this.eventsService : undefined,
      tasks: this.tasksService.enabled ? this.tasksService : undefined,
      skills: this.skillsService,
      limits: this.limits,
      redactErrors: config.redactErrors ?? false,
    };
    const onerror = (error: Error) =>
      this.logger.error(boundedLogLine(`MCP server '${this.id}': ${error.message}`));
    this.http = new StreamableHttpEndpoint({
      createInstance: (profile) => this.createInstance(profile),
      connections: this.connections,
      onerror,
      limits: this.limits,
      ...(requestState.shared ? { instanceId: requestState.instanceId } : {}),
      ...(this.tasksService.enabled ? { tasks: this.tasksService } : {}),
      toolInputSchema: (name) => this.registry.get(name)?.definition.inputSchema,
      telemetry: this.host.telemetry,
    });
    this.sse = new SseEndpoint(() => this.createInstance(SESSION), this.connections, onerror, this.limits);
    this.httpConfig = config.http;
    const serving: HttpServing = resolveHttpServing(config.http, {
      serverId: this.id,
      where: 'http.',
      logger: this.logger,
    });
    this.fetch = webHandler(this.http, serving, onerror);
    let honoSse: Promise<HonoSseEndpoint> | undefined;
    this.loadHonoSse = () => {
      honoSse ??= import('./transports/hono-sse.js').then(({ HonoSseEndpoint }) => {
        this.honoSse = new HonoSseEndpoint(
          () => this.createInstance(SESSION),
          this.connections,
          onerror,
          this.limits,
        );
        return this.honoSse;
      });
      return honoSse;
    };
    honoSseEndpoints.set(this, this.loadHonoSse);

    this.resources = {
      notifyUpdated: ({ uri }) => this.connections.resourceUpdated(uri),
      notifyListChanged: () => this.connections.resourcesChanged(),
    };
    this.prompts = { notifyListChanged: () => this.connections.promptsChanged() };
    this.toolActions = {
      add: async (tools) => {
        const added = this.registry.add(tools);
        apps.warnUnserved(added, this.logger);
        this.publishTools();
        this.mastraTools.add(tools);
        await this.connections.toolsChanged();
      },
      remove: async (toolIds) => {
        const removed = this.registry.remove(toolIds);
        if (removed.length === 0) return;
        this.publishTools();
        this.mastraTools.remove(removed);
        await this.connections.toolsChanged();
      },
      notifyListChanged: () => this.connections.toolsChanged(),
    };
  }

  /**
   * Registration on a Mastra instance: the server's tools join its registry here (so later
   * toolActions keep it in step, see mastra-tools.ts), then the base class registers the rest.
   */
  override __registerMastra(mastra: Mastra): void {
    this.mastraTools.attach(mastra, this.registry.explicitTools());
    super.__registerMastra(mastra);
  }

  /**
   * MCPServerBase asks for `convertedTools` here: in its constructor, before this class's fields
   * exist (nothing yet: ours publishes them), and on registration with a Mastra instance (the
   * registry as it is then, `toolActions` included). Its arguments (the base class's config) are
   * not converted: the registry owns the tools.
   */
  convertTools(
    _tools: ToolsInput,
    _agents?: MCPServerConfig['agents'],
    _workflows?: MCPServerConfig['workflows'],
  ): Record<string, InternalCoreTool> {
    return Object.hasOwn(this, 'registry') ? this.coreTools() : {};
  }

  /** The one place MCPServerBase's view of the tools is written: after every registry change. */
  private publishTools(): void {
    this.originalTools = this.registry.explicitTools() as ToolsInput;
    this.convertedTools = this.coreTools();
  }

  /** The registry as Mastra's `InternalCoreTool`s, for a Mastra instance that lists server tools. */
  private coreTools(): Record<string, InternalCoreTool> {
    const converted: Record<string, InternalCoreTool> = {};
    for (const entry of this.registry.values()) {
      converted[entry.name] = coreTool(entry.definition, {
        toolType: toolTypeOf(entry),
        execute: (params, options) =>
          entry.invoke(params, {
            requestContext: options.requestContext ?? new RequestContext(),
            ...(options.mcp ? { mcp: options.mcp as never } : {}),
            ...(options.abortSignal ? { signal: options.abortSignal } : {}),
            ...(this.mastra ? { mastra: this.mastra } : {}),
          }),
      });
    }
    return converted;
  }

  private createInstance(profile: InstanceProfile): ProtocolInstance {
    return createProtocolServer(this.host, profile);
  }

  /** Serves MCP on this process's stdin/stdout; the first message picks the protocol era. */
  async startStdio(): Promise<void> {
    await this.skills.ready();
    const serveTrackedStdio = await loadTrackedStdio();
    if (this.stdio) {
      throw mcpError(
        MCPErrorCode.SERVER_ALREADY_SERVING_STDIO,
        `MCP server '${this.id}' is already serving stdio`,
        {
          serverId: this.id,
        },
      );
    }
    this.stdio = serveTrackedStdio(
      (profile) => this.createInstance(profile),
      this.connections,
      (error) => this.logger.error(`MCP server '${this.id}' (stdio): ${error.message}`),
      this.tasksService.enabled ? this.tasksService : undefined,
      this.host.telemetry,
    );
  }

  /**
   * Serves Streamable HTTP at `httpPath` for clients of either protocol era. With `cors`, browser
   * pages on those origins may call it (preflights answered, answers tagged; see `listen()`).
   */
  async startHTTP(options: MCPServerHTTPOptions & { cors?: MCPServerCorsOptions }): Promise<void> {
    let cors: CorsPolicy | undefined;
    try {
      checkHttpOptions(this.id, options);
      cors = CorsPolicy.of(options.cors, 'startHTTP(): ', this.id);
    } catch (error) {
      // Like every entry point it never rejects (a route that does not catch would leave the
      // request hanging): the developer reads the mistake in the log, the caller gets a 500.
      this.logMisconfiguration(error as Error);
      sendJsonRpcError(
        options.res,
        500,
        -32603,
        `MCP server '${this.id}' is misconfigured; its log says how`,
      );
      return;
    }
    if (corsOnNode(cors, options.req, options.res)) return;
    await this.http.serve(options, cors?.listed);
  }

  private logMisconfiguration(error: Error): void {
    if (this.misconfigurations.has(error.message)) return;
    // Options come from the developer's code, so the distinct mistakes are few; the cap is a backstop.
    if (this.misconfigurations.size < 64) this.misconfigurations.add(error.message);
    this.logger.error(boundedLogLine(error.message));
  }

  /**
   * Serves this server on an HTTP listener of its own: Streamable HTTP for both protocol eras at
   * `path` (default `/mcp`), legacy SSE at `/sse` and `/messages`, and `GET /health`, with the
   * host guard and `limits` of `startHTTP`, and `cors` and `oauth` in front when given. Options
   * start from the `http` option. Resolves once listening, to the endpoint's `url` (with the port
   * bound: `port: 0` picks a free one) and `close()`. The default host is `127.0.0.1`, reachable
   * from this machine only; see `MCPServerListenOptions.host`. `server.close()` closes it too.
   */
  async listen(options: MCPServerListenOptions): Promise<MCPServerListener> {
    checkListenOptions(this.id, options);
    await this.skills.ready();
    const listener = await listenHttp(
      {
        serverId: this.id,
        http: this.http,
        sse: this.sse,
        logger: this.logger,
        onerror: (error) => this.logger.error(boundedLogLine(`MCP server '${this.id}': ${error.message}`)),
      },
      this.httpConfig,
      options,
    );
    const tracked: MCPServerListener = {
      url: listener.url,
      close: async () => {
        this.listeners.delete(tracked);
        await listener.close();
      },
    };
    this.listeners.add(tracked);
    return tracked;
  }

  /** Serves the legacy HTTP+SSE transport: GET `ssePath` opens the stream, POST `messagePath` sends. */
  override async startSSE(options: SseOptions): Promise<void> {
    await this.sse.handle(options);
  }

  /**
   * Serves the legacy HTTP+SSE transport inside a Hono route: pass `context`, return the Response.
   * Foreign `Host`/`Origin` headers get 403 (`allowedHosts`/`allowedOrigins` widen that), and
   * message bodies are bounded by `limits`.
   */
  override async startHonoSSE(
    options: MCPServerHonoSSEOptions & HostGuardOptions,
  ): Promise<Response | undefined> {
    const honoSse = await this.loadHonoSse();
    return honoSse.handle({
      ...options,
      context: options.context as HonoSSETransportOptions['context'],
      authInfo: options.authInfo as HonoSSETransportOptions['authInfo'],
    });
  }

  async close(): Promise<void> {
    // First, while transports are still open: push streams and webhooks get their last frame.
    await this.eventsService.close();
    await this.tasksService.close();
    this.skillsService?.close();
    this.suspended.cancelAll();
    const stdio = this.stdio;
    this.stdio = undefined;
    await Promise.allSettled([
      ...[...this.listeners].map((listener) => listener.close()),
      stdio?.handle.close(),
      this.http.close(),
      this.sse.close(),
      this.honoSse?.close(),
      this.connections.closeAll(),
    ]);
  }

  getStdioTransport(): StdioServerTransport | undefined {
    return this.stdio?.transport;
  }

  getSseTransport() {
    return this.sse.latestTransport;
  }

  getSseHonoTransport(): SSETransport | undefined {
    return this.honoSse?.latestTransport;
  }

  getStreamableHTTPTransport() {
    return this.http.latestTransport;
  }

  /**
   * Sends a log message to every client with a channel for it, at the level each asked for: legacy
   * connections (their `logging/setLevel`) and a 2026-07-28 stdio client (the level its requests
   * name). 2026-07-28 HTTP clients have none outside their own requests (connections.ts).
   */
  async sendLoggingMessage(params: { level: LoggingLevel; data: unknown; logger?: string }): Promise<void> {
    await this.connections.log(params);
  }

  getServerInfo(): ServerInfo {
    return registryServerInfo(this);
  }

  getServerDetail(): ServerDetailInfo {
    return registryServerDetail(this);
  }

  getToolListInfo(): { tools: ToolInfo[] } {
    return { tools: [...this.registry.values()].map(entryInfo) };
  }

  getToolInfo(toolName: string): ToolInfo | undefined {
    const entry = this.registry.get(toolName);
    return entry ? entryInfo(entry) : undefined;
  }

  /**
   * Runs a tool directly (no MCP round trip) and returns what it returned. With an FGA provider on
   * the Mastra instance, `requestContext.get('user')` must be allowed to call it (see auth/fga.ts).
   */
  async executeTool(
    toolId: string,
    args: unknown,
    executionContext?: { messages?: unknown[]; toolCallId?: string; requestContext?: RequestContext },
  ): Promise<unknown> {
    const entry = this.registry.get(toolId);
    if (!entry) {
      throw mcpError(
        MCPErrorCode.SERVER_TOOL_NOT_FOUND,
        `Tool '${toolId}' not found on MCP server '${this.id}'`,
        { toolId, serverId: this.id },
      );
    }
    const requestContext = executionContext?.requestContext ?? new RequestContext();
    await this.host.access.requireDirect(toolId, requestContext);
    return entry.invoke(args, {
      requestContext,
      ...(executionContext?.messages ? { messages: executionContext.messages } : {}),
      ...(executionContext?.toolCallId ? { toolCallId: executionContext.toolCallId } : {}),
      ...(this.mastra ? { mastra: this.mastra } : {}),
    });
  }

  async listResources(): Promise<{ resources: Resource[] }> {
    return this.resourceHandlers ? this.resourceHandlers.list() : { resources: [] };
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    if (!this.resourceHandlers) {
      throw mcpError(
        MCPErrorCode.SERVER_NO_RESOURCES,
        `MCP server '${this.id}' has no resources configured`,
        {
          serverId: this.id,
          uri,
        },
      );
    }
    return this.resourceHandlers.read(uri);
  }
}
