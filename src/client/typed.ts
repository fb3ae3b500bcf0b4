/**
 * Typed client contracts: with an explicit server map (`MCPClient<TServers>`), configured server
 * names, discovered tool keys and direct-call argument and result types are checked. Without a
 * type argument (`never`, the default) every type stays as broad as before.
 */
import type { Tool, ToolExecutionContext } from '@mastra/core/tools';
import type { CallToolResult } from '@modelcontextprotocol/client';

/**
 * The shape of a server map: per server, per tool, input and output types, and `task` when the
 * server may answer the tool with a task (MCP Tasks; `mastra-mcp generate` marks it).
 */
export type MCPServerTypes = Record<
  string,
  { tools: Record<string, { input: unknown; output: unknown; task?: 'optional' | 'required' }> }
>;

/** `never` stands for "no type argument given". */
export type IsUntyped<TServers> = [TServers] extends [never] ? true : false;

/**
 * A tool discovered at runtime: its input is whatever the server's JSON Schema accepts (checked
 * when called), and what `execute()` resolves to is `unknown` until narrowed.
 */
// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas have no static input type
export type MCPTool = Tool<any, unknown>;

/**
 * What a typed tool's `execute()` can resolve to: the structured output, a protocol envelope, or
 * undefined. Arguments its input schema refuses reject (MCP_CLIENT_INVALID_TOOL_ARGUMENTS).
 */
export type MCPToolExecuteResult<TOutput> = TOutput | (CallToolResult & Record<string, unknown>) | undefined;

/** A tool whose direct calls are typed by one entry of the server map. */
export type MCPTypedTool<TInput, TOutput> = Omit<MCPTool, 'execute'> & {
  execute?: (input: TInput, context?: ToolExecutionContext) => Promise<MCPToolExecuteResult<TOutput>>;
};

type ToolsOf<TServer> = TServer extends { tools: infer TTools } ? TTools : never;

type TypedToolOf<TEntry> = TEntry extends { input: infer TInput; output: infer TOutput }
  ? MCPTypedTool<TInput, TOutput>
  : MCPTool;

type ToolEntries<TServers> = {
  [S in keyof TServers & string]: {
    [N in keyof ToolsOf<TServers[S]> & string]: { key: `${S}_${N}`; entry: ToolsOf<TServers[S]>[N] };
  }[keyof ToolsOf<TServers[S]> & string];
}[keyof TServers & string];

/** `listTools()`: `server_tool` keys, each possibly absent at runtime. */
export type MCPToolMap<TServers> =
  IsUntyped<TServers> extends true
    ? Record<string, MCPTool>
    : { [E in ToolEntries<TServers> as E['key']]?: TypedToolOf<E['entry']> };

/** `listToolsets()`: server keys holding raw tool names, each possibly absent at runtime. */
export type MCPToolsetMap<TServers> =
  IsUntyped<TServers> extends true
    ? Record<string, Record<string, MCPTool>>
    : {
        [S in keyof TServers]?: { [N in keyof ToolsOf<TServers[S]>]?: TypedToolOf<ToolsOf<TServers[S]>[N]> };
      };
