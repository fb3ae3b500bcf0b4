/**
 * Public option and result types of MCPClient, named as in the v1 and v2 MCPClient references.
 */
import type { RequestContext } from '@mastra/core/request-context';
import type {
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  jsonSchemaValidator as JsonSchemaValidatorType,
  LoggingLevel,
  OAuthClientProvider,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  SdkErrorCode,
  SSEClientTransportOptions,
  ToolAnnotations,
} from '@modelcontextprotocol/client';
import type { MCPTelemetryOptions } from '../shared/telemetry/options.js';
import type { MCPTraceContext } from '../shared/trace-context.js';
import type { MCPClientWebhookOptions } from './events/types.js';
import type { MCPClientRootsOption } from './roots/types.js';
import type { MCPClientSamplingOption } from './sampling/types.js';
import type { MCPClientSkillsOptions } from './skills/options.js';
import type { MCPToolDefinition } from './tools/definition.js';
import type { IsUntyped, MCPToolMap, MCPToolsetMap } from './typed.js';

export type { LoggingLevel };

/** One log record, from the transport (stderr, connection events) or the server (`notifications/message`). */
export interface LogMessage {
  level: LoggingLevel;
  message: string;
  timestamp: Date;
  serverName: string;
  details?: Record<string, unknown>;
}
export type LogHandler = (logMessage: LogMessage) => void;

/**
 * `fetch` with the request context of the operation that caused the request (null during the
 * handshake). Its values are typed `any`, as the app stored them, so `requestContext?.get('cookie')`
 * is usable as a header value without a cast.
 */
export type MastraFetchLike = (
  url: string | URL,
  init?: RequestInit,
  // biome-ignore lint/suspicious/noExplicitAny: request context values are whatever the app stored
  requestContext?: RequestContext<Record<string, any>> | null,
) => Promise<Response>;

export interface RequireToolApprovalContext {
  toolName: string;
  args: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: request context values are whatever the app stored
  requestContext?: Record<string, any>;
  annotations?: ToolAnnotations;
}

/** One embedded input request (an `input_required` entry, or a legacy `elicitation/create`). */
export interface MCPInputRequest {
  key: string;
  params: (ElicitRequestFormParams & { mode?: 'form' }) | ElicitRequestURLParams;
  signal: AbortSignal;
}
export type MCPInputRequestHandler = (request: MCPInputRequest) => ElicitResult | Promise<ElicitResult>;

export interface MCPClientCapabilities {
  elicitation?: { form?: Record<string, unknown>; url?: Record<string, unknown> };
  /**
   * Declared as given when sampling is configured for the server (`{}` otherwise); `tools` and
   * `context` need a sampling `handler`. Declared without sampling, construction fails.
   */
  sampling?: { tools?: Record<string, unknown>; context?: Record<string, unknown> };
  /** Declared (with `listChanged: true` unless `false` is given) when roots are configured; without them, construction fails. */
  roots?: { listChanged?: boolean };
  extensions?: Record<string, unknown>;
}

export type { MCPTraceContext };

interface BaseServerOptions {
  logger?: LogHandler;
  timeout?: number;
  protocolVersion?: '2026-07-28' | 'legacy';
  clientInfo?: { name?: string; version?: string };
  capabilities?: MCPClientCapabilities;
  inputRequests?: MCPInputRequestHandler;
  /** Answers this server's sampling requests, in place of the client's `sampling`. */
  sampling?: MCPClientSamplingOption;
  /** The roots this server is told, in place of the client's `roots`. */
  roots?: MCPClientRootsOption;
  enableServerLogs?: boolean;
  serverLogLevel?: LoggingLevel;
  enableProgressTracking?: boolean;
  traceContext?: () => MCPTraceContext | undefined;
  forwardInstructions?: boolean;
  instructionsMaxLength?: number;
  requireToolApproval?: boolean | ((params: RequireToolApprovalContext) => boolean | Promise<boolean>);
  onToolError?: 'throw' | 'return';
  /**
   * Validates this server's tool arguments and structured output instead of the client's default
   * (Ajv with patterns matched by RE2, so a server's schema cannot make a check backtrack). A
   * validator given here is used as it is: its patterns are its own to make safe.
   */
  jsonSchemaValidator?: JsonSchemaValidatorType;
  /**
   * RE2 instructions this server's schema patterns may compile to with the default validator,
   * each distinct pattern counted once (default 50,000: about 30 MiB). Patterns beyond it are left
   * unchecked by the client, with one warning; the server still checks what it receives.
   */
  maxPatternInstructions?: number;
  /**
   * The largest message the client accepts from this server, in bytes (default 16 MiB): an answer
   * over it fails its request with an error naming the request, the bound and this option; a
   * larger notification is dropped with a warning. Over stdio and HTTP alike.
   */
  maxMessageBytes?: number;
  /**
   * What this server's tools are keyed under in `listTools()`, in place of the server's name:
   * `<toolPrefix><toolNameSeparator><tool>`; `''` keys them by their own names.
   */
  toolPrefix?: string;
  /** Only these of the server's tools (its own names; `*` matches any characters) are listed. */
  includeTools?: string[];
  /** These of the server's tools (its own names; `*` matches any characters) are never listed. */
  excludeTools?: string[];
}

export interface StdioServerDefinition extends BaseServerOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  inheritDefaultEnv?: boolean;
  cwd?: string;
  /**
   * Where the server's stderr goes. By default each line is a log record for the client's logger
   * and this server's `logger` (lines that say they are warnings or errors, and stack traces, at
   * that level). `'inherit'`: written to this process's stderr as the server writes it; `'ignore'`:
   * dropped; a function: called with each line. Either way the last lines are kept, so a server
   * that dies before answering is reported with the error it printed.
   */
  stderr?: 'inherit' | 'ignore' | ((line: string) => void);
  url?: never;
}

/** What the legacy SSE transport accepts as `eventSourceInit`: `withCredentials` and a `fetch`. */
export type MCPEventSourceInit = NonNullable<SSEClientTransportOptions['eventSourceInit']>;

export interface HttpServerDefinition extends BaseServerOptions {
  url: URL;
  requestInit?: RequestInit;
  /**
   * Options of the legacy SSE stream (v1 MCPClient reference), used by the SSE fallback: its own
   * `fetch(url, init)` sends headers with the stream request.
   */
  eventSourceInit?: MCPEventSourceInit;
  /**
   * Omitted: Streamable HTTP, then the legacy SSE transport if the server refuses it.
   * `'streamable-http'`: never the fallback. `'sse'`: the legacy SSE transport only.
   */
  transport?: 'streamable-http' | 'sse';
  fetch?: MastraFetchLike;
  allowedHosts?: string[];
  authProvider?: OAuthClientProvider;
  command?: never;
}

export type MastraMCPServerDefinition = StdioServerDefinition | HttpServerDefinition;

/** The `servers` option: any names untyped; exactly the declared servers, all required, when typed. */
export type MCPServerDefinitions<TServers> =
  IsUntyped<TServers> extends true
    ? Record<string, MastraMCPServerDefinition>
    : { [S in keyof TServers]: MastraMCPServerDefinition };

/** `TServers` (optional) is a server map type: see "Typed client contracts" in docs/contracts.md. */
export interface MCPClientOptions<TServers = never> {
  id?: string;
  servers: MCPServerDefinitions<TServers>;
  timeout?: number;
  /** Where `mastra-mcp generate` writes this client's types; stored, never acted on at construction. */
  typegen?: { outFile: string };
  clientInfo?: { name?: string; version?: string };
  registerProcessHooks?: boolean;
  /** Experimental: webhook delivery of MCP events; `url` must route to `events.handleWebhook()`. */
  webhook?: MCPClientWebhookOptions;
  /** Between a server's prefix (its name, or `toolPrefix`) and a tool's name in `listTools()` keys (default `_`). */
  toolNameSeparator?: string;
  /**
   * Answers servers that ask the application's model to generate (`sampling/createMessage`): a
   * handler, a Mastra Agent, a language model, or `{ handler | agent | model, onRequest?, ... }`.
   * Every server's, unless its definition has its own. Without it, no server may ask.
   */
  sampling?: MCPClientSamplingOption;
  /** The roots (`file://` directories) every server is told, unless its definition has its own. */
  roots?: MCPClientRootsOption;
  /** Bounds on what the client holds of servers' skills (`mcp.skills`). */
  skills?: MCPClientSkillsOptions;
  /** OpenTelemetry spans and metrics for every server's requests (docs/telemetry.md); on when an SDK is registered. */
  telemetry?: MCPTelemetryOptions;
}

/** What a server announced about itself (serverInfo). */
export interface MCPServerImplementation extends Implementation {}

/**
 * The `code` of an {@link MCPErrorDetail}: the SDK's name for a failure on this side (an
 * `SdkErrorCode` such as `REQUEST_TIMEOUT`, which a `perServerTimeoutMs` deadline gives too, or
 * `CONNECTION_CLOSED`), or the JSON-RPC error code a server answered with (`-32602`, ...).
 */
export type MCPErrorDetailCode = `${SdkErrorCode}` | number;

export interface MCPErrorDetail {
  message: string;
  httpStatus?: number;
  code?: MCPErrorDetailCode;
}

export interface WithErrorsOptions {
  /**
   * Bounds each server's part of the operation; timed-out servers are reported in `errors`, and
   * what they were doing is abandoned: their requests are cancelled, and a connect nobody else
   * waits for is closed (a stdio child is ended).
   */
  perServerTimeoutMs?: number;
}

/** The common shape of every `*WithErrors` result; `durations` only when options were given. */
export interface FanOutErrors {
  errors: Record<string, string>;
  errorDetails: Record<string, MCPErrorDetail>;
  durations?: Record<string, number>;
}

/** `listToolsWithErrors()`: the tools of the servers that answered, keyed `server_tool`. */
export interface MCPToolsWithErrors<TServers = never> extends FanOutErrors {
  tools: MCPToolMap<TServers>;
}

/** `listToolsetsWithErrors()`: the tools of the servers that answered, grouped by server. */
export interface MCPToolsetsWithErrors<TServers = never> extends FanOutErrors {
  toolsets: MCPToolsetMap<TServers>;
}

/** `listToolDefinitionsWithErrors()`: plain tool definitions per server, keyed by the server's tool name. */
export interface MCPToolDefinitionsWithErrors extends FanOutErrors {
  definitions: Record<string, Record<string, MCPToolDefinition>>;
}

/** `resources.listWithErrors()`. */
export interface MCPResourcesWithErrors extends FanOutErrors {
  resources: Record<string, Resource[]>;
}

/** `resources.templatesWithErrors()`. */
export interface MCPResourceTemplatesWithErrors extends FanOutErrors {
  templates: Record<string, ResourceTemplateType[]>;
}

/** `prompts.listWithErrors()`. */
export interface MCPPromptsWithErrors extends FanOutErrors {
  prompts: Record<string, MCPPrompt[]>;
}

/** One entry of `resources.read()`'s `contents`: text or blob, either readable without narrowing. */
export type MCPResourceContents = ReadResourceResult['contents'][number] & { text?: string; blob?: string };

/**
 * `resources.read()`: the protocol's ReadResourceResult (`contents`, each text or blob, with its
 * `uri`). `contents[0].text` reads as `string | undefined`, as both MCPClient references' examples
 * use it.
 */
export interface MCPReadResourceResult extends ReadResourceResult {
  contents: MCPResourceContents[];
}

/** A listed prompt, with the `version` a server that versions its prompts sends. */
export type MCPPrompt = Prompt & { version?: string };

/**
 * `prompts.get()`'s result: the protocol's messages and description, and `prompt`, the prompt as
 * the server lists it (title, description, arguments, version; v1 MCPClient reference). When the
 * listing does not hold it, `prompt` is built from the name, version and description.
 */
export interface MCPGetPromptResult extends GetPromptResult {
  prompt: MCPPrompt;
}

/** What `progress.onUpdate()` handlers receive. */
export interface MCPProgressUpdate {
  progressToken: string;
  progress: number;
  total?: number;
  message?: string;
}

/** `mcpClient.resources`. */
export interface MCPClientResources {
  /** Every server's resources; a server that fails is left out (see `listWithErrors`). */
  list(): Promise<Record<string, Resource[]>>;
  listWithErrors(options?: WithErrorsOptions): Promise<MCPResourcesWithErrors>;
  /** Every server's resource templates; a server that fails is left out (see `templatesWithErrors`). */
  templates(): Promise<Record<string, ResourceTemplateType[]>>;
  templatesWithErrors(options?: WithErrorsOptions): Promise<MCPResourceTemplatesWithErrors>;
  read(serverName: string, uri: string): Promise<MCPReadResourceResult>;
  /** Adds `uri` to the server's `subscriptions/listen` stream (2026-07-28 servers only). */
  subscribe(serverName: string, uri: string): Promise<void>;
  unsubscribe(serverName: string, uri: string): Promise<void>;
  onUpdated(serverName: string, handler: (params: { uri: string }) => void): Promise<void>;
  onListChanged(serverName: string, handler: () => void): Promise<void>;
}

/** `mcpClient.prompts`. */
export interface MCPClientPrompts {
  /** Every server's prompts; a server that fails is left out (see `listWithErrors`). */
  list(): Promise<Record<string, MCPPrompt[]>>;
  listWithErrors(options?: WithErrorsOptions): Promise<MCPPromptsWithErrors>;
  /**
   * One prompt's messages. `args` are the prompt's arguments; the protocol carries strings, and
   * the MCPClient reference (v1 and v2) types them `Record<string, any>`, so any value is accepted
   * and sent as is.
   */
  get(request: {
    serverName: string;
    name: string;
    args?: Record<string, unknown>;
    version?: string;
  }): Promise<MCPGetPromptResult>;
  onListChanged(serverName: string, handler: () => void): Promise<void>;
}

/** `mcpClient.tools`: list change notifications (tools themselves come from `listTools()`). */
export interface MCPClientTools {
  onListChanged(serverName: string, handler: () => void): Promise<void>;
}

/** `mcpClient.progress`. */
export interface MCPClientProgress {
  onUpdate(serverName: string, handler: (params: MCPProgressUpdate) => void): Promise<void>;
}
