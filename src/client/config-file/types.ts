/**
 * The MCP server config files of other hosts, as `MCPClient.fromConfig()` reads them: the
 * `mcpServers` map of Claude Desktop, Claude Code and Cursor, and VS Code's `servers` map with its
 * `inputs`; and the options that go with them.
 */
import type { HttpServerDefinition, MCPClientOptions, StdioServerDefinition } from '../types.js';

/**
 * One server as those hosts write it. `type` is optional where a host infers it (`command`: stdio,
 * `url`: Streamable HTTP with the legacy SSE fallback). Strings may use the hosts' variables:
 * `${env:NAME}` and `${input:id}` (VS Code, Cursor), `${NAME}` and `${NAME:-default}` (Claude
 * Code), `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`, `${/}`.
 */
export interface MCPConfigServer {
  type?: 'stdio' | 'http' | 'streamable-http' | 'sse';
  command?: string;
  args?: string[];
  /** Added to the default inherited environment, over `envFile`'s; `null` drops one `envFile` set. */
  env?: Record<string, string | number | null>;
  /** A dotenv file whose variables come before `env`'s (VS Code, Cursor). */
  envFile?: string;
  cwd?: string;
  url?: string;
  /** Sent with every HTTP request, the SSE stream's included. */
  headers?: Record<string, string>;
  /** VS Code's development aids (restart on change, debugger): not used here. */
  dev?: unknown;
  /** VS Code's sandbox: not applied here, which a warning says when it is on. */
  sandboxEnabled?: boolean;
  sandbox?: unknown;
  /** Cursor's static OAuth client: not read here (a warning says so); give the server an `authProvider`. */
  auth?: unknown;
}

/** A VS Code `inputs` entry: what `${input:<id>}` stands for. */
export interface MCPConfigInput {
  id: string;
  type?: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: unknown[];
}

/** A config file's content: other top-level keys (a host's own settings) are left alone. */
export interface MCPConfig {
  mcpServers?: Record<string, MCPConfigServer>;
  servers?: Record<string, MCPConfigServer>;
  inputs?: MCPConfigInput[];
}

/** What `fromConfig()` adds to a server of the file: options a host's file cannot hold. */
export type MCPServerConfigOverrides = Partial<StdioServerDefinition> | Partial<HttpServerDefinition>;

export interface MCPClientConfigOptions<TServers = never>
  extends Omit<MCPClientOptions<TServers>, 'servers'> {
  /**
   * Per server of the file, options added to what the file says (`requireToolApproval`,
   * `authProvider`, `includeTools`, ...), each replacing the file's value of that option; the
   * file's transport (`command`, `url`) stays. A name the file lacks adds a server: it needs a
   * `command` or a `url`.
   */
  servers?: Record<string, MCPServerConfigOverrides>;
  /**
   * The value of each `${input:id}`: a map, or a function asked once per input the file uses. An
   * input without a value there (or `undefined` from the function) takes its `default`; without
   * one, loading fails naming it.
   */
  inputs?:
    | Record<string, string>
    | ((input: MCPConfigInput) => string | undefined | Promise<string | undefined>);
  /** Where `${env:NAME}` and `${NAME}` are read (default `process.env`). */
  environment?: Record<string, string | undefined>;
  /**
   * `${workspaceFolder}`, and what a relative `cwd` or `envFile` is resolved against. Default: for
   * a file, its folder (the folder above it for `.vscode/mcp.json` and `.cursor/mcp.json`); for an
   * object, the current directory.
   */
  workspaceFolder?: string;
}
