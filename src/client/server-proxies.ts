/**
 * The client's side of `toMCPServerProxies()`. A proxy also hosts MCP traffic, through the server's
 * hosting door, so it lives in src/proxy/ and the client imports nothing from there (nor from
 * src/server/). This file is the seam between the two:
 * - MCPClientServerProxy: the public face of a proxy, the class `toMCPServerProxies()` resolves to
 *   (and `instanceof` checks); abstract here, implemented by src/proxy/server-proxy.ts.
 * - ProxySource: what the client lends one proxy, the proxy's only way into the client.
 * - provideServerProxies(): how src/proxy/server-proxy.ts plugs its implementation in when it loads
 *   (src/index.ts exports it beside MCPClient, so the package entry always loads both).
 */
import { MCPServerBase, type MCPToolExecutionResultV2 } from '@mastra/core/mcp';
import type { RequestContext } from '@mastra/core/request-context';
import type { InternalCoreTool } from '@mastra/core/tools';
import type { Resource } from '@modelcontextprotocol/client';
import type { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { MCPErrorCode, mcpError } from '../errors.js';
import type { MCPTelemetryOptions } from '../shared/telemetry/options.js';
import type { ToolInfo } from '../shared/tool-info.js';
import type { promptActions, resourceActions } from './actions.js';
import type { ServerConnection } from './connection.js';
import type { MCPToolDefinition } from './tools/definition.js';
import type { MCPTool } from './typed.js';
import type { MCPGetPromptResult, MCPPrompt, MCPReadResourceResult } from './types.js';

/** What the client lends a proxy: the server's connection and the client's own operations on it. */
export interface ProxySource {
  connection: ServerConnection;
  /** A live `tools/list`: definitions and the client's executable tools built from them. */
  listTools(): Promise<{ definitions: Record<string, MCPToolDefinition>; tools: Record<string, MCPTool> }>;
  readResource: ReturnType<typeof resourceActions>['read'];
  getPrompt: ReturnType<typeof promptActions>['get'];
  /** The client's `telemetry` option, which the proxy's gateway serves with too. */
  telemetry: MCPTelemetryOptions | undefined;
}

/** One server of an MCPClient as a `@mastra/core` MCPServerBase (`toMCPServerProxies()`). */
export abstract class MCPClientServerProxy extends MCPServerBase {
  override readonly mcpVersion = 2 as const;
  /** The latest listing's tools (the server's tool list is followed). */
  abstract override convertTools(): Record<string, InternalCoreTool>;
  /** A live `tools/list`. */
  abstract override getToolListInfo(): Promise<{ tools: ToolInfo[] }>;
  abstract override getToolInfo(toolId: string): Promise<ToolInfo | undefined>;
  /** Calls the remote tool through the client's tool; `{ status: 'completed', output }`. */
  abstract override executeTool(
    toolId: string,
    args: unknown,
    executionContext?: { messages?: unknown[]; toolCallId?: string; requestContext?: RequestContext },
  ): Promise<MCPToolExecutionResultV2>;
  abstract override listResources(): Promise<{ resources: Resource[] }>;
  abstract override readResource(uri: string): Promise<MCPReadResourceResult>;
  abstract listPrompts(): Promise<{ prompts: MCPPrompt[] }>;
  abstract getPrompt(request: {
    name: string;
    args?: Record<string, string>;
    version?: string;
  }): Promise<MCPGetPromptResult>;
  /** The stdio transport `startStdio()` serves on, until `close()`. */
  abstract getStdioTransport(): StdioServerTransport | undefined;
}

/** A proxy just opened, and how to stop it following the server's tool list (when it is not handed out). */
export interface OpenedProxy {
  proxy: MCPClientServerProxy;
  detach(): Promise<void>;
}

/** Opens one proxy: connects the server and lists its tools, which it follows from then on. */
export type ProxyOpener = (source: ProxySource) => Promise<OpenedProxy>;

let opener: ProxyOpener | undefined;

/** @internal Called once, by src/proxy/server-proxy.ts as it loads. */
export function provideServerProxies(open: ProxyOpener): void {
  opener = open;
}

/** The opener src/proxy/ provided; a module graph without it (src/client/ loaded alone) is named. */
export function proxyOpener(): ProxyOpener {
  if (opener) return opener;
  throw mcpError(
    MCPErrorCode.CLIENT_SERVER_PROXY_FAILED,
    "toMCPServerProxies(): the server proxies are not loaded; import MCPClient from 'mastra-mcp'",
  );
}
