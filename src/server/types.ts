/**
 * Public configuration and callback types of MCPServer. Field names follow the MCPServer reference;
 * the protocol shapes (Resource, Prompt, ...) are the SDK's own types re-exported.
 */
import type { MCPServerConfig as CoreMCPServerConfig } from '@mastra/core/mcp';
import type {
  CompleteResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitResult,
  EventStore,
  ListRootsResult,
  LoggingLevel,
  PromptMessage,
  Prompt as ProtocolPrompt,
  Resource,
  ResourceTemplateType,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { MCPTelemetryOptions } from '../shared/telemetry/options.js';
import type { OAuthProtectionOptions } from './auth/oauth-middleware.js';
import type { MCPServerEventBus } from './event-bus.js';
import type { MCPServerEventsConfig } from './events/types.js';
import type { MCPServerLimits } from './limits.js';
import type { MCPServerRequestStateOptions } from './request-state.js';
import type { MCPServerSkills } from './skills/types.js';
import type { MCPServerTasksConfig } from './tasks/types.js';
import type { MCPServerCorsOptions } from './transports/cors.js';
import type { HostGuardOptions } from './transports/host-guard.js';

export type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  PromptMessage,
  Resource,
};

/** A prompt as listed; entries may share a name and differ by `version`. */
export type Prompt = ProtocolPrompt & { version?: string };
export type ResourceTemplate = ResourceTemplateType;

/** Content returned for one resource: UTF-8 text or base64 blob, optionally with its own MIME type. */
export type MCPServerResourceContent = ({ text?: string } | { blob?: string }) & { mimeType?: string };

/** Values a completion callback may return: bare values, or the protocol's completion object. */
export type MCPServerCompletion = string[] | CompleteResult['completion'];

/** Passed to completion callbacks: the value typed so far and the arguments already resolved. */
export interface MCPServerCompletionRequest {
  /** Name of the argument (prompt) or variable (resource template) being completed. */
  argument: { name: string; value: string };
  /** Other arguments the client already filled in, when it sends them. */
  context?: { arguments?: Record<string, string> };
}

export type MCPServerResources = {
  listResources: () => Promise<Resource[]>;
  getResourceContent: ({
    uri,
  }: {
    uri: string;
  }) => Promise<MCPServerResourceContent | MCPServerResourceContent[]>;
  resourceTemplates?: () => Promise<ResourceTemplate[]>;
  /** Argument completion for a resource template variable (`completion/complete` with a `ref/resource`). */
  completeResourceTemplate?: (
    request: MCPServerCompletionRequest & { uriTemplate: string },
  ) => MCPServerCompletion | Promise<MCPServerCompletion>;
};

export type MCPServerPrompts = {
  listPrompts: () => Promise<Prompt[]>;
  /**
   * The messages of one prompt. `context.mcp` asks the client for input while the prompt is got
   * (elicitation, sampling, roots), as a tool's `context.mcp` does: on 2026-07-28 the
   * `prompts/get` answers `input_required` and the client's retry resumes this same call.
   */
  getPromptMessages?: (
    {
      name,
      version,
      args,
    }: {
      name: string;
      version?: string;
      /** The arguments the client sent (strings, as the protocol carries them); `{}` when none. */
      args: Record<string, string>;
    },
    context: { mcp: MCPPromptContext },
  ) => Promise<{ prompt: Prompt; messages: PromptMessage[] }>;
  /** Argument completion for a prompt argument (`completion/complete` with a `ref/prompt`). */
  completePromptArgument?: (
    request: MCPServerCompletionRequest & { name: string },
  ) => MCPServerCompletion | Promise<MCPServerCompletion>;
};

/**
 * Origins a UI resource may reach, as MCP Apps (SEP-1865) defines them; hosts build the iframe's
 * Content Security Policy from these (omitted means none).
 */
export interface MCPUiResourceCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src`: nested iframes. */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser permissions a UI resource asks for (each an empty object when requested). */
export interface MCPUiResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/**
 * A UI resource's `_meta.ui`: the same shape as `McpUiResourceMeta` of
 * `@modelcontextprotocol/ext-apps`, declared here so that package is not a runtime dependency.
 * Named as ext-apps names it (not in this package's `MCP*` style) because the MCPServer reference
 * names it so.
 */
export interface McpUiResourceMeta {
  csp?: MCPUiResourceCsp;
  permissions?: MCPUiResourcePermissions;
  /** A dedicated sandbox origin; its format is up to each host. */
  domain?: string;
  /** Whether the host should draw a border and background around the view. */
  prefersBorder?: boolean;
}

/** One MCP Apps (SEP-1865) UI resource; exactly one of `html` and `htmlPath`. */
export interface AppResource {
  name: string;
  description?: string;
  html?: string;
  /** Read once when the MCPServer is constructed (relative to the working directory). */
  htmlPath?: string;
  meta?: McpUiResourceMeta;
}
export type AppResources = Record<string, AppResource>;

export interface MCPServerConfig extends CoreMCPServerConfig {
  resources?: MCPServerResources;
  prompts?: MCPServerPrompts;
  appResources?: AppResources;
  /**
   * Agent Skills published over the MCP Skills extension (SEP-2640): `createSkill()` values, skill
   * folders on disk, an agent's skills and Mastra `SkillSource`s, each file a `skill://` resource
   * (docs/skills.md).
   */
  skills?: MCPServerSkills;
  /** MCP Events (SEP-3415): event types clients list and receive by poll, push or webhook. */
  events?: MCPServerEventsConfig;
  /**
   * MCP Tasks (SEP-2663): which tools answer a 2026-07-28 `tools/call` with a task the client
   * polls, updates and cancels, and where tasks are kept.
   */
  tasks?: MCPServerTasksConfig;
  /**
   * Instances of one server behind one URL: with a `bus` (e.g. `RedisMCPServerEventBus`), list
   * changes, resource updates and log messages sent on any instance reach the clients of all of
   * them. Needs an explicit `id`, the same on every instance. Default: this process only.
   */
  notifications?: { bus?: MCPServerEventBus };
  /**
   * Instances of one server behind one URL: the key every instance signs and verifies 2026-07-28
   * `input_required` state with, and this instance's name, sent as the `Mcp-Instance-Id` response
   * header for sticky retries (docs/DEPLOYMENT.md). Default: a random key and name per process.
   */
  requestState?: MCPServerRequestStateOptions;
  /**
   * Bounds on what clients can make the server hold (bodies, sessions, suspended calls, streams,
   * write buffers, concurrent batch requests). Every field has a default (docs/SECURITY.md).
   */
  limits?: MCPServerLimits;
  /**
   * Public servers: a tool, resource or prompt callback (or completion) that throws reaches the
   * client as a generic message naming its target (`Tool 'x' failed`, `Resource 'uri' could not
   * be read`, `Prompt 'p' failed`), and any other unexpected error as `Internal error in
   * <method>`; the full error is written to the server log either way. Rejected arguments and
   * params (they describe the caller's own input) and `ProtocolError`s a callback throws on
   * purpose are sent as they are. Default false: the thrown message is sent after the name (a zod
   * issue dump summarised, at most 500 characters).
   */
  redactErrors?: boolean;
  /** OpenTelemetry spans and metrics for every request served (docs/telemetry.md); on when an SDK is registered. */
  telemetry?: MCPTelemetryOptions;
  /**
   * How `server.fetch()` serves (runtimes call it with the request alone, so its options live
   * here): the path, transport options, `cors` and `oauth`. `listen()` starts from these too, and
   * its own options win field by field.
   */
  http?: MCPServerHttpConfig;
}

/**
 * Options of `startHTTP()`. Session options govern legacy (2025-era) clients; 2026-07-28 has no
 * sessions. `allowedHosts`/`allowedOrigins` guard against DNS rebinding (see host-guard.ts).
 */
export interface StreamableHTTPServerTransportOptions extends HostGuardOptions {
  serverless?: boolean;
  serverlessStreaming?: boolean;
  sessionIdGenerator?: (() => string) | undefined;
  onsessioninitialized?: (sessionId: string) => void;
  enableJsonResponse?: boolean;
  eventStore?: EventStore;
}

/** What `server.fetch()` serves, and where `listen()` starts from (the `http` option). */
export interface MCPServerHttpConfig extends StreamableHTTPServerTransportOptions {
  /** The path of the MCP endpoint (both protocol eras). Default `'/mcp'`. */
  path?: string;
  /** Browser pages on these origins may call the server (transports/cors.ts). Default: none. */
  cors?: MCPServerCorsOptions;
  /**
   * OAuth 2.1 resource-server protection in front of the endpoint, as `createOAuthMiddleware`
   * gives it: the protected-resource metadata, and a valid Bearer token on every MCP request
   * (`req.auth`, then `context.mcp.extra.authInfo`, is what the token validator returned).
   */
  oauth?: OAuthProtectionOptions;
}

/** `listen()`: a `node:http` server of its own, serving the `http` option's endpoint and more. */
export interface MCPServerListenOptions extends MCPServerHttpConfig {
  /** The port; `0` picks a free one (the result's `url` says which). */
  port: number;
  /**
   * The address to listen on. Default `'127.0.0.1'`: only this machine can connect, so a server
   * started on a laptop is not reachable from its network, and the DNS-rebinding guard accepts
   * loopback names only. Pass `'0.0.0.0'` (every IPv4 address) in a container or behind a proxy,
   * and name the public host in `allowedHosts` so that foreign `Host` headers are refused.
   */
  host?: string;
  /**
   * How long `close()` lets requests in flight finish before it closes their connections.
   * Streams that stay open (SSE GET streams, 2026-07-28 listen and events streams) are closed at
   * once. Default 5,000 ms.
   */
  closeTimeoutMs?: number;
}

/** What `listen()` resolves to. */
export interface MCPServerListener {
  /** The MCP endpoint's URL, with the port actually bound (`http://127.0.0.1:3000/mcp`). */
  url: URL;
  /** Stops listening; requests in flight get `closeTimeoutMs` to finish. The MCPServer stays usable. */
  close(): Promise<void>;
}

/** The `extra` object tools receive as `context.mcp.extra` (and `requestContext.get('mcp.extra')`). */
export interface MCPRequestExtra {
  authInfo?: NonNullable<ServerContext['http']>['authInfo'];
  sessionId?: string;
  signal: AbortSignal;
  requestId: string | number;
  _meta?: Record<string, unknown>;
  sendNotification: ServerContext['mcpReq']['notify'];
  sendRequest: ServerContext['mcpReq']['send'];
}

/**
 * What every input request may carry besides its parameters. `key` names it: the key of its entry
 * in a 2026-07-28 `input_required` result (and in a task's `inputRequests`), unique over the call;
 * without one a key is generated (`elicitation-1`, `sampling-1`, `roots-1`, ...). 2025 sessions
 * send the request itself, so the key is never sent there.
 */
export interface MCPInputRequestOptions {
  key?: string;
}

/** The MCPServer reference's shape: message plus a flat requested schema; `mode` defaults to form. */
export interface ElicitationRequest extends MCPInputRequestOptions {
  message: string;
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
}

/** A `sampling/createMessage` request: the protocol's parameters, plus the request's key. */
export type MCPSamplingRequest = CreateMessageRequestParams & MCPInputRequestOptions;

/**
 * The input methods of `context.mcp` (tools and prompts): each asks the client that sent the
 * request, on its session (2025) or inside the request's `input_required` rounds (2026-07-28), and
 * resolves with the client's answer. A client that did not declare the capability a request needs
 * (form elicitation, `sampling`, `roots`) is not asked: the method rejects with the protocol's
 * `-32021` error, which the client gets in turn unless the tool catches it.
 */
export interface MCPInputContext {
  elicitation: {
    sendRequest: (
      request: (ElicitRequestFormParams & MCPInputRequestOptions) | ElicitationRequest,
    ) => Promise<ElicitResult>;
  };
  sampling: {
    /** Asks the client's model for a message (`sampling/createMessage`); with `tools`, the answer may use them. */
    createMessage: {
      (params: Omit<MCPSamplingRequest, 'tools' | 'toolChoice'>): Promise<CreateMessageResult>;
      (params: MCPSamplingRequest): Promise<CreateMessageResult | CreateMessageResultWithTools>;
    };
  };
  roots: {
    /** The client's roots (`roots/list`): the directories and files it lets the server work in. */
    list: (request?: MCPInputRequestOptions) => Promise<ListRootsResult>;
  };
}

/** What `context.mcp` holds inside a tool executed by MCPServer. */
export interface MCPToolContext extends MCPInputContext {
  extra: MCPRequestExtra;
  log: (level: LoggingLevel, message: string, data?: Record<string, unknown>) => Promise<void>;
  progress: (params: { progress: number; total?: number; message?: string }) => Promise<void>;
}

/** What `context.mcp` holds inside `getPromptMessages`: the request's `extra` and the input methods. */
export interface MCPPromptContext extends MCPInputContext {
  extra: MCPRequestExtra;
}
