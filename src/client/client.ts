/**
 * MCPClient: a thin manager over one ServerConnection per configured server. It namespaces tools
 * (`server_tool`), fans listings out concurrently with per-server errors, manages instances and
 * process hooks. Connections open lazily, on the first operation that needs them.
 */
import { ConsoleLogger, type IMastraLogger } from '@mastra/core/logger';
import type { Tool } from '@mastra/core/tools';
import {
  elicitationActions,
  progressActions,
  promptActions,
  resourceActions,
  toolActions,
} from './actions.js';
import { DEFAULT_TIMEOUT_MS, ServerConnection } from './connection.js';
import { clientError, messageOf } from './errors.js';
import { fanOut } from './fan-out.js';
import { claimInstance, releaseInstance } from './instances.js';
import { registerForProcessHooks, unregisterFromProcessHooks } from './process-hooks.js';
import { definitionFrom, type MCPToolDefinition } from './tools/definition.js';
import { mastraTool, toolKey } from './tools/mastra-tool.js';
import type {
  FanOutErrors,
  LogMessage,
  MCPClientOptions,
  MCPServerImplementation,
  WithErrorsOptions,
} from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas have no static types
export type MCPTool = Tool<any, any>;

export class MCPClient {
  readonly options: MCPClientOptions;
  private readonly connections = new Map<string, ServerConnection>();
  private hooked = false;
  logger: IMastraLogger = new ConsoleLogger({ name: 'MCPClient' });

  readonly resources!: ReturnType<typeof resourceActions>;
  readonly prompts!: ReturnType<typeof promptActions>;
  readonly tools!: ReturnType<typeof toolActions>;
  readonly progress!: ReturnType<typeof progressActions>;
  readonly elicitation!: ReturnType<typeof elicitationActions>;

  constructor(options: MCPClientOptions) {
    this.options = options;
    const claimed = claimInstance(this);
    if (claimed !== this) {
      // biome-ignore lint/correctness/noConstructorReturn: the documented instance cache returns the live client
      return claimed;
    }
    for (const [name, definition] of Object.entries(options.servers)) {
      if (
        !definition ||
        (!('command' in definition && definition.command) && !('url' in definition && definition.url))
      ) {
        throw clientError(
          'MCP_CLIENT_INVALID_SERVER_CONFIG',
          `MCP server '${name}': configure either 'command' (stdio) or 'url' (HTTP)`,
          { server: name },
        );
      }
      this.connections.set(
        name,
        new ServerConnection(name, definition, {
          timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
          clientInfo: {
            name: options.clientInfo?.name ?? name,
            version: options.clientInfo?.version ?? '1.0.0',
          },
          log: (entry) => this.log(entry),
          onConnected: () => this.installHooks(),
        }),
      );
    }
    const lookup = {
      names: () => [...this.connections.keys()],
      get: (name: string) => this.connection(name),
    };
    this.resources = resourceActions(lookup);
    this.prompts = promptActions(lookup);
    this.tools = toolActions(lookup);
    this.progress = progressActions(lookup);
    this.elicitation = elicitationActions(lookup);
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
      throw clientError(
        'MCP_CLIENT_UNKNOWN_SERVER',
        `Unknown MCP server '${serverName}'; configured servers: ${[...this.connections.keys()].join(', ') || '(none)'}`,
        { server: serverName },
      );
    }
    return connection;
  }

  private async definitionsOf(serverName: string): Promise<Record<string, MCPToolDefinition>> {
    const connection = this.connection(serverName);
    const tools = await connection.run(async (client) => {
      if (!client.getServerCapabilities()?.tools) return [];
      const meta = connection.requestMeta();
      return (await client.listTools(meta ? { _meta: meta } : undefined, { timeout: connection.timeout }))
        .tools;
    });
    const server = {
      name: serverName,
      version: connection.serverInfo?.version,
      instructions: connection.instructions,
    };
    return Object.fromEntries(tools.map((tool) => [tool.name, definitionFrom(tool, server)]));
  }

  private async toolsetOf(serverName: string): Promise<Record<string, MCPTool>> {
    const connection = this.connection(serverName);
    const definitions = await this.definitionsOf(serverName);
    const toolset: Record<string, MCPTool> = {};
    for (const [name, definition] of Object.entries(definitions)) {
      try {
        toolset[name] = mastraTool(connection, definition) as unknown as MCPTool;
      } catch (error) {
        connection.log('error', `tool '${name}' skipped: ${messageOf(error)}`);
      }
    }
    return toolset;
  }

  /** Every server's tools as one map keyed `serverName_toolName`, for an Agent's `tools`. */
  async listTools(): Promise<Record<string, MCPTool>> {
    return (await this.listToolsWithErrors()).tools;
  }

  async listToolsWithErrors(
    options?: WithErrorsOptions,
  ): Promise<{ tools: Record<string, MCPTool> } & FanOutErrors> {
    const { toolsets, ...rest } = await this.listToolsetsWithErrors(options);
    const tools: Record<string, MCPTool> = {};
    for (const [serverName, toolset] of Object.entries(toolsets)) {
      for (const [name, tool] of Object.entries(toolset)) tools[toolKey(serverName, name)] = tool;
    }
    return { tools, ...rest };
  }

  /** Tools grouped by server (raw tool names), for `toolsets` at generate/stream time. */
  async listToolsets(): Promise<Record<string, Record<string, MCPTool>>> {
    return (await this.listToolsetsWithErrors()).toolsets;
  }

  async listToolsetsWithErrors(
    options?: WithErrorsOptions,
  ): Promise<{ toolsets: Record<string, Record<string, MCPTool>> } & FanOutErrors> {
    const { values, ...rest } = await fanOut(
      [...this.connections.keys()],
      (name) => this.toolsetOf(name),
      options,
    );
    return { toolsets: values, ...rest };
  }

  /** Instructions each server advertised; undefined until it connected, or when it has none. */
  getServerInstructions(): Record<string, string | undefined> {
    return Object.fromEntries([...this.connections].map(([name, c]) => [name, c.instructions]));
  }

  /** The identity each server announced; undefined until it connected. */
  getServerInfo(): Record<string, MCPServerImplementation | undefined> {
    return Object.fromEntries([...this.connections].map(([name, c]) => [name, c.serverInfo]));
  }

  /** Closes one server's connection and opens it again. */
  async reconnectServer(serverName: string): Promise<void> {
    await this.connection(serverName).reconnect();
  }

  /** Closes every transport and child process; the instance slot is freed. */
  async disconnect(): Promise<void> {
    releaseInstance(this);
    unregisterFromProcessHooks(this);
    await Promise.allSettled([...this.connections.values()].map((connection) => connection.close()));
  }
}
