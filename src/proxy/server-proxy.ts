/**
 * MCPClientServerProxy: one server of an MCPClient as a `@mastra/core` MCPServerBase, so
 * `new Mastra({ mcpServers: await client.toMCPServerProxies() })` registers an external server
 * (tools, resources, prompts, MCP Apps metadata) on a Mastra app and in Studio.
 *
 * - Everything goes through the client's connection: its timeouts, reconnects, auth and errors.
 *   The proxy never owns that connection (`client.disconnect()` closes it); `close()` closes only
 *   what the proxy started: its gateway.
 * - `getToolListInfo()` / `getToolInfo()` are live `tools/list` calls; `tools()` is the latest
 *   listing, refreshed whenever the server says its tool list changed.
 * - `mcpVersion` is 2: the gateway speaks 2026-07-28 (legacy clients are served too), there is no
 *   standalone SSE transport, and `executeTool()` resolves to `{ status: 'completed', output }`. A
 *   remote tool that asks for input is answered inside the call by the client's `inputRequests`
 *   handler (without one the call fails), so a proxied call never reports `suspended`.
 */

import type { MastraError } from '@mastra/core/error';
import type {
  MCPServerHTTPOptions,
  MCPToolExecutionResultV2,
  ServerDetailInfo,
  ServerInfo,
} from '@mastra/core/mcp';
import { RequestContext } from '@mastra/core/request-context';
import type { InternalCoreTool } from '@mastra/core/tools';
import type { ServerCapabilities } from '@modelcontextprotocol/client';
import { addHandler, listPromptsOn, listResourcesOn, removeHandler, wrap } from '../client/actions.js';
import type { ServerConnection } from '../client/connection.js';
import { messageOf } from '../client/errors.js';
import {
  MCPClientServerProxy,
  type OpenedProxy,
  type ProxySource,
  provideServerProxies,
} from '../client/server-proxies.js';
import type { MCPToolDefinition } from '../client/tools/definition.js';
import type { MCPTool } from '../client/typed.js';
import { MCPErrorCode, mcpError } from '../errors.js';
import {
  coreTool,
  registryServerDetail,
  registryServerInfo,
  ToolAuthorization,
  type ToolInfo,
  toolInfo,
} from '../server/hosting.js';
import { ProxyGateway } from './gateway.js';

/** The client's tool as the `InternalCoreTool` Mastra expects from a server (approval carried along). */
function clientCoreTool(definition: MCPToolDefinition, tool: MCPTool): InternalCoreTool {
  const run = tool.execute as NonNullable<InternalCoreTool['execute']>;
  return coreTool(definition, {
    execute: (params, options) => run(params, options),
    needsApproval: tool.requireApproval,
  });
}

/** The implementation of the public MCPClientServerProxy (src/client/server-proxies.ts declares its face). */
class ClientServerProxy extends MCPClientServerProxy {
  private readonly source: ProxySource;
  private readonly capabilities: ServerCapabilities;
  private readonly access: ToolAuthorization;
  private definitions: Record<string, MCPToolDefinition> = {};
  private toolset: Record<string, MCPTool> = {};
  /** Listings started and the newest one applied: a slow older listing never overwrites a newer one. */
  private started = 0;
  private applied = 0;
  private gateway: ProxyGateway | undefined;

  /** Connects the server and lists its tools; the list follows the server's changes from then on. */
  static async open(source: ProxySource): Promise<OpenedProxy> {
    const client = await source.connection.get();
    const proxy = new ClientServerProxy(source, client.getServerCapabilities() ?? {});
    const { connection } = source;
    const detach = () => removeHandler(connection, connection.handlers.toolsChanged, proxy.onToolsChanged);
    // Subscribed before the first listing, so no change can fall between the two.
    await addHandler(connection, connection.handlers.toolsChanged, proxy.onToolsChanged);
    try {
      await proxy.refresh();
    } catch (error) {
      await detach().catch(() => {});
      throw error;
    }
    return { proxy, detach };
  }

  private constructor(source: ProxySource, capabilities: ServerCapabilities) {
    const { connection } = source;
    const info = connection.serverInfo;
    super({
      name: info?.name ?? connection.name,
      version: info?.version ?? '',
      tools: {},
      ...(info?.description ? { description: info.description } : {}),
      ...(connection.instructions ? { instructions: connection.instructions } : {}),
    });
    // The server's name in the client config: what `mcpServers: { ...proxies }` registers it under.
    this.setId(connection.name);
    this.source = source;
    this.capabilities = capabilities;
    this.access = new ToolAuthorization({
      server: () => ({ id: this.id, name: this.name }),
      mastra: () => this.mastra,
    });
  }

  private get label(): string {
    return `MCP server proxy '${this.id}'`;
  }

  private readonly onToolsChanged = () => {
    this.refresh().catch((error: unknown) => {
      this.logger.warn(`${this.label}: refreshing tools after a list change failed: ${messageOf(error)}`);
    });
  };

  /** A live listing; it becomes `tools()` unless a newer listing was applied first. */
  private async refresh(): Promise<void> {
    const round = ++this.started;
    const { definitions, tools } = await this.source.listTools();
    if (round < this.applied) return;
    this.applied = round;
    this.definitions = definitions;
    this.toolset = tools;
    this.convertedTools = this.convertTools();
  }

  /** Called by the base constructor (before the fields exist) and by Mastra on registration. */
  convertTools(): Record<string, InternalCoreTool> {
    const converted: Record<string, InternalCoreTool> = {};
    for (const [name, tool] of Object.entries(this.toolset ?? {})) {
      const definition = this.definitions[name];
      if (definition) converted[name] = clientCoreTool(definition, tool);
    }
    return converted;
  }

  getServerInfo(): ServerInfo {
    return registryServerInfo(this);
  }

  getServerDetail(): ServerDetailInfo {
    return registryServerDetail(this);
  }

  async getToolListInfo(): Promise<{ tools: ToolInfo[] }> {
    await this.refresh();
    return { tools: Object.values(this.definitions).map((definition) => toolInfo(definition)) };
  }

  async getToolInfo(toolId: string): Promise<ToolInfo | undefined> {
    await this.refresh();
    const definition = this.definitions[toolId];
    return definition ? toolInfo(definition) : undefined;
  }

  /**
   * Calls the remote tool through the client's tool: its argument validation, timeout and errors,
   * and no approval step (a direct call, as Studio makes). With an FGA provider on the Mastra
   * instance, `requestContext.get('user')` must be allowed to call it, as for MCPServer.
   */
  async executeTool(
    toolId: string,
    args: unknown,
    executionContext?: { messages?: unknown[]; toolCallId?: string; requestContext?: RequestContext },
  ): Promise<MCPToolExecutionResultV2> {
    if (!this.toolset[toolId]) await this.refresh();
    const tool = this.toolset[toolId];
    if (!tool?.execute) {
      const known = Object.keys(this.toolset);
      throw mcpError(
        MCPErrorCode.CLIENT_PROXY_TOOL_NOT_FOUND,
        `Tool '${toolId}' not found on ${this.label}; the server lists ${known.length ? known.map((name) => `'${name}'`).join(', ') : 'no tools'}`,
        { toolId, serverId: this.id },
      );
    }
    const requestContext = executionContext?.requestContext ?? new RequestContext();
    await this.access.requireDirect(toolId, requestContext);
    const output = await tool
      .execute(args, {
        requestContext,
        ...(executionContext?.messages ? { messages: executionContext.messages } : {}),
        ...(executionContext?.toolCallId ? { toolCallId: executionContext.toolCallId } : {}),
      } as never)
      .catch((error: unknown) => {
        // The client's tool rejects invalid arguments; a proxy reports them under its own id.
        if ((error as MastraError).id !== MCPErrorCode.CLIENT_INVALID_TOOL_ARGUMENTS) throw error;
        throw mcpError(
          MCPErrorCode.CLIENT_PROXY_INVALID_TOOL_INPUT,
          `${this.label}: the arguments for tool '${toolId}' do not match its input schema: ${(error as MastraError).details?.issues}`,
          { toolId, serverId: this.id },
          error,
        );
      });
    return { status: 'completed', output };
  }

  /** One listing of this server, its failure as a MastraError naming the server. */
  private async listed<T>(
    id: MCPErrorCode,
    what: string,
    list: (connection: ServerConnection) => Promise<T>,
  ): Promise<T> {
    const { connection } = this.source;
    try {
      return await list(connection);
    } catch (error) {
      throw wrap(id, what, connection, error);
    }
  }

  /** The server's resources as listed, `_meta` and `mimeType` included (MCP Apps `ui://` ones too). */
  async listResources() {
    return {
      resources: await this.listed(
        MCPErrorCode.CLIENT_LIST_RESOURCES_FAILED,
        'listing resources',
        listResourcesOn,
      ),
    };
  }

  async readResource(uri: string) {
    return this.source.readResource(this.source.connection.name, uri);
  }

  async listPrompts() {
    return {
      prompts: await this.listed(MCPErrorCode.CLIENT_LIST_PROMPTS_FAILED, 'listing prompts', listPromptsOn),
    };
  }

  async getPrompt({
    name,
    args,
    version,
  }: {
    name: string;
    args?: Record<string, string>;
    version?: string;
  }) {
    return this.source.getPrompt({
      serverName: this.source.connection.name,
      name,
      ...(args ? { args } : {}),
      ...(version !== undefined ? { version } : {}),
    });
  }

  private gatewayOf(): ProxyGateway {
    this.gateway ??= new ProxyGateway(
      {
        id: this.id,
        mastra: () => this.mastra,
        connection: this.source.connection,
        info: { name: this.name, version: this.version },
        instructions: this.instructions,
        capabilities: this.capabilities,
        access: this.access,
        outputSchemaOf: (tool) => this.definitions[tool]?.outputSchema,
        inputSchemaOf: (tool) => this.definitions[tool]?.inputSchema,
        telemetry: this.source.telemetry,
      },
      () => this.label,
      () => this.logger,
    );
    return this.gateway;
  }

  /** Serves the proxied server over Streamable HTTP at `httpPath` (both protocol eras), as MCPServer does. */
  async startHTTP(options: MCPServerHTTPOptions): Promise<void> {
    await this.gatewayOf().serveHttp(options);
  }

  /** Serves the proxied server on this process's stdin/stdout. */
  async startStdio(): Promise<void> {
    await this.gatewayOf().serveStdio();
  }

  getStdioTransport() {
    return this.gateway?.stdioTransport;
  }

  /**
   * Closes the gateway (its sessions, stdio and list-changed forwarding). The client's connection
   * stays open and `tools()` keeps following the server: `client.disconnect()` ends both.
   */
  async close(): Promise<void> {
    const gateway = this.gateway;
    this.gateway = undefined;
    await gateway?.close();
  }
}

// Opening is toMCPServerProxies()'s alone: the class is not exported; the client is given its opener.
provideServerProxies((source) => ClientServerProxy.open(source));
