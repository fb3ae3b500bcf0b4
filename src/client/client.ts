/**
 * MCPClient: a thin manager over one ServerConnection per configured server. It namespaces tools
 * (`server_tool`), fans listings out concurrently with per-server errors, manages instances and
 * process hooks. Connections open lazily, on the first operation that needs them.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import { MCPErrorCode, mcpError } from '../errors.js';
import { consoleLogger } from '../shared/console-logger.js';
import { lazyModule } from '../shared/lazy-module.js';
import { Telemetry } from '../shared/telemetry/telemetry.js';
import {
  type ConnectionLookup,
  progressActions,
  promptActions,
  resourceActions,
  toolActions,
} from './actions.js';
import { serverAnswers } from './answers.js';
import type { ServerAuthState } from './auth/auth-required.js';
import { ServerAuthenticator } from './auth/authenticate.js';
import type { MCPClientConfigOptions, MCPConfig } from './config-file/types.js';
import { DEFAULT_TIMEOUT_MS, ServerConnection } from './connection.js';
import { legacyMessage, messageOf } from './errors.js';
import { closeEvents, eventActions, type MCPClientEvents } from './events/event-actions.js';
import { fanOut } from './fan-out.js';
import { checkClientOptions } from './options.js';
import { registerForProcessHooks, unregisterFromProcessHooks } from './process-hooks.js';
import { rootsActions } from './roots/actions.js';
import type { MCPClientRoots } from './roots/types.js';
import { type MCPClientServerProxy, proxyOpener } from './server-proxies.js';
import { skillActions } from './skills/actions.js';
import type { MCPClientSkills } from './skills/api.js';
import { taskActions } from './tasks/actions.js';
import type { MCPClientTasks } from './tasks/types.js';
import {
  definitionFrom,
  definitionProblem,
  type MCPToolDefinition,
  reservedKeyProblem,
} from './tools/definition.js';
import { mastraTool } from './tools/mastra-tool.js';
import type { ToolSchemaOverBudget } from './tools/schema-budget.js';
import { ServerToolNames, toolNameSeparator } from './tools/tool-names.js';
import { loadValidation } from './tools/validation.js';
import type { MCPTool, MCPToolMap, MCPToolsetMap } from './typed.js';
import type {
  LogMessage,
  MastraMCPServerDefinition,
  MCPClientOptions,
  MCPClientProgress,
  MCPClientPrompts,
  MCPClientResources,
  MCPClientTools,
  MCPServerImplementation,
  MCPToolDefinitionsWithErrors,
  MCPToolsetsWithErrors,
  MCPToolsWithErrors,
  WithErrorsOptions,
} from './types.js';

/** Where tool definitions come from: a live `tools/list`, or a cached catalog. */
type ToolSource = 'listing' | 'catalog';

/** How long disconnect() lets event subscriptions end (webhook unsubscribes) before closing connections. */
export const DISCONNECT_EVENTS_GRACE_MS = 1000;

/** Config files are read by `MCPClient.fromConfig()` only: node:fs and the parser load with its first call. */
const loadConfigFile = lazyModule(() => import('./config-file/load.js'));

/** Lets the `generate` command recognise clients built by another copy of this package (ESM and CJS). */
export const MCP_CLIENT_BRAND = Symbol.for('mastra-mcp.MCPClient');
/** Per server, the tools the last listing skipped for exceeding a schema budget (for the generator). */
export const MCP_CLIENT_SKIPPED_TOOLS = Symbol.for('mastra-mcp.skippedTools');
/** The era each server negotiated (read by `mastra-mcp generate`: 2025 output envelopes, output-envelope.ts). */
export const MCP_CLIENT_SERVER_ERAS = Symbol.for('mastra-mcp.serverEras');

/**
 * Each client's connections by server name, for src/compat (elicitation.onRequest): kept beside
 * the class rather than as a member, so they are not part of its public declaration.
 */
const lookups = new WeakMap<MCPClientCore<unknown>, ConnectionLookup>();

/** The client's connections by server name. */
export function connectionLookup(client: MCPClientCore<unknown>): ConnectionLookup {
  return lookups.get(client) as ConnectionLookup;
}

/**
 * MCPClient without the shapes kept only for older reference pages (src/compat/client.ts adds
 * them; the public MCPClient is that class).
 */
export class MCPClientCore<TServers = never> {
  readonly options: MCPClientOptions<TServers>;
  /** `typegen` as given at construction (frozen); read by `mastra-mcp generate`. */
  readonly typegen: Readonly<{ outFile: string }> | undefined;
  private readonly connections = new Map<string, ServerConnection>();
  /** Per server: its tools' keys and which tools it shows (tool-names.ts). */
  private readonly toolNames = new Map<string, ServerToolNames>();
  private readonly authenticators = new Map<string, ServerAuthenticator>();
  private hooked = false;
  /** Shows warnings and errors (a stdio server's among them: stderr-lines.ts) until replaced. */
  logger: IMastraLogger = consoleLogger('MCPClient', 'warn');

  readonly resources!: MCPClientResources;
  readonly prompts!: MCPClientPrompts;
  readonly tools!: MCPClientTools;
  readonly progress!: MCPClientProgress;
  /** The Tasks extension (SEP-2663): start a tool call as a task, then get, update, cancel or wait for it by id. */
  readonly tasks!: MCPClientTasks;
  /** MCP Events (SEP-3415): list, subscribe, and the webhook receiver. */
  readonly events!: MCPClientEvents;
  /** The roots servers are told (the `roots` option): `set()` replaces them and tells connected servers. */
  readonly roots!: MCPClientRoots;
  /** Servers' Agent Skills (the Skills extension, SEP-2640), keyed by server and URI, and the bridge to Mastra's. */
  readonly skills!: MCPClientSkills;

  constructor(options: MCPClientOptions<NoInfer<TServers>>) {
    checkClientOptions(options);
    const { typegen } = options;
    if (typegen !== undefined && (typeof typegen?.outFile !== 'string' || typegen.outFile.trim() === '')) {
      throw mcpError(
        MCPErrorCode.CLIENT_INVALID_TYPEGEN_CONFIG,
        "MCPClient option 'typegen.outFile' must be a non-empty path",
        { field: 'typegen.outFile' },
      );
    }
    this.options = options;
    this.typegen = typegen ? Object.freeze({ outFile: typegen.outFile }) : undefined;
    const separator = toolNameSeparator(options.toolNameSeparator);
    const telemetry = new Telemetry('client', options.telemetry);
    for (const [name, definition] of Object.entries(
      options.servers as Record<string, MastraMCPServerDefinition>,
    )) {
      for (const [option, least] of [
        ['maxPatternInstructions', 0],
        ['maxMessageBytes', 1],
      ] as const) {
        const value = definition[option];
        if (value !== undefined && !(Number.isSafeInteger(value) && value >= least))
          throw mcpError(
            MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG,
            `MCP server '${name}': '${option}' must be an integer of at least ${least}`,
            { server: name, field: option },
          );
      }
      this.toolNames.set(name, new ServerToolNames(name, definition, separator));
      this.connections.set(
        name,
        new ServerConnection(name, definition, {
          timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
          telemetry,
          clientInfo: {
            name: options.clientInfo?.name ?? name,
            version: options.clientInfo?.version ?? '1.0.0',
          },
          log: (entry) => this.log(entry),
          onConnected: () => this.installHooks(),
          answers: serverAnswers(name, definition, options, (level, message) =>
            this.log({ level, message, timestamp: new Date(), serverName: name }),
          ),
        }),
      );
    }
    const lookup: ConnectionLookup = {
      names: () => [...this.connections.keys()],
      get: (name: string) => this.connection(name),
    };
    lookups.set(this, lookup);
    this.resources = resourceActions(lookup);
    this.prompts = promptActions(lookup);
    this.tools = toolActions(lookup);
    this.progress = progressActions(lookup);
    this.events = eventActions(lookup, options.webhook);
    this.tasks = taskActions(lookup);
    this.roots = rootsActions(lookup);
    this.skills = skillActions(lookup, options.skills);
  }

  /**
   * A client for the servers of a Claude Desktop, Claude Code, Cursor or VS Code config file: its
   * path, a `file:` URL, or its parsed content (config-file/load.ts). `options` are the client's,
   * plus options added to the file's servers (`servers`), `${input:id}` values (`inputs`), and
   * what `${env:NAME}` and `${workspaceFolder}` read (`environment`, `workspaceFolder`).
   */
  static async fromConfig<TServers = never>(
    config: string | URL | MCPConfig,
    options: MCPClientConfigOptions<NoInfer<TServers>> = {},
  ): Promise<MCPClientCore<TServers>> {
    const { clientOptionsFromConfig } = await loadConfigFile();
    const { clientOptions, warnings } = await clientOptionsFromConfig(config, options);
    // `this`: the class it was called on (the public MCPClient, src/compat/client.ts).
    const client = new this<TServers>(clientOptions as MCPClientOptions<NoInfer<TServers>>);
    for (const warning of warnings) client.logger.warn(warning);
    return client;
  }

  get [MCP_CLIENT_BRAND](): true {
    return true;
  }

  [MCP_CLIENT_SKIPPED_TOOLS](): Record<string, Record<string, ToolSchemaOverBudget>> {
    return Object.fromEntries(
      [...this.connections].map(([name, connection]) => [name, Object.fromEntries(connection.skippedTools)]),
    );
  }

  [MCP_CLIENT_SERVER_ERAS](): Record<string, 'modern' | 'legacy' | undefined> {
    return Object.fromEntries([...this.connections].map(([name, connection]) => [name, connection.era]));
  }

  get id(): string | undefined {
    return this.options.id;
  }

  /** Transport and server log records also reach the Mastra logger (the per-server `logger` gets them too). */
  private log(entry: LogMessage): void {
    const text = `[${entry.serverName}] ${entry.message}`;
    if (entry.level === 'debug') this.logger.debug(text);
    else if (entry.level === 'info' || entry.level === 'notice') this.logger.info(text);
    else if (entry.level === 'warning') this.logger.warn(text);
    else this.logger.error(text);
  }

  /** Process hooks go in when a client first connects, unless the application owns shutdown. */
  private installHooks(): void {
    if (this.hooked || this.options.registerProcessHooks === false) return;
    this.hooked = true;
    registerForProcessHooks(this);
  }

  private connection(serverName: string): ServerConnection {
    const connection = this.connections.get(serverName);
    if (!connection) {
      throw mcpError(
        MCPErrorCode.CLIENT_UNKNOWN_SERVER,
        `Unknown MCP server '${serverName}'; configured servers: ${[...this.connections.keys()].join(', ') || '(none)'}`,
        { server: serverName },
      );
    }
    return connection;
  }

  /**
   * The server's tools as definitions (tools over the schema budgets never get this far: see
   * tool-list-guard). `signal` (a fan-out deadline) abandons the connect and the listing.
   */
  private async definitionsOf(
    serverName: string,
    signal?: AbortSignal,
  ): Promise<Record<string, MCPToolDefinition>> {
    const connection = this.connection(serverName);
    const tools = await connection.run(
      async (client) => {
        if (!client.getServerCapabilities()?.tools) return [];
        connection.skippedTools.clear();
        const meta = connection.requestMeta();
        const options = { timeout: connection.timeout, ...(signal ? { signal } : {}) };
        return (await client.listTools(meta ? { _meta: meta } : undefined, options)).tools;
      },
      null,
      signal,
    );
    const server = {
      name: serverName,
      version: connection.serverInfo?.version,
      instructions: connection.instructions,
    };
    const names = this.namesOf(serverName);
    const listed = tools.map((tool) => tool.name);
    for (const entry of names.unmatchedIncludes(listed))
      connection.log(
        'warning',
        `MCP server '${serverName}': includeTools entry '${entry}' matches none of its tools (${listed.slice(0, 20).join(', ') || 'none'}${listed.length > 20 ? ', …' : ''}); check its spelling`,
      );
    return Object.fromEntries(
      tools.filter((tool) => names.shows(tool.name)).map((tool) => [tool.name, definitionFrom(tool, server)]),
    );
  }

  private namesOf(serverName: string): ServerToolNames {
    return this.toolNames.get(serverName) as ServerToolNames;
  }

  /** Executable tools for one server; a tool that cannot be built is skipped with a logged error. */
  private toolsetFrom(
    connection: ServerConnection,
    definitions: Record<string, MCPToolDefinition>,
    source: ToolSource,
  ): Record<string, MCPTool> {
    const toolset: Record<string, MCPTool> = {};
    const names = this.namesOf(connection.name);
    for (const [name, definition] of Object.entries(definitions)) {
      // A cached catalog may hold tools the filters hide.
      if (!names.shows(name)) continue;
      // A listing's names were screened on arrival (tool-list guard); a catalog's keys are checked here.
      const reserved = reservedKeyProblem(name);
      if (reserved) {
        connection.log('error', `MCP server '${connection.name}': tool '${name}' skipped: ${reserved}`);
        continue;
      }
      try {
        toolset[name] = this.buildTool(connection, definition, source);
      } catch (error) {
        connection.log('error', messageOf(error));
      }
    }
    return toolset;
  }

  /**
   * A live listing was already screened (tool-list guard, SDK validation) and compiles input
   * schemas at once; a cached entry is checked here and compiles on the tool's first call (a fast
   * cold start).
   */
  private buildTool(
    connection: ServerConnection,
    definition: MCPToolDefinition,
    source: ToolSource,
  ): MCPTool {
    const problem = source === 'catalog' ? definitionProblem(definition) : undefined;
    const name = (definition as { name?: unknown } | undefined)?.name;
    const named = typeof name === 'string' ? { tool: name } : {};
    const subject = `MCP server '${connection.name}': tool '${typeof name === 'string' ? name : '?'}'`;
    if (problem) {
      throw mcpError(MCPErrorCode.CLIENT_INVALID_TOOL_DEFINITION, `${subject} skipped: ${problem}`, {
        server: connection.name,
        ...named,
      });
    }
    try {
      return mastraTool(connection, definition, {
        eager: source === 'listing',
        key: this.namesOf(connection.name).key(definition.name),
      }) as unknown as MCPTool;
    } catch (error) {
      throw mcpError(
        MCPErrorCode.CLIENT_INVALID_TOOL_DEFINITION,
        `${subject} skipped: its schema cannot be used: ${messageOf(error)}`,
        { server: connection.name, ...named },
        error,
      );
    }
  }

  private async toolsetOf(serverName: string, signal?: AbortSignal): Promise<Record<string, MCPTool>> {
    return this.toolsetFrom(
      this.connection(serverName),
      await this.definitionsOf(serverName, signal),
      'listing',
    );
  }

  /**
   * Every server's tools as plain, serializable data grouped by server and keyed by the server's
   * own tool names: a catalog to cache and rebuild with `toolsFromDefinitions()`.
   */
  async listToolDefinitions(): Promise<Record<string, Record<string, MCPToolDefinition>>> {
    return (await this.listToolDefinitionsWithErrors()).definitions;
  }

  async listToolDefinitionsWithErrors(options?: WithErrorsOptions): Promise<MCPToolDefinitionsWithErrors> {
    const { values, ...rest } = await fanOut(
      [...this.connections.keys()],
      (name, signal) => this.definitionsOf(name, signal),
      options,
      this.server,
    );
    return { definitions: values, ...rest };
  }

  /** One executable tool from a cached definition; the server connects when the tool first runs. */
  async toolFromDefinition({
    serverName,
    definition,
  }: {
    serverName: string;
    definition: MCPToolDefinition;
  }): Promise<MCPTool> {
    await loadValidation();
    return this.buildTool(this.connection(serverName), definition, 'catalog');
  }

  /**
   * A cached catalog rebuilt into the `serverName_toolName` map `listTools()` returns, without
   * connecting. Servers no longer configured, and entries that cannot be built, are skipped.
   */
  async toolsFromDefinitions({
    definitions,
  }: {
    definitions: Record<string, Record<string, MCPToolDefinition>>;
  }): Promise<MCPToolMap<TServers>> {
    await loadValidation();
    const toolsets: Record<string, Record<string, MCPTool>> = {};
    for (const [serverName, serverDefinitions] of Object.entries(definitions)) {
      const connection = this.connections.get(serverName);
      if (!connection) {
        this.logger.debug(`[${serverName}] cached tools skipped: the server is no longer configured`);
        continue;
      }
      toolsets[serverName] = this.toolsetFrom(connection, serverDefinitions ?? {}, 'catalog');
    }
    return this.namespaced(toolsets) as MCPToolMap<TServers>;
  }

  /**
   * Every server's tools as one map keyed `serverName_toolName`, for an Agent's `tools`. A server
   * that fails is left out and logged at error level with the cause (`listToolsWithErrors()`
   * returns the failures instead).
   */
  async listTools(): Promise<MCPToolMap<TServers>> {
    const { tools, errorDetails } = await this.listToolsWithErrors();
    for (const detail of Object.values(errorDetails))
      this.logger.error(`listTools(): ${legacyMessage(detail)}; its tools are left out`);
    return tools;
  }

  async listToolsWithErrors(options?: WithErrorsOptions): Promise<MCPToolsWithErrors<TServers>> {
    const { values, ...rest } = await this.discoverToolsets(options);
    return { tools: this.namespaced(values) as MCPToolMap<TServers>, ...rest };
  }

  /**
   * Servers' tools under their keys (`server_tool` by default: tool-names.ts), the servers taken
   * in configured order (whichever answered first). A key that is an Object.prototype property is
   * skipped. Two tools can make the same key (`x_y`'s tool `z` and `x`'s tool `y_z`; two servers
   * given one `toolPrefix`; `a.b` and `a_b` of one server): it stays with the server configured
   * first, or the tool listed first, and the other tool is left out, logged naming both
   * (listToolsets() keeps both).
   */
  private namespaced(toolsets: Record<string, Record<string, MCPTool>>): Record<string, MCPTool> {
    const tools: Record<string, MCPTool> = {};
    const holders = new Map<string, { server: string; tool: string }>();
    for (const [serverName, connection] of this.connections) {
      const names = this.namesOf(serverName);
      for (const [name, tool] of Object.entries(toolsets[serverName] ?? {})) {
        const key = names.key(name);
        const reserved = reservedKeyProblem(key, 'key');
        const holder = holders.get(key);
        const leftOut = `MCP server '${serverName}': tool '${name}' left out of the listTools() map: its key '${key}' is already`;
        if (reserved)
          connection.log('error', `MCP server '${serverName}': tool '${name}' skipped: ${reserved}`);
        else if (holder?.server === serverName)
          connection.log(
            'error',
            `${leftOut} its tool '${holder.tool}' (keys keep only letters, digits, '_' and '-', and at most 64 characters, as model providers require); leave one of the two out with excludeTools (listToolsets() keeps both)`,
          );
        else if (holder)
          connection.log(
            'error',
            `${leftOut} tool '${holder.tool}' of MCP server '${holder.server}', configured before it; give one of the two servers another toolPrefix, or leave one tool out with excludeTools (listToolsets() groups tools by server and keeps both)`,
          );
        else {
          tools[key] = tool;
          holders.set(key, { server: serverName, tool: name });
        }
      }
    }
    return tools;
  }

  /** Tools grouped by server (raw tool names), for `toolsets` at generate/stream time. */
  async listToolsets(): Promise<MCPToolsetMap<TServers>> {
    return (await this.listToolsetsWithErrors()).toolsets;
  }

  async listToolsetsWithErrors(options?: WithErrorsOptions): Promise<MCPToolsetsWithErrors<TServers>> {
    const { values, ...rest } = await this.discoverToolsets(options);
    return { toolsets: values as MCPToolsetMap<TServers>, ...rest };
  }

  private discoverToolsets(options?: WithErrorsOptions) {
    return fanOut(
      [...this.connections.keys()],
      (name, signal) => this.toolsetOf(name, signal),
      options,
      this.server,
    );
  }

  /** A configured server as fan-outs report it (where it is, failures in words). */
  private readonly server = (serverName: string): ServerConnection => this.connection(serverName);

  /** Instructions each server advertised; undefined until it connected, or when it has none. */
  getServerInstructions(): Record<string, string | undefined> {
    return Object.fromEntries([...this.connections].map(([name, c]) => [name, c.instructions]));
  }

  /** The identity each server announced; undefined until it connected. */
  getServerInfo(): Record<string, MCPServerImplementation | undefined> {
    return Object.fromEntries([...this.connections].map(([name, c]) => [name, c.serverInfo]));
  }

  /**
   * One `MCPServerBase` per configured server, for `new Mastra({ mcpServers: { ...proxies } })`;
   * each is registered under, and has the id of, its server's name here. Every server is connected
   * and its tools listed now: if any cannot be, the call rejects with one error naming each failed
   * server and why (no partial map). Each call builds new proxies; the connections stay the
   * client's (`disconnect()` closes them).
   */
  async toMCPServerProxies(): Promise<Record<string, MCPClientServerProxy>> {
    const open = proxyOpener();
    const { values, errorDetails } = await fanOut([...this.connections.keys()], (name) => {
      const connection = this.connection(name);
      return open({
        connection,
        listTools: async () => {
          const definitions = await this.definitionsOf(name);
          return { definitions, tools: this.toolsetFrom(connection, definitions, 'listing') };
        },
        readResource: this.resources.read,
        getPrompt: this.prompts.get,
        telemetry: this.options.telemetry,
      });
    });
    const failed = Object.keys(errorDetails);
    if (failed.length > 0) {
      await Promise.allSettled(Object.values(values).map((opened) => opened.detach()));
      throw mcpError(
        MCPErrorCode.CLIENT_SERVER_PROXY_FAILED,
        `toMCPServerProxies(): ${failed.length} of ${this.connections.size} MCP servers could not be proxied (fix or remove them from 'servers'): ${Object.values(
          errorDetails,
        )
          .map((detail) => detail.message)
          .join('; ')}`,
        { servers: failed.join(', ') },
      );
    }
    return Object.fromEntries(Object.entries(values).map(([name, opened]) => [name, opened.proxy]));
  }

  /**
   * Runs the interactive OAuth authorization-code flow for a server whose MCPOAuthClientProvider
   * has a loopback redirect URL, then reconnects it. Concurrent calls for a server join one flow.
   */
  async authenticate(serverName: string, options?: { timeoutMs?: number }): Promise<void> {
    const connection = this.connection(serverName);
    let authenticator = this.authenticators.get(serverName);
    if (!authenticator) {
      authenticator = new ServerAuthenticator(connection);
      this.authenticators.set(serverName, authenticator);
    }
    return authenticator.authenticate(options?.timeoutMs);
  }

  /** 'needs-auth', 'authorized', or undefined (no authProvider, or no connection attempt yet). */
  getServerAuthState(serverName: string): ServerAuthState | undefined {
    return this.connection(serverName).authState;
  }

  /** Cancels a server's authenticate() flow; false when none was in progress. */
  async cancelAuthentication(serverName: string): Promise<boolean> {
    this.connection(serverName);
    return (await this.authenticators.get(serverName)?.cancel()) ?? false;
  }

  /** Closes one server's connection and opens it again. */
  async reconnectServer(serverName: string): Promise<void> {
    await this.connection(serverName).reconnect();
  }

  /**
   * Closes every transport and child process. Bounded in every state
   * (connecting, requests or an authorization pending, events open): event subscriptions end first
   * (webhook ones unsubscribe), given at most DISCONNECT_EVENTS_GRACE_MS before the connections
   * close under them; each connection's end is bounded by its transport (stdio: see
   * STDIO_EXIT_GRACE_MS).
   */
  async disconnect(): Promise<void> {
    unregisterFromProcessHooks(this);
    const events = closeEvents(this.events);
    const authorizations = [...this.authenticators.values()].map((authenticator) => authenticator.cancel());
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      events,
      new Promise((resolve) => {
        timer = setTimeout(resolve, DISCONNECT_EVENTS_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    await Promise.allSettled([
      events,
      ...authorizations,
      ...[...this.connections.values()].map((connection) => connection.close()),
    ]);
  }
}
