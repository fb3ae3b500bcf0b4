/**
 * Public option and result types of MCPClient, named as on the reference page.
 */
import type { RequestContext } from '@mastra/core/request-context';
import type {
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  Implementation,
  jsonSchemaValidator as JsonSchemaValidatorType,
  LoggingLevel,
  OAuthClientProvider,
  ToolAnnotations,
} from '@modelcontextprotocol/client';
import type { MCPTraceContext } from '../shared/trace-context.js';
import type { MCPClientWebhookOptions } from './events/types.js';
import type { MCPServerDefinitions } from './typed.js';

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

/** `fetch` with the request context of the operation that caused the request (null during the handshake). */
export type MastraFetchLike = (
  url: string | URL,
  init?: RequestInit,
  requestContext?: RequestContext | null,
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
}

export interface StdioServerDefinition extends BaseServerOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  inheritDefaultEnv?: boolean;
  cwd?: string;
  url?: never;
}

export interface HttpServerDefinition extends BaseServerOptions {
  url: URL;
  requestInit?: RequestInit;
  /** Compatibility path of the older page: used by the legacy SSE fallback. */
  eventSourceInit?: EventSourceInit;
  fetch?: MastraFetchLike;
  allowedHosts?: string[];
  authProvider?: OAuthClientProvider;
  command?: never;
}

export type MastraMCPServerDefinition = StdioServerDefinition | HttpServerDefinition;

/** `TServers` (optional) is a server map type: see "Typed client contracts" in the README. */
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
}

/** What a server announced about itself (serverInfo). */
export type MCPServerImplementation = Implementation;

export interface MCPErrorDetail {
  message: string;
  httpStatus?: number;
  code?: string | number;
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
