/**
 * The package's one error model: every `MastraError` id it raises, each with its category, and
 * the one constructor that raises them (`mcpError`), so an id cannot be raised with a category the
 * table does not give it. The category says whose move it is: `USER` for a configuration or call
 * the application can fix, `THIRD_PARTY` for a server, network or Redis that failed, `SYSTEM` for
 * the local machine (a port that cannot be bound). It imports none of the parts, so every part
 * (client, server, proxy, redis, typegen) may import it.
 */
import { MastraError } from '@mastra/core/error';

/** The `MastraError` categories the package uses. */
export type MCPErrorCategory = 'USER' | 'THIRD_PARTY' | 'SYSTEM';

/** Each id without its `MCP_` prefix, with the category it is raised with and what raises it. */
const ERRORS = {
  // MCPClient: configuration and use
  /** A server definition `new MCPClient()` cannot use (no command or URL, both, a bad option). */
  CLIENT_INVALID_SERVER_CONFIG: 'USER',
  /** The `typegen` option is malformed. */
  CLIENT_INVALID_TYPEGEN_CONFIG: 'USER',
  /** The `webhook` option is malformed. */
  CLIENT_INVALID_WEBHOOK_CONFIG: 'USER',
  /**
   * A client-wide option unknown, of the wrong type or outside its allowed values (`toolNameSeparator`),
   * or the same of `events.subscribe()` or `MCPEventsSignalProvider` options.
   */
  CLIENT_INVALID_OPTION: 'USER',
  /** A config file (`MCPClient.fromConfig()`) that cannot be read or used: path, line and field named. */
  CLIENT_INVALID_CONFIG_FILE: 'USER',
  /** A second MCPClient with the same servers and no `id`. */
  CLIENT_MULTIPLE_INITIALIZATIONS: 'USER',
  /** A call names a server the client does not have. */
  CLIENT_UNKNOWN_SERVER: 'USER',
  /** A server URL outside `allowedHosts`. */
  CLIENT_HOST_NOT_ALLOWED: 'USER',
  /** The client was disconnected (`disconnect()`) before the operation finished. */
  CLIENT_DISCONNECTED: 'USER',
  /** The `inputRequests` handler declined or cancelled a server's input request. */
  CLIENT_INPUT_REQUEST_DECLINED: 'USER',
  /**
   * A server's input request of a kind the configured handler cannot answer (URL mode to a form-only
   * handler, tools or tool content to a sampling agent or model, tools without `capabilities.sampling.tools`).
   */
  CLIENT_INPUT_REQUEST_UNSUPPORTED: 'USER',
  /**
   * The sampling option's `onRequest` hook denied a server's sampling request: a 2025 server was
   * answered -1 "User rejected sampling request"; a 2026-07-28 call (or task) ends with this error.
   */
  CLIENT_SAMPLING_DENIED: 'USER',
  /** A list of roots MCPClient cannot use (a URI that is not `file://`), or `roots.set()` for a server without roots. */
  CLIENT_INVALID_ROOTS: 'USER',
  /** A server proxy was asked for a tool its server does not list. */
  CLIENT_PROXY_TOOL_NOT_FOUND: 'USER',
  /** A server proxy's tool was called with arguments its input schema refuses. */
  CLIENT_PROXY_INVALID_TOOL_INPUT: 'USER',
  /** A tool was called with arguments its input schema refuses (checked before the call is sent). */
  CLIENT_INVALID_TOOL_ARGUMENTS: 'USER',
  // MCPClient: what a server did
  /** A server could not be connected to (its cause in words). */
  CLIENT_CONNECT_FAILED: 'THIRD_PARTY',
  /**
   * A stdio server's process ended on its own during a connect: how it ended and what it printed
   * (the cause of an `MCP_CLIENT_CONNECT_FAILED`; the handshake's error is its own cause).
   */
  CLIENT_STDIO_SERVER_EXITED: 'THIRD_PARTY',
  /**
   * A server did not answer within `perServerTimeoutMs` of a `*WithErrors` call, whose work was
   * abandoned; reported in `errorDetails` with code `REQUEST_TIMEOUT`.
   */
  CLIENT_REQUEST_TIMEOUT: 'THIRD_PARTY',
  /** A listed tool's definition is unusable (a schema over the budgets or invalid). */
  CLIENT_INVALID_TOOL_DEFINITION: 'THIRD_PARTY',
  /** A server's JSON Schema declares a `$schema` dialect the client's validator does not support. */
  CLIENT_UNSUPPORTED_SCHEMA_DIALECT: 'THIRD_PARTY',
  /** `tools/call` failed (transport or protocol error). */
  CLIENT_TOOL_CALL_FAILED: 'THIRD_PARTY',
  /** A tool answered with `isError`. */
  CLIENT_TOOL_ERROR: 'THIRD_PARTY',
  /** A task (Tasks extension) ended `failed`: the server's JSON-RPC error is in the details. */
  CLIENT_TASK_FAILED: 'THIRD_PARTY',
  /** A task ended `cancelled` (by this client's abort signal, `tasks.cancel()`, or the server). */
  CLIENT_TASK_CANCELLED: 'USER',
  /** The server does not know the task (never created, expired, or another caller's). */
  CLIENT_TASK_NOT_FOUND: 'THIRD_PARTY',
  /** `mcp.tasks` on a server that does not offer the Tasks extension (2026-07-28 and the capability). */
  CLIENT_TASKS_NOT_SUPPORTED: 'USER',
  /** A task asked for input, and no `inputRequests` handler could answer. */
  CLIENT_TASK_INPUT_UNANSWERED: 'USER',
  /** The sampling handler, agent or model failed to answer a server's sampling request (the cause says why). */
  CLIENT_SAMPLING_FAILED: 'THIRD_PARTY',
  /** A server asked for more sampling at once than `sampling.maxConcurrent` allows; the extra request was refused. */
  CLIENT_SAMPLING_LIMIT: 'THIRD_PARTY',
  /** `resources/read` failed. */
  CLIENT_READ_RESOURCE_FAILED: 'THIRD_PARTY',
  /** A resource subscription the server does not offer, or one that failed or was not honoured. */
  CLIENT_SUBSCRIBE_RESOURCE_FAILED: 'THIRD_PARTY',
  /** `resources/list` or `resources/templates/list` failed. */
  CLIENT_LIST_RESOURCES_FAILED: 'THIRD_PARTY',
  /** A skills operation on a server that does not declare the Skills extension. */
  CLIENT_SKILLS_NOT_SUPPORTED: 'USER',
  /** `skills/list` failed, or listed more skills than `skills.maxSkills`. */
  CLIENT_LIST_SKILLS_FAILED: 'THIRD_PARTY',
  /** `skills/get` failed, or returned an invalid entry or one over the extension's limits. */
  CLIENT_GET_SKILL_FAILED: 'THIRD_PARTY',
  /** A skill file could not be read, failed verification against its entry (refreshed once), or its path was refused. */
  CLIENT_READ_SKILL_FAILED: 'THIRD_PARTY',
  /** `prompts/get` failed. */
  CLIENT_GET_PROMPT_FAILED: 'THIRD_PARTY',
  /** `prompts/list` failed. */
  CLIENT_LIST_PROMPTS_FAILED: 'THIRD_PARTY',
  /** `toMCPServerProxies()` could not build a proxy for every server. */
  CLIENT_SERVER_PROXY_FAILED: 'THIRD_PARTY',
  /** `events.list()` failed; the reason is the cause. */
  CLIENT_LIST_EVENTS_FAILED: 'THIRD_PARTY',
  /** `events.subscribe()` failed; the reason is the cause. */
  CLIENT_SUBSCRIBE_EVENT_FAILED: 'THIRD_PARTY',
  // MCPClient: authorization
  /** The server wants authorization the client has not got. */
  CLIENT_AUTH_REQUIRED: 'THIRD_PARTY',
  /** Authorization with the server failed. */
  CLIENT_AUTH_FAILED: 'THIRD_PARTY',
  /** `authenticate()` cannot authorize this server; the message says why. */
  CLIENT_AUTH_NOT_SUPPORTED: 'USER',
  /** `authenticate()` got a timeout that is not a positive number. */
  CLIENT_AUTH_INVALID_TIMEOUT: 'USER',
  /** The authorization flow was cancelled. */
  CLIENT_AUTH_CANCELLED: 'USER',
  /** The user did not complete the authorization flow in time. */
  CLIENT_AUTH_TIMEOUT: 'USER',
  /** The options of `MCPOAuthClientProvider` or `createSimpleTokenProvider` are malformed. */
  CLIENT_OAUTH_INVALID_CONFIG: 'USER',
  /** The OAuth redirect URL is not usable. */
  CLIENT_OAUTH_INVALID_REDIRECT_URL: 'USER',
  /** The authorization server accepts none of the provider's ways to name its client (pre-registered, CIMD, or registration at runtime). */
  CLIENT_OAUTH_NO_CLIENT_IDENTITY: 'USER',
  /** The flow needs a redirect and no handler opens one. */
  CLIENT_OAUTH_NO_REDIRECT_HANDLER: 'USER',
  /** A code exchange without the PKCE verifier of its flow. */
  CLIENT_OAUTH_NO_CODE_VERIFIER: 'USER',
  /** A second flow on an OAuth provider that is in one. */
  CLIENT_OAUTH_PROVIDER_BUSY: 'USER',
  /** The callback server was given no `state` to expect (a callback with a foreign one is answered 400 and ignored). */
  CLIENT_OAUTH_INVALID_STATE: 'USER',
  /** The authorization server answered the callback with an error. */
  CLIENT_OAUTH_AUTHORIZATION_FAILED: 'THIRD_PARTY',
  /** The callback listener was closed before the flow ended. */
  CLIENT_OAUTH_CALLBACK_CLOSED: 'USER',
  /** The callback listener could not listen. */
  CLIENT_OAUTH_CALLBACK_LISTEN_FAILED: 'SYSTEM',
  /** The callback port is taken. */
  CLIENT_OAUTH_CALLBACK_PORT_IN_USE: 'SYSTEM',
  // MCPClient: events
  /** The server does not offer MCP Events. */
  EVENTS_NOT_SUPPORTED: 'THIRD_PARTY',
  /** No delivery mode both sides support. */
  EVENTS_NO_COMPATIBLE_DELIVERY_MODE: 'THIRD_PARTY',
  /** Webhook delivery asked for without the client's `webhook` option. */
  EVENTS_WEBHOOK_NOT_CONFIGURED: 'USER',
  /** `generateWebhookSecret` asked for a key size the webhook signature scheme does not accept. */
  EVENTS_INVALID_WEBHOOK_SECRET_SIZE: 'USER',
  /** An events tool used by an agent without memory. */
  EVENTS_TOOL_NEEDS_MEMORY: 'USER',
  /** A subscription ended on an answer retrying cannot change. */
  EVENTS_SUBSCRIPTION_FAILED: 'THIRD_PARTY',
  /** The server terminated a subscription. */
  EVENTS_SUBSCRIPTION_TERMINATED: 'THIRD_PARTY',
  /** A subscription gave up after its retries. */
  EVENTS_RETRIES_EXHAUSTED: 'THIRD_PARTY',
  /** More occurrences waited to be read than `maxBufferedEvents`; the oldest was dropped. */
  EVENTS_BUFFER_OVERFLOW: 'THIRD_PARTY',
  /** The server refused webhook delivery; another mode is used. */
  EVENTS_WEBHOOK_UNAVAILABLE: 'THIRD_PARTY',
  /** The server reports webhook deliveries failing. */
  EVENTS_WEBHOOK_DELIVERY_FAILING: 'THIRD_PARTY',
  /** Delivery was interrupted and is being retried. */
  EVENTS_DELIVERY_INTERRUPTED: 'THIRD_PARTY',
  /** The server reported a problem on a push stream. */
  EVENTS_SERVER_ERROR: 'THIRD_PARTY',
  /** A webhook delivery could not be queued. */
  EVENTS_WEBHOOK_ENQUEUE_FAILED: 'THIRD_PARTY',
  // MCPServer
  /** An MCPServer option (constructor or `startHTTP()`) unknown or of the wrong type, outside the groups below. */
  SERVER_INVALID_OPTION: 'USER',
  /** The `limits` option is malformed. */
  SERVER_INVALID_LIMITS_OPTION: 'USER',
  /** The `requestState` option is malformed. */
  SERVER_INVALID_REQUEST_STATE_OPTION: 'USER',
  /** An `appResources` entry is malformed or cannot be loaded. */
  SERVER_APP_RESOURCE_INVALID: 'USER',
  /** `notifications.bus` on a server without an `id`. */
  SERVER_NOTIFICATION_BUS_NEEDS_ID: 'USER',
  /** `executeTool()` named a tool the server does not publish. */
  SERVER_TOOL_NOT_FOUND: 'USER',
  /** `server.elicitation.sendRequest()` outside a tool call. */
  SERVER_ELICITATION_NEEDS_TOOL_CONTEXT: 'USER',
  /** A tool or prompt asked for input on a server in serverless (stateless) mode, which has no session to ask on. */
  SERVER_ELICITATION_UNAVAILABLE: 'USER',
  /** A tool or prompt asked the client to sample (`context.mcp.sampling`) where no session or suspended call can carry it (serverless, stateless). */
  SERVER_SAMPLING_UNAVAILABLE: 'USER',
  /** A tool or prompt asked for the client's roots (`context.mcp.roots`) where no session or suspended call can carry it (serverless, stateless). */
  SERVER_ROOTS_UNAVAILABLE: 'USER',
  /** A tool or prompt named an input request with an empty `key`, or with one it already used in the same call. */
  SERVER_INVALID_INPUT_KEY: 'USER',
  /** A sampling or roots request of a suspended call got no answer before `limits.suspendedCallTimeoutMs` passed (or the server closed). */
  SERVER_INPUT_REQUEST_UNANSWERED: 'THIRD_PARTY',
  /** A second `startStdio()` on a server (or server proxy) already serving stdio. */
  SERVER_ALREADY_SERVING_STDIO: 'USER',
  /** `readResource()` on a server configured without resources. */
  SERVER_NO_RESOURCES: 'USER',
  /** An agent without a description, which its `ask_<agent>` tool needs. */
  SERVER_AGENT_DESCRIPTION_MISSING: 'USER',
  /** A workflow without a description, which its `run_<workflow>` tool needs. */
  SERVER_WORKFLOW_DESCRIPTION_MISSING: 'USER',
  /** A tool the server cannot publish: not a tool object, a schema that cannot be converted, conflicting UI links. */
  SERVER_INVALID_TOOL: 'USER',
  /** A published tool has no `execute` function. */
  SERVER_TOOL_NOT_EXECUTABLE: 'USER',
  /** `executeTool()` was given arguments the tool's input schema (or a run's resume schema) refuses. */
  SERVER_INVALID_TOOL_ARGUMENTS: 'USER',
  /** A tool's output failed its own output validation. */
  SERVER_TOOL_OUTPUT_INVALID: 'USER',
  /** The workflow behind a `run_<workflow>` tool failed; its error is the cause. */
  SERVER_WORKFLOW_FAILED: 'USER',
  /**
   * A resource, prompt or completion callback the server was configured with threw (its error is
   * the cause): `readResource()` and the like reject with it; a client gets its text, or only what
   * failed with `redactErrors`.
   */
  SERVER_CALLBACK_FAILED: 'USER',
  /** The OAuth options (resource, authorization servers) are malformed. */
  SERVER_INVALID_OAUTH_CONFIG: 'USER',
  /** A value `listen()` or the `http` option (what `server.fetch()` serves) cannot serve with: a path, a `cors` origin, a port. */
  SERVER_INVALID_HTTP_OPTION: 'USER',
  /** `listen()` could not listen: the port is taken, or the address is not this machine's. */
  SERVER_LISTEN_FAILED: 'SYSTEM',
  /** An RFC 7662 introspection endpoint failed or answered nonsense. */
  SERVER_TOKEN_INTROSPECTION_FAILED: 'THIRD_PARTY',
  /** The `events` option (or an `events.define()` type) has an unknown key or a value of the wrong type. */
  SERVER_INVALID_EVENTS_OPTION: 'USER',
  /** `events.define()` on a server without the `events` option. */
  SERVER_EVENTS_NOT_CONFIGURED: 'USER',
  /** `events.define()` of a type without a name or without any delivery mode this server offers. */
  SERVER_INVALID_EVENT_TYPE: 'USER',
  /** `events.emit()` with data that is not a JSON object or fails the type's payload schema. */
  SERVER_INVALID_EVENT_DATA: 'USER',
  /** `events.emit()` after the server closed. */
  SERVER_EVENTS_CLOSED: 'USER',
  /** `events.emit()` of an event type that is not defined. */
  SERVER_UNKNOWN_EVENT_TYPE: 'USER',
  /** The `tasks` option is malformed (an unknown support value, a tool it does not serve, a bad number). */
  SERVER_INVALID_TASKS_OPTION: 'USER',
  /** The in-memory task store is full of unfinished tasks (its `maxTasks` option). */
  SERVER_TASKS_STORE_FULL: 'USER',
  /** The `skills` option has an unknown key or a value of the wrong type. */
  SERVER_INVALID_SKILLS_OPTION: 'USER',
  /**
   * A skill MCPServer cannot publish (the Skills extension, SEP-2640): frontmatter the Agent Skills
   * specification does not allow, over the per-skill limits (512 files, 16 MiB), a symlink or a path
   * that leaves its folder, a folder or source that cannot be read, two skills at one URI. The
   * message names the skill and what to fix.
   */
  SERVER_SKILL_INVALID: 'USER',
  // Redis stores
  /** A Redis store option is malformed. */
  REDIS_INVALID_OPTION: 'USER',
  /** Redis did not answer in time, or was not connected. */
  REDIS_UNAVAILABLE: 'THIRD_PARTY',
  /** Redis answered a command with an error. */
  REDIS_COMMAND_FAILED: 'THIRD_PARTY',
  /** A message on a Redis channel this package did not write (or wrote in another format); it was dropped. */
  REDIS_MALFORMED_MESSAGE: 'THIRD_PARTY',
} as const satisfies Record<string, MCPErrorCategory>;

type ErrorKey = keyof typeof ERRORS;

/**
 * The id of every error the package raises (`error.id`), keyed by the id without its `MCP_`
 * prefix: branch on `error.id === MCPErrorCode.CLIENT_CONNECT_FAILED` rather than on a literal.
 */
export const MCPErrorCode = Object.freeze(
  Object.fromEntries(Object.keys(ERRORS).map((key) => [key, `MCP_${key}`])),
) as { readonly [K in ErrorKey]: `MCP_${K}` };

/** One of the ids in {@link MCPErrorCode}. */
export type MCPErrorCode = (typeof MCPErrorCode)[ErrorKey];

/** The category each id is raised with. */
export const MCPErrorCategories = Object.freeze(
  Object.fromEntries(Object.entries(ERRORS).map(([key, category]) => [`MCP_${key}`, category])),
) as Readonly<Record<MCPErrorCode, MCPErrorCategory>>;

/** What an error carries besides its text; absent values are left out. */
export type MCPErrorDetails = Record<string, string | number | boolean | undefined>;

/**
 * What a `MastraError` with id `code` is made of: domain `MCP`, the category
 * {@link MCPErrorCategories} gives the id, and `details` without its absent values. Subclasses that
 * must be found by type (`HostNotAllowedError`, `ToolArgumentsError`, ...) pass it to `super`.
 */
export function mcpErrorDefinition(code: MCPErrorCode, text: string, details: MCPErrorDetails = {}) {
  const clean = Object.fromEntries(
    Object.entries(details).filter(([, value]) => value !== undefined),
  ) as Record<string, string | number | boolean>;
  return { id: code, domain: 'MCP' as const, category: MCPErrorCategories[code], text, details: clean };
}

/**
 * The package's `MastraError` with id `code`, domain `MCP` and the category
 * {@link MCPErrorCategories} gives the id. Every error is raised through it, except the
 * subclasses that must be found by type (`HostNotAllowedError`, `StdioExitError`,
 * `ToolArgumentsError`, `CallbackError`), which are made of
 * {@link mcpErrorDefinition} and so read their category from the same table.
 */
export function mcpError(
  code: MCPErrorCode,
  text: string,
  details: MCPErrorDetails = {},
  cause?: unknown,
): MastraError {
  return new MastraError(mcpErrorDefinition(code, text, details), cause);
}

/**
 * A thrown value as an Error, for a callback or API typed `Error` (a transport's `onerror`, a
 * span's error, a listener's `onError`): an Error as it is, anything else wrapped in one.
 */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
