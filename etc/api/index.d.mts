// The public API of this entry as its built declarations declare it: scripts/api-report.ts
// wrote this file (npm run api:update); review every change to it.
export {
  AppResource,
  AppResources,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  DEFAULT_LIMITS,
  ElicitResult,
  type ElicitationHandler,
  ElicitationRequest,
  type FanOutErrors,
  type HttpServerDefinition,
  InMemoryMCPEventCursorStore,
  InMemoryMCPEventStore,
  InMemoryMCPEventStoreOptions,
  InMemoryMCPTaskStore,
  InMemoryMCPTaskStoreOptions,
  InMemoryOAuthStorage,
  IntrospectionValidatorOptions,
  type LogHandler,
  type LogMessage,
  type LoggingLevel,
  MCPClient,
  type MCPClientCapabilities,
  type MCPClientConfigOptions,
  type MCPClientElicitation,
  type MCPClientEvents,
  type MCPClientOptions,
  type MCPClientProgress,
  type MCPClientPrompts,
  type MCPClientResources,
  type MCPClientRoots,
  type MCPClientRootsOption,
  type MCPClientSamplingOption,
  MCPClientServerProxy,
  type MCPClientSkillEntry,
  type MCPClientSkills,
  type MCPClientSkillsOptions,
  type MCPClientTasks,
  type MCPClientTools,
  type MCPClientWebhookOptions,
  type MCPConfig,
  type MCPConfigInput,
  type MCPConfigServer,
  type MCPElicitationRequest,
  MCPEmitOptions,
  MCPEmittedEvent,
  MCPErrorCategories,
  MCPErrorCategory,
  MCPErrorCode,
  type MCPErrorDetail,
  type MCPErrorDetailCode,
  MCPEventAuthorizationRequest,
  EventCursor as MCPEventCursor,
  type MCPEventCursorStore,
  type EventDeliveryMode as MCPEventDeliveryMode,
  type MCPEventDeliveryStatus,
  type MCPEventDescriptor,
  type MCPEventErrorHandler,
  MCPEventOccurrence,
  type MCPEventRetryOptions,
  type MCPEventSourceInit,
  MCPEventStore,
  MCPEventStoreFilter,
  MCPEventStoreReadResult,
  type MCPEventSubscribeOptions,
  type MCPEventSubscription,
  MCPEventTypeConfig,
  MCPEventTypes,
  type MCPEventsErrorInfo,
  MCPEventsSignalProvider,
  type MCPEventsSignalProviderOptions,
  type MCPEventsSubscriptionInput,
  type MCPEventsThread,
  type MCPGetPromptResult,
  MCPInputContext,
  type MCPInputRequest,
  type MCPInputRequestHandler,
  MCPInputRequestOptions,
  type MCPMastraSkillsOptions,
  MCPMeterProvider,
  MCPOAuthClientProvider,
  type MCPOAuthClientProviderOptions,
  type MCPProgressUpdate,
  type MCPPrompt,
  MCPPromptContext,
  type MCPPromptsWithErrors,
  type MCPReadResourceResult,
  type MCPReceivedEvent,
  MCPRequestExtra,
  type MCPResourceContents,
  type MCPResourceTemplatesWithErrors,
  type MCPResourcesWithErrors,
  type MCPRoot,
  type MCPRootsProvider,
  type MCPSamplingApproval,
  type MCPSamplingContext,
  type MCPSamplingDecision,
  type MCPSamplingHandler,
  type MCPSamplingModel,
  type MCPSamplingOptions,
  MCPSamplingRequest,
  MCPServer,
  MCPServerBusEvent,
  MCPServerCompletion,
  MCPServerCompletionRequest,
  MCPServerConfig$1 as MCPServerConfig,
  type MCPServerConfigOverrides,
  MCPServerEventBus,
  MCPServerEventBusListener,
  MCPServerEventBusMember,
  MCPServerEvents,
  MCPServerEventsConfig,
  type MCPServerHonoSSEStartOptions,
  type MCPServerImplementation,
  MCPServerLimits,
  MCPServerPrompts,
  MCPServerRequestStateOptions,
  MCPServerResourceContent,
  MCPServerResources,
  MCPServerSkills,
  MCPServerSkillsApi,
  MCPServerSkillsConfig,
  MCPServerTasksConfig,
  type MCPServerTypes,
  MCPServerWebhookOptions,
  MCPServerWebhookRetryOptions,
  MCPSkillEntry,
  type MCPSkillFile,
  type MCPSkillSelector,
  MCPSkillSourceConfig,
  MCPSkillsAgent,
  type MCPSkillsWithErrors,
  type MCPSkillsWorkspace,
  MCPStoredEvent,
  MCPStoredTask,
  type MCPTask,
  MCPTaskSignal,
  type MCPTaskStart,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskSupport,
  MCPTaskUpdate,
  type MCPTaskWaitOptions,
  MCPTelemetryOptions,
  type MCPTool,
  MCPToolContext,
  type MCPToolDefinition,
  type MCPToolDefinitionsWithErrors,
  type MCPToolExecuteResult,
  type MCPToolMap,
  type MCPToolTaskSupport,
  type MCPToolsWithErrors,
  type MCPToolsetMap,
  type MCPToolsetsWithErrors,
  type MCPTraceContext,
  MCPTracerProvider,
  type MCPTypedTool,
  MCPUiResourceCsp,
  MCPUiResourcePermissions,
  WebhookErrorCategory as MCPWebhookErrorCategory,
  MCPWebhookQueue,
  MCP_APPS_EXTENSION_ID,
  MCP_APP_MIME_TYPE,
  MCP_INSTANCE_ID_HEADER,
  type MastraFetchLike,
  type MastraMCPServerDefinition,
  McpUiResourceMeta,
  type OAuthCallbackResult,
  type OAuthCallbackServer,
  type OAuthCallbackServerOptions,
  OAuthMiddleware,
  OAuthMiddlewareOptions,
  OAuthProtectionOptions,
  type OAuthStorage,
  Prompt$1 as Prompt,
  PromptMessage,
  RequestStateKey,
  type RequireToolApprovalContext,
  Resource,
  ResourceTemplate,
  RoutableRequest,
  SSETransport,
  type ServerAuthState,
  type SimpleTokenProviderOptions,
  type StdioServerDefinition,
  StreamableHTTPServerTransportOptions,
  TokenValidationResult,
  TokenValidator,
  ToolInfo,
  WRONG_INSTANCE_REASON,
  WebhookDelivery,
  WebhookDeliveryContext,
  WebhookDeliveryOptions,
  WebhookEventLog,
  WebhookEventType,
  WebhookEventTypes,
  WebhookMessage,
  WebhookOutcome,
  WebhookPoster,
  WebhookRecord,
  WebhookRefresh,
  WebhookRegistry,
  WebhookReport,
  WebhookSubscription,
  type WithErrorsOptions,
  createIntrospectionValidator,
  createOAuthCallbackServer,
  createOAuthMiddleware,
  createSimpleTokenProvider,
  createStaticTokenValidator,
  getCallbackUrlCandidates,
  requestStateInstance,
  requestUrl,
  taskSupportOf,
};
interface AppResource {
    name: string;
    description?: string;
    html?: string;
    htmlPath?: string;
    meta?: McpUiResourceMeta;
}
type AppResources = Record<string, AppResource>;
type AuthenticatedRequest = IncomingMessage & {
    auth?: AuthInfo;
    body?: unknown;
};
interface BaseServerOptions {
    logger?: LogHandler;
    timeout?: number;
    protocolVersion?: '2026-07-28' | 'legacy';
    clientInfo?: {
        name?: string;
        version?: string;
    };
    capabilities?: MCPClientCapabilities;
    inputRequests?: MCPInputRequestHandler;
    sampling?: MCPClientSamplingOption;
    roots?: MCPClientRootsOption;
    enableServerLogs?: boolean;
    serverLogLevel?: LoggingLevel;
    enableProgressTracking?: boolean;
    traceContext?: () => MCPTraceContext | undefined;
    forwardInstructions?: boolean;
    instructionsMaxLength?: number;
    requireToolApproval?: boolean | ((params: RequireToolApprovalContext) => boolean | Promise<boolean>);
    onToolError?: 'throw' | 'return';
    jsonSchemaValidator?: jsonSchemaValidator;
    maxPatternInstructions?: number;
    maxMessageBytes?: number;
    toolPrefix?: string;
    includeTools?: string[];
    excludeTools?: string[];
}
declare const DEFAULT_LIMITS: ResolvedLimits;
type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;
declare const DeliveryStatusSchema: z.ZodObject<{
    active: z.ZodBoolean;
    lastDeliveryAt: z.ZodNullable<z.ZodString>;
    lastError: z.ZodNullable<z.ZodEnum<{
        connection_refused: "connection_refused";
        timeout: "timeout";
        tls_error: "tls_error";
        http_4xx: "http_4xx";
        http_5xx: "http_5xx";
        challenge_failed: "challenge_failed";
    }>>;
    failedSince: z.ZodOptional<z.ZodNullable<z.ZodString>>;
    throttled: z.ZodOptional<z.ZodBoolean>;
    retryAfterMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$loose>;
interface DetailedTask extends Task {
    inputRequests?: Record<string, TaskInputRequest>;
    result?: Record<string, unknown>;
    error?: TaskError;
    _meta?: Record<string, unknown>;
}
declare const ERRORS: {
    readonly CLIENT_INVALID_SERVER_CONFIG: "USER";
    readonly CLIENT_INVALID_TYPEGEN_CONFIG: "USER";
    readonly CLIENT_INVALID_WEBHOOK_CONFIG: "USER";
    readonly CLIENT_INVALID_OPTION: "USER";
    readonly CLIENT_INVALID_CONFIG_FILE: "USER";
    readonly CLIENT_MULTIPLE_INITIALIZATIONS: "USER";
    readonly CLIENT_UNKNOWN_SERVER: "USER";
    readonly CLIENT_HOST_NOT_ALLOWED: "USER";
    readonly CLIENT_DISCONNECTED: "USER";
    readonly CLIENT_INPUT_REQUEST_DECLINED: "USER";
    readonly CLIENT_INPUT_REQUEST_UNSUPPORTED: "USER";
    readonly CLIENT_SAMPLING_DENIED: "USER";
    readonly CLIENT_INVALID_ROOTS: "USER";
    readonly CLIENT_PROXY_TOOL_NOT_FOUND: "USER";
    readonly CLIENT_PROXY_INVALID_TOOL_INPUT: "USER";
    readonly CLIENT_INVALID_TOOL_ARGUMENTS: "USER";
    readonly CLIENT_CONNECT_FAILED: "THIRD_PARTY";
    readonly CLIENT_STDIO_SERVER_EXITED: "THIRD_PARTY";
    readonly CLIENT_REQUEST_TIMEOUT: "THIRD_PARTY";
    readonly CLIENT_INVALID_TOOL_DEFINITION: "THIRD_PARTY";
    readonly CLIENT_UNSUPPORTED_SCHEMA_DIALECT: "THIRD_PARTY";
    readonly CLIENT_TOOL_CALL_FAILED: "THIRD_PARTY";
    readonly CLIENT_TOOL_ERROR: "THIRD_PARTY";
    readonly CLIENT_TASK_FAILED: "THIRD_PARTY";
    readonly CLIENT_TASK_CANCELLED: "USER";
    readonly CLIENT_TASK_NOT_FOUND: "THIRD_PARTY";
    readonly CLIENT_TASKS_NOT_SUPPORTED: "USER";
    readonly CLIENT_TASK_INPUT_UNANSWERED: "USER";
    readonly CLIENT_SAMPLING_FAILED: "THIRD_PARTY";
    readonly CLIENT_SAMPLING_LIMIT: "THIRD_PARTY";
    readonly CLIENT_READ_RESOURCE_FAILED: "THIRD_PARTY";
    readonly CLIENT_SUBSCRIBE_RESOURCE_FAILED: "THIRD_PARTY";
    readonly CLIENT_LIST_RESOURCES_FAILED: "THIRD_PARTY";
    readonly CLIENT_SKILLS_NOT_SUPPORTED: "USER";
    readonly CLIENT_LIST_SKILLS_FAILED: "THIRD_PARTY";
    readonly CLIENT_GET_SKILL_FAILED: "THIRD_PARTY";
    readonly CLIENT_READ_SKILL_FAILED: "THIRD_PARTY";
    readonly CLIENT_GET_PROMPT_FAILED: "THIRD_PARTY";
    readonly CLIENT_LIST_PROMPTS_FAILED: "THIRD_PARTY";
    readonly CLIENT_SERVER_PROXY_FAILED: "THIRD_PARTY";
    readonly CLIENT_LIST_EVENTS_FAILED: "THIRD_PARTY";
    readonly CLIENT_SUBSCRIBE_EVENT_FAILED: "THIRD_PARTY";
    readonly CLIENT_AUTH_REQUIRED: "THIRD_PARTY";
    readonly CLIENT_AUTH_FAILED: "THIRD_PARTY";
    readonly CLIENT_AUTH_NOT_SUPPORTED: "USER";
    readonly CLIENT_AUTH_INVALID_TIMEOUT: "USER";
    readonly CLIENT_AUTH_CANCELLED: "USER";
    readonly CLIENT_AUTH_TIMEOUT: "USER";
    readonly CLIENT_OAUTH_INVALID_CONFIG: "USER";
    readonly CLIENT_OAUTH_INVALID_REDIRECT_URL: "USER";
    readonly CLIENT_OAUTH_NO_CLIENT_IDENTITY: "USER";
    readonly CLIENT_OAUTH_NO_REDIRECT_HANDLER: "USER";
    readonly CLIENT_OAUTH_NO_CODE_VERIFIER: "USER";
    readonly CLIENT_OAUTH_PROVIDER_BUSY: "USER";
    readonly CLIENT_OAUTH_INVALID_STATE: "USER";
    readonly CLIENT_OAUTH_AUTHORIZATION_FAILED: "THIRD_PARTY";
    readonly CLIENT_OAUTH_CALLBACK_CLOSED: "USER";
    readonly CLIENT_OAUTH_CALLBACK_LISTEN_FAILED: "SYSTEM";
    readonly CLIENT_OAUTH_CALLBACK_PORT_IN_USE: "SYSTEM";
    readonly EVENTS_NOT_SUPPORTED: "THIRD_PARTY";
    readonly EVENTS_NO_COMPATIBLE_DELIVERY_MODE: "THIRD_PARTY";
    readonly EVENTS_WEBHOOK_NOT_CONFIGURED: "USER";
    readonly EVENTS_INVALID_WEBHOOK_SECRET_SIZE: "USER";
    readonly EVENTS_TOOL_NEEDS_MEMORY: "USER";
    readonly EVENTS_SUBSCRIPTION_FAILED: "THIRD_PARTY";
    readonly EVENTS_SUBSCRIPTION_TERMINATED: "THIRD_PARTY";
    readonly EVENTS_RETRIES_EXHAUSTED: "THIRD_PARTY";
    readonly EVENTS_BUFFER_OVERFLOW: "THIRD_PARTY";
    readonly EVENTS_WEBHOOK_UNAVAILABLE: "THIRD_PARTY";
    readonly EVENTS_WEBHOOK_DELIVERY_FAILING: "THIRD_PARTY";
    readonly EVENTS_DELIVERY_INTERRUPTED: "THIRD_PARTY";
    readonly EVENTS_SERVER_ERROR: "THIRD_PARTY";
    readonly EVENTS_WEBHOOK_ENQUEUE_FAILED: "THIRD_PARTY";
    readonly SERVER_INVALID_OPTION: "USER";
    readonly SERVER_INVALID_LIMITS_OPTION: "USER";
    readonly SERVER_INVALID_REQUEST_STATE_OPTION: "USER";
    readonly SERVER_APP_RESOURCE_INVALID: "USER";
    readonly SERVER_NOTIFICATION_BUS_NEEDS_ID: "USER";
    readonly SERVER_TOOL_NOT_FOUND: "USER";
    readonly SERVER_ELICITATION_NEEDS_TOOL_CONTEXT: "USER";
    readonly SERVER_ELICITATION_UNAVAILABLE: "USER";
    readonly SERVER_SAMPLING_UNAVAILABLE: "USER";
    readonly SERVER_ROOTS_UNAVAILABLE: "USER";
    readonly SERVER_INVALID_INPUT_KEY: "USER";
    readonly SERVER_INPUT_REQUEST_UNANSWERED: "THIRD_PARTY";
    readonly SERVER_ALREADY_SERVING_STDIO: "USER";
    readonly SERVER_NO_RESOURCES: "USER";
    readonly SERVER_AGENT_DESCRIPTION_MISSING: "USER";
    readonly SERVER_WORKFLOW_DESCRIPTION_MISSING: "USER";
    readonly SERVER_INVALID_TOOL: "USER";
    readonly SERVER_TOOL_NOT_EXECUTABLE: "USER";
    readonly SERVER_INVALID_TOOL_ARGUMENTS: "USER";
    readonly SERVER_TOOL_OUTPUT_INVALID: "USER";
    readonly SERVER_WORKFLOW_FAILED: "USER";
    readonly SERVER_CALLBACK_FAILED: "USER";
    readonly SERVER_INVALID_OAUTH_CONFIG: "USER";
    readonly SERVER_INVALID_HTTP_OPTION: "USER";
    readonly SERVER_LISTEN_FAILED: "SYSTEM";
    readonly SERVER_TOKEN_INTROSPECTION_FAILED: "THIRD_PARTY";
    readonly SERVER_INVALID_EVENTS_OPTION: "USER";
    readonly SERVER_EVENTS_NOT_CONFIGURED: "USER";
    readonly SERVER_INVALID_EVENT_TYPE: "USER";
    readonly SERVER_INVALID_EVENT_DATA: "USER";
    readonly SERVER_EVENTS_CLOSED: "USER";
    readonly SERVER_UNKNOWN_EVENT_TYPE: "USER";
    readonly SERVER_INVALID_TASKS_OPTION: "USER";
    readonly SERVER_TASKS_STORE_FULL: "USER";
    readonly SERVER_INVALID_SKILLS_OPTION: "USER";
    readonly SERVER_SKILL_INVALID: "USER";
    readonly REDIS_INVALID_OPTION: "USER";
    readonly REDIS_UNAVAILABLE: "THIRD_PARTY";
    readonly REDIS_COMMAND_FAILED: "THIRD_PARTY";
    readonly REDIS_MALFORMED_MESSAGE: "THIRD_PARTY";
};
type ElicitationHandler = (request: MCPElicitationRequest) => ElicitResult | Promise<ElicitResult>;
interface ElicitationRequest extends MCPInputRequestOptions {
    message: string;
    requestedSchema: ElicitRequestFormParams['requestedSchema'];
}
type ErrorKey = keyof typeof ERRORS;
type EventCursor = string | null;
type EventDeliveryMode = z.infer<typeof EventDeliveryModeSchema>;
declare const EventDeliveryModeSchema: z.ZodEnum<{
    poll: "poll";
    push: "push";
    webhook: "webhook";
}>;
interface EventSelection {
    server: string;
    event: string;
    args?: Record<string, unknown> | undefined;
}
interface EventThread {
    resourceId: string;
    threadId: string;
}
interface FanOutErrors {
    errors: Record<string, string>;
    errorDetails: Record<string, MCPErrorDetail>;
    durations?: Record<string, number>;
}
interface HostGuardOptions {
    allowedHosts?: string[];
    allowedOrigins?: string[];
    enableDnsRebindingProtection?: boolean;
}
interface HttpServerDefinition extends BaseServerOptions {
    url: URL;
    requestInit?: RequestInit;
    eventSourceInit?: MCPEventSourceInit;
    transport?: 'streamable-http' | 'sse';
    fetch?: MastraFetchLike;
    allowedHosts?: string[];
    authProvider?: OAuthClientProvider;
    command?: never;
}
declare const INTERACTIVE: unique symbol;
declare class InMemoryMCPEventCursorStore implements MCPEventCursorStore {
    private readonly cursors;
    get(key: string): Promise<string | null>;
    set(key: string, cursor: string): Promise<void>;
    delete(key: string): Promise<void>;
}
declare class InMemoryMCPEventStore implements MCPEventStore {
    readonly epoch: `${string}-${string}-${string}-${string}-${string}`;
    private seq;
    private readonly logs;
    private readonly listeners;
    private readonly maxEvents;
    private readonly maxAgeMs;
    constructor(options?: InMemoryMCPEventStoreOptions);
    append(occurrence: MCPEventOccurrence): Promise<MCPStoredEvent>;
    readAfter(after: string, filter: MCPEventStoreFilter, limit: number): Promise<MCPEventStoreReadResult>;
    head(): Promise<string>;
    watch(listener: (name: string) => void): () => void;
    private log;
    private prune;
    private parse;
}
interface InMemoryMCPEventStoreOptions {
    maxEvents?: number;
    maxAgeMs?: number;
}
declare class InMemoryMCPTaskStore implements MCPTaskStore {
    private readonly tasks;
    private readonly listeners;
    private readonly finished;
    private readonly finishedBy;
    private readonly maxTasks;
    private readonly maxFinishedTasksPerPrincipal;
    private readonly maxFinishedTaskBytes;
    private readonly maxFinishedTaskBytesPerPrincipal;
    private sweeper;
    private sweepAt;
    constructor(options?: InMemoryMCPTaskStoreOptions);
    get size(): number;
    get finishedBytes(): number;
    create(task: MCPStoredTask): Promise<void>;
    get(taskId: string): Promise<MCPStoredTask | undefined>;
    update(taskId: string, update: MCPTaskUpdate, expect?: {
        instanceId: string;
    }): Promise<MCPStoredTask | undefined>;
    signal(taskId: string, signal: MCPTaskSignal): Promise<void>;
    watch(listener: MCPTaskStoreListener): () => void;
    close(): Promise<void>;
    private live;
    private finish;
    private dropWhile;
    private drop;
    private forget;
    private expireAt;
    private stopSweeping;
    private sweep;
}
interface InMemoryMCPTaskStoreOptions {
    maxTasks?: number;
    maxFinishedTasksPerPrincipal?: number;
    maxFinishedTaskBytes?: number;
    maxFinishedTaskBytesPerPrincipal?: number;
}
declare class InMemoryOAuthStorage implements OAuthStorage {
    private readonly entries;
    constructor(initial?: Record<string, string>);
    get(key: string): Promise<string | undefined>;
    set(key: string, value: string): Promise<void>;
    delete(key: string): Promise<void>;
}
interface InteractiveControl {
    readonly redirectUrl: string;
    pendingAuthorization(): PendingAuthorization | undefined;
    begin(flow: {
        redirectUrl: string;
        state: string;
        redirected: boolean;
    }): void;
    redirected(): boolean;
    end(): void;
    forgetAuthorization(): Promise<void>;
}
interface IntrospectionValidatorOptions {
    clientId: string;
    clientSecret: string;
    timeoutMs?: number;
}
type IsUntyped<TServers> = [
    TServers
] extends [
    never
] ? true : false;
type LogHandler = (logMessage: LogMessage) => void;
interface LogMessage {
    level: LoggingLevel;
    message: string;
    timestamp: Date;
    serverName: string;
    details?: Record<string, unknown>;
}
declare class MCPClient<TServers = never> extends MCPClientCore<TServers> {
    readonly elicitation: MCPClientElicitation;
    constructor(options: MCPClientOptions<NoInfer<TServers>>);
    static fromConfig<TServers = never>(config: string | URL | MCPConfig, options?: MCPClientConfigOptions<NoInfer<TServers>>): Promise<MCPClient<TServers>>;
    disconnect(): Promise<void>;
}
interface MCPClientCapabilities {
    elicitation?: {
        form?: Record<string, unknown>;
        url?: Record<string, unknown>;
    };
    sampling?: {
        tools?: Record<string, unknown>;
        context?: Record<string, unknown>;
    };
    roots?: {
        listChanged?: boolean;
    };
    extensions?: Record<string, unknown>;
}
interface MCPClientConfigOptions<TServers = never> extends Omit<MCPClientOptions<TServers>, 'servers'> {
    servers?: Record<string, MCPServerConfigOverrides>;
    inputs?: Record<string, string> | ((input: MCPConfigInput) => string | undefined | Promise<string | undefined>);
    environment?: Record<string, string | undefined>;
    workspaceFolder?: string;
}
declare class MCPClientCore<TServers = never> {
    readonly options: MCPClientOptions<TServers>;
    readonly typegen: Readonly<{
        outFile: string;
    }> | undefined;
    private readonly connections;
    private readonly toolNames;
    private readonly authenticators;
    private hooked;
    logger: IMastraLogger;
    readonly resources: MCPClientResources;
    readonly prompts: MCPClientPrompts;
    readonly tools: MCPClientTools;
    readonly progress: MCPClientProgress;
    readonly tasks: MCPClientTasks;
    readonly events: MCPClientEvents;
    readonly roots: MCPClientRoots;
    readonly skills: MCPClientSkills;
    constructor(options: MCPClientOptions<NoInfer<TServers>>);
    static fromConfig<TServers = never>(config: string | URL | MCPConfig, options?: MCPClientConfigOptions<NoInfer<TServers>>): Promise<MCPClientCore<TServers>>;
    get [MCP_CLIENT_BRAND](): true;
    [MCP_CLIENT_SKIPPED_TOOLS](): Record<string, Record<string, ToolSchemaOverBudget>>;
    [MCP_CLIENT_SERVER_ERAS](): Record<string, 'modern' | 'legacy' | undefined>;
    get id(): string | undefined;
    private log;
    private installHooks;
    private connection;
    private definitionsOf;
    private namesOf;
    private toolsetFrom;
    private buildTool;
    private toolsetOf;
    listToolDefinitions(): Promise<Record<string, Record<string, MCPToolDefinition>>>;
    listToolDefinitionsWithErrors(options?: WithErrorsOptions): Promise<MCPToolDefinitionsWithErrors>;
    toolFromDefinition({ serverName, definition }: {
        serverName: string;
        definition: MCPToolDefinition;
    }): Promise<MCPTool>;
    toolsFromDefinitions({ definitions }: {
        definitions: Record<string, Record<string, MCPToolDefinition>>;
    }): Promise<MCPToolMap<TServers>>;
    listTools(): Promise<MCPToolMap<TServers>>;
    listToolsWithErrors(options?: WithErrorsOptions): Promise<MCPToolsWithErrors<TServers>>;
    private namespaced;
    listToolsets(): Promise<MCPToolsetMap<TServers>>;
    listToolsetsWithErrors(options?: WithErrorsOptions): Promise<MCPToolsetsWithErrors<TServers>>;
    private discoverToolsets;
    private readonly server;
    getServerInstructions(): Record<string, string | undefined>;
    getServerInfo(): Record<string, MCPServerImplementation | undefined>;
    toMCPServerProxies(): Promise<Record<string, MCPClientServerProxy>>;
    authenticate(serverName: string, options?: {
        timeoutMs?: number;
    }): Promise<void>;
    getServerAuthState(serverName: string): ServerAuthState | undefined;
    cancelAuthentication(serverName: string): Promise<boolean>;
    reconnectServer(serverName: string): Promise<void>;
    disconnect(): Promise<void>;
}
interface MCPClientElicitation {
    onRequest(serverName: string, handler: ElicitationHandler): Promise<void>;
}
interface MCPClientEvents {
    list(serverName: string): Promise<MCPEventDescriptor[]>;
    subscribe(serverName: string, eventName: string, args?: Record<string, unknown>, options?: MCPEventSubscribeOptions): Promise<MCPEventSubscription>;
    handleWebhook(request: Request): Promise<Response>;
}
interface MCPClientOptions<TServers = never> {
    id?: string;
    servers: MCPServerDefinitions<TServers>;
    timeout?: number;
    typegen?: {
        outFile: string;
    };
    clientInfo?: {
        name?: string;
        version?: string;
    };
    registerProcessHooks?: boolean;
    webhook?: MCPClientWebhookOptions;
    toolNameSeparator?: string;
    sampling?: MCPClientSamplingOption;
    roots?: MCPClientRootsOption;
    skills?: MCPClientSkillsOptions;
    telemetry?: MCPTelemetryOptions;
}
interface MCPClientProgress {
    onUpdate(serverName: string, handler: (params: MCPProgressUpdate) => void): Promise<void>;
}
interface MCPClientPrompts {
    list(): Promise<Record<string, MCPPrompt[]>>;
    listWithErrors(options?: WithErrorsOptions): Promise<MCPPromptsWithErrors>;
    get(request: {
        serverName: string;
        name: string;
        args?: Record<string, unknown>;
        version?: string;
    }): Promise<MCPGetPromptResult>;
    onListChanged(serverName: string, handler: () => void): Promise<void>;
}
interface MCPClientResources {
    list(): Promise<Record<string, Resource[]>>;
    listWithErrors(options?: WithErrorsOptions): Promise<MCPResourcesWithErrors>;
    templates(): Promise<Record<string, ResourceTemplateType[]>>;
    templatesWithErrors(options?: WithErrorsOptions): Promise<MCPResourceTemplatesWithErrors>;
    read(serverName: string, uri: string): Promise<MCPReadResourceResult>;
    subscribe(serverName: string, uri: string): Promise<void>;
    unsubscribe(serverName: string, uri: string): Promise<void>;
    onUpdated(serverName: string, handler: (params: {
        uri: string;
    }) => void): Promise<void>;
    onListChanged(serverName: string, handler: () => void): Promise<void>;
}
interface MCPClientRoots {
    set(roots: MCPRoot[], options?: {
        server?: string;
    }): Promise<void>;
}
type MCPClientRootsOption = MCPRoot[] | MCPRootsProvider;
type MCPClientSamplingOption = MCPSamplingHandler | Agent | MCPSamplingModel | MCPSamplingOptions;
declare abstract class MCPClientServerProxy extends MCPServerBase {
    readonly mcpVersion: 2;
    abstract convertTools(): Record<string, InternalCoreTool>;
    abstract getToolListInfo(): Promise<{
        tools: ToolInfo[];
    }>;
    abstract getToolInfo(toolId: string): Promise<ToolInfo | undefined>;
    abstract executeTool(toolId: string, args: unknown, executionContext?: {
        messages?: unknown[];
        toolCallId?: string;
        requestContext?: RequestContext;
    }): Promise<MCPToolExecutionResultV2>;
    abstract listResources(): Promise<{
        resources: Resource[];
    }>;
    abstract readResource(uri: string): Promise<MCPReadResourceResult>;
    abstract listPrompts(): Promise<{
        prompts: MCPPrompt[];
    }>;
    abstract getPrompt(request: {
        name: string;
        args?: Record<string, string>;
        version?: string;
    }): Promise<MCPGetPromptResult>;
    abstract getStdioTransport(): StdioServerTransport | undefined;
}
interface MCPClientSkillEntry {
    serverName: string;
    uri: string;
    skill: Skill;
}
interface MCPClientSkills {
    list(): Promise<Record<string, MCPClientSkillEntry[]>>;
    listWithErrors(options?: WithErrorsOptions): Promise<MCPSkillsWithErrors>;
    get(serverName: string, uri: string): Promise<MCPClientSkillEntry>;
    read(serverName: string, uri: string): Promise<MCPSkillFile>;
    toMastraSkills(options?: MCPMastraSkillsOptions): Promise<MCPSkillsWorkspace>;
}
interface MCPClientSkillsOptions {
    maxSkills?: number;
    maxCachedBytes?: number;
}
interface MCPClientTasks {
    start(serverName: string, toolName: string, args?: Record<string, unknown>, options?: {
        signal?: AbortSignal;
    }): Promise<MCPTaskStart>;
    get(serverName: string, taskId: string, options?: {
        signal?: AbortSignal;
    }): Promise<MCPTask>;
    update(serverName: string, taskId: string, inputResponses: Record<string, ElicitResult>): Promise<void>;
    cancel(serverName: string, taskId: string): Promise<void>;
    wait(serverName: string, taskId: string, options?: MCPTaskWaitOptions): Promise<CallToolResult>;
}
interface MCPClientTools {
    onListChanged(serverName: string, handler: () => void): Promise<void>;
}
interface MCPClientWebhookOptions {
    url: string;
    secret?: string;
    ttlMs?: number | null;
    refreshMarginMs?: number;
    maxRememberedDeliveries?: number;
}
interface MCPConfig {
    mcpServers?: Record<string, MCPConfigServer>;
    servers?: Record<string, MCPConfigServer>;
    inputs?: MCPConfigInput[];
}
interface MCPConfigInput {
    id: string;
    type?: string;
    description?: string;
    password?: boolean;
    default?: string;
    options?: unknown[];
}
interface MCPConfigServer {
    type?: 'stdio' | 'http' | 'streamable-http' | 'sse';
    command?: string;
    args?: string[];
    env?: Record<string, string | number | null>;
    envFile?: string;
    cwd?: string;
    url?: string;
    headers?: Record<string, string>;
    dev?: unknown;
    sandboxEnabled?: boolean;
    sandbox?: unknown;
    auth?: unknown;
}
type MCPElicitationRequest = ElicitRequestFormParams & {
    serverName: string;
    key: string;
    signal: AbortSignal;
};
interface MCPEmitOptions {
    eventId?: string;
    timestamp?: Date | string;
    _meta?: Record<string, unknown>;
}
type MCPEmittedEvent = MCPEventOccurrence & {
    cursor: string | null;
};
declare const MCPErrorCategories: Readonly<Record<MCPErrorCode, MCPErrorCategory>>;
type MCPErrorCategory = 'USER' | 'THIRD_PARTY' | 'SYSTEM';
declare const MCPErrorCode: {
    readonly [K in ErrorKey]: `MCP_${K}`;
};
type MCPErrorCode = (typeof MCPErrorCode)[ErrorKey];
interface MCPErrorDetail {
    message: string;
    httpStatus?: number;
    code?: MCPErrorDetailCode;
}
type MCPErrorDetailCode = `${SdkErrorCode}` | number;
interface MCPEventAuthorizationRequest<TArgs = Record<string, unknown>> {
    name: string;
    args: TArgs;
    authInfo?: AuthInfo | undefined;
    delivery: EventDeliveryMode;
}
interface MCPEventCursorStore {
    get(key: string): Promise<string | null | undefined> | string | null | undefined;
    set(key: string, cursor: string): Promise<void> | void;
    delete(key: string): Promise<void> | void;
}
type MCPEventDeliveryStatus = DeliveryStatus;
interface MCPEventDescriptor {
    name: string;
    description?: string;
    delivery: EventDeliveryMode[];
    inputSchema?: Record<string, unknown>;
    payloadSchema?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
}
type MCPEventErrorHandler = (error: Error) => void;
type MCPEventOccurrence = {
    eventId: string;
    name: string;
    timestamp: string;
    data: Record<string, unknown>;
    _meta?: Record<string, unknown>;
};
interface MCPEventRetryOptions {
    initialDelayMs?: number;
    maxDelayMs?: number;
    factor?: number;
    maxAttempts?: number;
}
type MCPEventSourceInit = NonNullable<SSEClientTransportOptions['eventSourceInit']>;
interface MCPEventStore {
    readonly epoch: string;
    append(occurrence: MCPEventOccurrence): Promise<MCPStoredEvent>;
    readAfter(after: string, filter: MCPEventStoreFilter, limit: number): Promise<MCPEventStoreReadResult>;
    head(): Promise<string>;
    watch?(listener: (name: string) => void): () => void;
}
interface MCPEventStoreFilter {
    name: string;
    notBefore?: number;
    match?: (occurrence: MCPEventOccurrence) => boolean;
}
interface MCPEventStoreReadResult {
    events: MCPStoredEvent[];
    from: string;
    position: string;
    truncated: boolean;
    hasMore: boolean;
}
interface MCPEventSubscribeOptions {
    delivery?: EventDeliveryMode;
    cursor?: string | null;
    maxAgeMs?: number;
    maxEvents?: number;
    minPollIntervalMs?: number;
    heartbeatTimeoutMs?: number;
    streamOpenTimeoutMs?: number;
    dedupWindow?: number;
    maxBufferedEvents?: number;
    retry?: MCPEventRetryOptions;
    signal?: AbortSignal;
}
interface MCPEventSubscription extends AsyncIterable<MCPReceivedEvent> {
    readonly cursor: string | null;
    readonly truncated: boolean;
    readonly mode: EventDeliveryMode;
    readonly deliveryStatus: MCPEventDeliveryStatus | undefined;
    onError(handler: MCPEventErrorHandler): () => void;
    cancel(): Promise<void>;
}
interface MCPEventTypeConfig<TArgs = any, TData = any> {
    description?: string;
    inputSchema?: unknown;
    payloadSchema?: unknown;
    delivery?: EventDeliveryMode[];
    replay?: boolean;
    matches?: (args: TArgs, occurrence: MCPEventOccurrence & {
        data: TData;
    }) => boolean;
    authorize?: (request: MCPEventAuthorizationRequest<TArgs>) => boolean | Promise<boolean>;
    _meta?: Record<string, unknown>;
}
type MCPEventTypes = Record<string, MCPEventTypeConfig>;
interface MCPEventsErrorInfo {
    server: string;
    event: string;
    key: string;
}
declare class MCPEventsSignalProvider extends SignalProvider<string> {
    readonly id: string;
    readonly name: string;
    private readonly options;
    private readonly cursorStore;
    private readonly entries;
    private readonly closing;
    private tools;
    constructor(options: MCPEventsSignalProviderOptions);
    static key({ server, event, args }: MCPEventsSubscriptionInput): string;
    subscribeThread(thread: MCPEventsThread, selection: MCPEventsSubscriptionInput): Promise<void>;
    unsubscribeThread(thread: MCPEventsThread, selection: MCPEventsSubscriptionInput): Promise<boolean>;
    stop(): Promise<void>;
    getTools(): Record<string, unknown>;
    private identity;
    private open;
    private connectEntry;
    private deliver;
    private ended;
    private release;
    private halt;
    private report;
}
interface MCPEventsSignalProviderOptions {
    client: Pick<MCPClientCore, 'events'>;
    id?: string;
    name?: string;
    cursorStore?: MCPEventCursorStore;
    subscribeOptions?: Omit<MCPEventSubscribeOptions, 'cursor' | 'signal'>;
    priority?: NotificationPriority;
    coalesce?: boolean;
    tools?: boolean | {
        servers: string[];
    };
    onError?: (error: unknown, info: MCPEventsErrorInfo) => void;
}
type MCPEventsSubscriptionInput = EventSelection;
type MCPEventsThread = EventThread;
interface MCPGetPromptResult extends GetPromptResult {
    prompt: MCPPrompt;
}
interface MCPInputContext {
    elicitation: {
        sendRequest: (request: (ElicitRequestFormParams & MCPInputRequestOptions) | ElicitationRequest) => Promise<ElicitResult>;
    };
    sampling: {
        createMessage: {
            (params: Omit<MCPSamplingRequest, 'tools' | 'toolChoice'>): Promise<CreateMessageResult>;
            (params: MCPSamplingRequest): Promise<CreateMessageResult | CreateMessageResultWithTools>;
        };
    };
    roots: {
        list: (request?: MCPInputRequestOptions) => Promise<ListRootsResult>;
    };
}
interface MCPInputRequest {
    key: string;
    params: (ElicitRequestFormParams & {
        mode?: 'form';
    }) | ElicitRequestURLParams;
    signal: AbortSignal;
}
type MCPInputRequestHandler = (request: MCPInputRequest) => ElicitResult | Promise<ElicitResult>;
interface MCPInputRequestOptions {
    key?: string;
}
interface MCPMastraSkillsOptions {
    servers?: string[];
    uris?: Record<string, string[]>;
    allowDynamic?: MCPSkillSelector;
    allowedTools?: MCPSkillSelector;
    id?: string;
}
interface MCPMeterProvider {
    getMeter(name: string, version?: string): object;
}
declare class MCPOAuthClientProvider implements OAuthClientProvider {
    private readonly options;
    readonly clientMetadataUrl: string | undefined;
    readonly [INTERACTIVE]: InteractiveControl;
    [REGISTERED]: ((client: RegisteredClient) => void) | undefined;
    readonly saveClientInformation?: (information: OAuthClientInformationMixed, ctx?: OAuthClientInformationContext) => Promise<void>;
    private readonly queue;
    private readonly configuredRedirectUrl;
    private flow;
    private pending;
    private endedFlowState;
    constructor(options: MCPOAuthClientProviderOptions);
    get redirectUrl(): string;
    get clientMetadata(): OAuthClientMetadata;
    state(): Promise<string>;
    clientInformation(ctx?: OAuthClientInformationContext): Promise<OAuthClientInformationMixed | undefined>;
    private registeredClient;
    private saveRegisteredClient;
    tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined>;
    saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void>;
    redirectToAuthorization(authorizationUrl: URL): Promise<void>;
    saveCodeVerifier(codeVerifier: string): Promise<void>;
    codeVerifier(): Promise<string>;
    saveDiscoveryState(state: OAuthDiscoveryState): Promise<void>;
    discoveryState(): Promise<OAuthDiscoveryState | undefined>;
    invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void>;
    private interactiveControl;
}
interface MCPOAuthClientProviderOptions {
    redirectUrl: string | URL;
    clientMetadata: OAuthClientMetadata & {
        client_id?: string;
    };
    clientInformation?: OAuthClientInformationMixed;
    clientMetadataUrl?: string;
    onRedirectToAuthorization?: (url: URL) => void | Promise<void>;
    storage?: OAuthStorage;
}
interface MCPProgressUpdate {
    progressToken: string;
    progress: number;
    total?: number;
    message?: string;
}
type MCPPrompt = Prompt & {
    version?: string;
};
interface MCPPromptContext extends MCPInputContext {
    extra: MCPRequestExtra;
}
interface MCPPromptsWithErrors extends FanOutErrors {
    prompts: Record<string, MCPPrompt[]>;
}
interface MCPReadResourceResult extends ReadResourceResult {
    contents: MCPResourceContents[];
}
interface MCPReceivedEvent {
    eventId: string;
    name: string;
    timestamp: string;
    data: Record<string, unknown>;
}
interface MCPRequestExtra {
    authInfo?: NonNullable<ServerContext['http']>['authInfo'];
    sessionId?: string;
    signal: AbortSignal;
    requestId: string | number;
    _meta?: Record<string, unknown>;
    sendNotification: ServerContext['mcpReq']['notify'];
    sendRequest: ServerContext['mcpReq']['send'];
}
type MCPResourceContents = ReadResourceResult['contents'][number] & {
    text?: string;
    blob?: string;
};
interface MCPResourceTemplatesWithErrors extends FanOutErrors {
    templates: Record<string, ResourceTemplateType[]>;
}
interface MCPResourcesWithErrors extends FanOutErrors {
    resources: Record<string, Resource[]>;
}
interface MCPRoot {
    uri: string;
    name?: string;
    _meta?: Record<string, unknown>;
}
type MCPRootsProvider = (context: {
    serverName: string;
    signal: AbortSignal;
}) => MCPRoot[] | Promise<MCPRoot[]>;
type MCPSamplingApproval = (request: CreateMessageRequestParams, context: {
    serverName: string;
}) => MCPSamplingDecision | Promise<MCPSamplingDecision>;
interface MCPSamplingContext {
    serverName: string;
    signal: AbortSignal;
}
type MCPSamplingDecision = 'allow' | 'deny' | boolean;
type MCPSamplingHandler = (request: CreateMessageRequestParams, context: MCPSamplingContext) => CreateMessageResult | Promise<CreateMessageResult>;
type MCPSamplingModel = Exclude<Extract<MastraModelConfig, {
    doGenerate: unknown;
}>, {
    specificationVersion: 'v1';
}>;
interface MCPSamplingOptions {
    handler?: MCPSamplingHandler;
    agent?: Agent;
    model?: MastraModelConfig;
    onRequest?: MCPSamplingApproval;
    maxTokens?: number;
    maxConcurrent?: number;
}
type MCPSamplingRequest = CreateMessageRequestParams & MCPInputRequestOptions;
declare class MCPServer extends MCPServerCore {
    readonly elicitation: {
        sendRequest: (request: ElicitationRequest) => Promise<ElicitResult>;
    };
    constructor(config: MCPServerConfig);
    startHonoSSE(options: MCPServerHonoSSEStartOptions): Promise<Response | undefined>;
}
type MCPServerBusEvent = {
    kind: 'tools_list_changed';
} | {
    kind: 'prompts_list_changed';
} | {
    kind: 'resources_list_changed';
} | {
    kind: 'resource_updated';
    uri: string;
} | {
    kind: 'logging_message';
    params: LoggingMessageNotification['params'];
};
type MCPServerCompletion = string[] | CompleteResult['completion'];
interface MCPServerCompletionRequest {
    argument: {
        name: string;
        value: string;
    };
    context?: {
        arguments?: Record<string, string>;
    };
}
interface MCPServerConfig extends MCPServerConfig {
    resources?: MCPServerResources;
    prompts?: MCPServerPrompts;
    appResources?: AppResources;
    skills?: MCPServerSkills;
    events?: MCPServerEventsConfig;
    tasks?: MCPServerTasksConfig;
    notifications?: {
        bus?: MCPServerEventBus;
    };
    requestState?: MCPServerRequestStateOptions;
    limits?: MCPServerLimits;
    redactErrors?: boolean;
    telemetry?: MCPTelemetryOptions;
    http?: MCPServerHttpConfig;
}
type MCPServerConfigOverrides = Partial<StdioServerDefinition> | Partial<HttpServerDefinition>;
declare class MCPServerCore extends MCPServerBase {
    private readonly registry;
    private readonly connections;
    private readonly suspended;
    private readonly host;
    private readonly http;
    private readonly sse;
    private honoSse;
    private readonly loadHonoSse;
    private readonly resourceHandlers;
    private stdio;
    private readonly httpConfig;
    private readonly listeners;
    private readonly misconfigurations;
    private readonly eventsService;
    private readonly tasksService;
    private readonly skillsService;
    private readonly mastraTools;
    readonly resourceOptions: MCPServerConfig['resources'];
    readonly promptOptions: MCPServerConfig['prompts'];
    readonly appResources: AppResources | undefined;
    readonly mapAuthInfoToUser: MCPServerConfig['mapAuthInfoToUser'];
    readonly limits: Required<MCPServerLimits>;
    readonly fga: MCPServerConfig['fga'];
    readonly resources: {
        notifyUpdated: ({ uri }: {
            uri: string;
        }) => Promise<void>;
        notifyListChanged: () => Promise<void>;
    };
    readonly events: MCPServerEvents;
    readonly prompts: {
        notifyListChanged: () => Promise<void>;
    };
    readonly skills: MCPServerSkillsApi;
    readonly fetch: (request: Request) => Promise<Response>;
    readonly toolActions: {
        add: (tools: ToolsInput) => Promise<void>;
        remove: (toolIds: string[]) => Promise<void>;
        notifyListChanged: () => Promise<void>;
    };
    constructor(config: MCPServerConfig);
    __registerMastra(mastra: Mastra): void;
    convertTools(_tools: ToolsInput, _agents?: MCPServerConfig['agents'], _workflows?: MCPServerConfig['workflows']): Record<string, InternalCoreTool>;
    private publishTools;
    private coreTools;
    private createInstance;
    startStdio(): Promise<void>;
    startHTTP(options: MCPServerHTTPOptions & {
        cors?: MCPServerCorsOptions;
    }): Promise<void>;
    private logMisconfiguration;
    listen(options: MCPServerListenOptions): Promise<MCPServerListener>;
    startSSE(options: SseOptions): Promise<void>;
    startHonoSSE(options: MCPServerHonoSSEOptions & HostGuardOptions): Promise<Response | undefined>;
    close(): Promise<void>;
    getStdioTransport(): StdioServerTransport | undefined;
    getSseTransport(): _$_modelcontextprotocol_server_legacy_sse0.SSEServerTransport | undefined;
    getSseHonoTransport(): SSETransport | undefined;
    getStreamableHTTPTransport(): _$_modelcontextprotocol_server0.WebStandardStreamableHTTPServerTransport | undefined;
    sendLoggingMessage(params: {
        level: LoggingLevel;
        data: unknown;
        logger?: string;
    }): Promise<void>;
    getServerInfo(): ServerInfo;
    getServerDetail(): ServerDetailInfo;
    getToolListInfo(): {
        tools: ToolInfo[];
    };
    getToolInfo(toolName: string): ToolInfo | undefined;
    executeTool(toolId: string, args: unknown, executionContext?: {
        messages?: unknown[];
        toolCallId?: string;
        requestContext?: RequestContext;
    }): Promise<unknown>;
    listResources(): Promise<{
        resources: Resource[];
    }>;
    readResource(uri: string): Promise<ReadResourceResult>;
}
interface MCPServerCorsOptions {
    origins: string[];
}
type MCPServerDefinitions<TServers> = IsUntyped<TServers> extends true ? Record<string, MastraMCPServerDefinition> : {
    [S in keyof TServers]: MastraMCPServerDefinition;
};
interface MCPServerEventBus {
    join(serverId: string, listener: MCPServerEventBusListener): MCPServerEventBusMember;
}
interface MCPServerEventBusListener {
    deliver(event: MCPServerBusEvent): void;
    onError(error: Error): void;
}
interface MCPServerEventBusMember {
    publish(event: MCPServerBusEvent): Promise<void>;
    leave(): Promise<void>;
}
interface MCPServerEvents {
    emit(name: string, data: Record<string, unknown>, options?: MCPEmitOptions): Promise<MCPEmittedEvent>;
    define(name: string, config: MCPEventTypeConfig): void;
    remove(name: string): Promise<boolean>;
    list(): Array<{
        name: string;
        description?: string;
        delivery: EventDeliveryMode[];
    }>;
    stats(): {
        streams: number;
        webhookSubscriptions: number;
        suspendedWebhooks: number;
        pollLeases: number;
    };
}
interface MCPServerEventsConfig {
    types: MCPEventTypes;
    store?: MCPEventStore;
    heartbeatIntervalMs?: number;
    pollIntervalMs?: number;
    maxPollEvents?: number;
    listPageSize?: number;
    webhook?: MCPServerWebhookOptions | false;
    onClose?: 'terminate' | 'end';
}
type MCPServerHonoSSEStartOptions = (MCPServerHonoSSEOptions & HostGuardOptions) | (SseOptions & {
    context?: undefined;
});
interface MCPServerHttpConfig extends StreamableHTTPServerTransportOptions {
    path?: string;
    cors?: MCPServerCorsOptions;
    oauth?: OAuthProtectionOptions;
}
interface MCPServerImplementation extends Implementation {
}
interface MCPServerLimits {
    maxBodyBytes?: number;
    maxJsonDepth?: number;
    bodyTimeoutMs?: number;
    maxSessions?: number;
    sessionIdleTimeoutMs?: number;
    maxSseConnections?: number;
    maxSuspendedCalls?: number;
    maxSuspendedCallsPerPrincipal?: number;
    suspendedCallTimeoutMs?: number;
    maxOpenStreams?: number;
    maxStreamBufferBytes?: number;
    streamWriteTimeoutMs?: number;
    maxConcurrentRequests?: number;
}
interface MCPServerListenOptions extends MCPServerHttpConfig {
    port: number;
    host?: string;
    closeTimeoutMs?: number;
}
interface MCPServerListener {
    url: URL;
    close(): Promise<void>;
}
type MCPServerPrompts = {
    listPrompts: () => Promise<Prompt[]>;
    getPromptMessages?: ({ name, version, args }: {
        name: string;
        version?: string;
        args: Record<string, string>;
    }, context: {
        mcp: MCPPromptContext;
    }) => Promise<{
        prompt: Prompt;
        messages: PromptMessage[];
    }>;
    completePromptArgument?: (request: MCPServerCompletionRequest & {
        name: string;
    }) => MCPServerCompletion | Promise<MCPServerCompletion>;
};
interface MCPServerRequestStateOptions {
    key: RequestStateKey | RequestStateKey[];
    instanceId?: string;
}
type MCPServerResourceContent = ({
    text?: string;
} | {
    blob?: string;
}) & {
    mimeType?: string;
};
type MCPServerResources = {
    listResources: () => Promise<Resource[]>;
    getResourceContent: ({ uri }: {
        uri: string;
    }) => Promise<MCPServerResourceContent | MCPServerResourceContent[]>;
    resourceTemplates?: () => Promise<ResourceTemplate[]>;
    completeResourceTemplate?: (request: MCPServerCompletionRequest & {
        uriTemplate: string;
    }) => MCPServerCompletion | Promise<MCPServerCompletion>;
};
type MCPServerSkills = SkillInput[] | MCPServerSkillsConfig;
interface MCPServerSkillsApi {
    ready(): Promise<void>;
    list(): Promise<MCPSkillEntry[]>;
    refresh(): Promise<void>;
}
interface MCPServerSkillsConfig {
    skills?: SkillInput[];
    agents?: MCPSkillsAgent[];
    sources?: MCPSkillSourceConfig[];
    prefix?: string;
    pageSize?: number;
    cacheHint?: {
        ttlMs?: number;
        cacheScope?: 'public' | 'private';
    };
}
interface MCPServerTasksConfig {
    tools?: Record<string, MCPTaskSupport | MCPToolTaskConfig>;
    store?: MCPTaskStore;
    ttlMs?: number | null;
    pollIntervalMs?: number;
    maxTasks?: number;
    maxTasksPerPrincipal?: number;
    maxListenTaskIds?: number;
    instanceTimeoutMs?: number;
    principal?: (authInfo: AuthInfo) => string | undefined;
}
type MCPServerTypes = Record<string, {
    tools: Record<string, {
        input: unknown;
        output: unknown;
        task?: 'optional' | 'required';
    }>;
}>;
interface MCPServerWebhookOptions {
    maxSubscriptions?: number;
    defaultTtlMs?: number;
    minTtlMs?: number;
    maxTtlMs?: number;
    retry?: MCPServerWebhookRetryOptions;
    timeoutMs?: number;
    suspendAfter?: number;
    secretGraceMs?: number;
    verificationTtlMs?: number;
    allowPrivateAddresses?: boolean;
    fetch?: (input: string | URL, init: RequestInit) => Promise<Response>;
    principal?: (authInfo: AuthInfo) => string | undefined;
    queue?: MCPWebhookQueue;
}
interface MCPServerWebhookRetryOptions {
    attempts?: number;
    initialDelayMs?: number;
    maxDelayMs?: number;
}
type MCPSkillEntry = Skill;
interface MCPSkillFile {
    serverName: string;
    skillUri: string;
    uri: string;
    mimeType?: string;
    bytes: Uint8Array;
    text?: string;
    verified: boolean;
    frontmatter?: Record<string, unknown>;
    body?: string;
}
type MCPSkillSelector = readonly string[] | ((skill: MCPClientSkillEntry) => boolean);
interface MCPSkillSourceConfig {
    source: SkillSource;
    paths: string[];
    dynamic?: boolean;
}
interface MCPSkillsAgent {
    id: string;
    listSkills(): Promise<SkillMetadata[]>;
}
interface MCPSkillsWithErrors extends FanOutErrors {
    skills: Record<string, MCPClientSkillEntry[]>;
}
declare class MCPSkillsWorkspace extends Workspace<WorkspaceFilesystem | undefined, WorkspaceSandbox | undefined, any> {
    #private;
    constructor(skills: WorkspaceSkills, id: string);
    get skills(): WorkspaceSkills;
    refresh(): Promise<void>;
}
interface MCPStoredEvent {
    position: string;
    occurrence: MCPEventOccurrence;
}
interface MCPStoredTask extends DetailedTask {
    owner?: string;
    toolName: string;
    instanceId: string;
    expiresAt?: number;
    workflow?: {
        key: string;
        runId: string;
    };
    droppedBy?: string;
}
type MCPTask = DetailedTask;
type MCPTaskSignal = {
    type: 'input';
    inputResponses: Record<string, unknown>;
} | {
    type: 'cancel';
};
type MCPTaskStart = {
    taskId: string;
    task: MCPTask;
    result?: undefined;
} | {
    taskId?: undefined;
    result: CallToolResult;
};
interface MCPTaskStore {
    create(task: MCPStoredTask): Promise<void>;
    get(taskId: string): Promise<MCPStoredTask | undefined>;
    update(taskId: string, update: MCPTaskUpdate, expect?: {
        instanceId: string;
    }): Promise<MCPStoredTask | undefined>;
    signal(taskId: string, signal: MCPTaskSignal): Promise<void>;
    watch(listener: MCPTaskStoreListener): () => void;
    heartbeat?(instanceId: string, ttlMs: number): Promise<void>;
    isAlive?(instanceId: string): Promise<boolean>;
    release?(instanceId: string): Promise<void>;
    close?(): Promise<void>;
}
interface MCPTaskStoreListener {
    signal?(taskId: string, signal: MCPTaskSignal): void;
    changed?(taskId: string): void;
}
type MCPTaskSupport = 'forbidden' | 'optional' | 'required';
interface MCPTaskUpdate {
    status?: TaskStatus;
    instanceId?: string;
    workflow?: MCPStoredTask['workflow'];
    statusMessage?: string | undefined;
    inputRequests?: DetailedTask['inputRequests'];
    result?: DetailedTask['result'];
    error?: DetailedTask['error'];
    _meta?: DetailedTask['_meta'];
}
interface MCPTaskWaitOptions {
    signal?: AbortSignal;
    onStatus?: (task: MCPTask) => void;
}
interface MCPTelemetryOptions {
    enabled?: boolean;
    tracerProvider?: MCPTracerProvider;
    meterProvider?: MCPMeterProvider;
    captureContent?: boolean;
    maxContentBytes?: number;
}
type MCPTool = Tool<any, unknown>;
interface MCPToolContext extends MCPInputContext {
    extra: MCPRequestExtra;
    log: (level: LoggingLevel, message: string, data?: Record<string, unknown>) => Promise<void>;
    progress: (params: {
        progress: number;
        total?: number;
        message?: string;
    }) => Promise<void>;
}
interface MCPToolDefinition {
    name: string;
    title?: string;
    description?: string;
    inputSchema: Tool['inputSchema'];
    outputSchema?: Tool['outputSchema'];
    annotations?: Tool['annotations'];
    _meta?: Record<string, unknown>;
    serverName: string;
    serverVersion?: string;
    serverInstructions?: string;
}
interface MCPToolDefinitionsWithErrors extends FanOutErrors {
    definitions: Record<string, Record<string, MCPToolDefinition>>;
}
type MCPToolExecuteResult<TOutput> = TOutput | (CallToolResult & Record<string, unknown>) | undefined;
type MCPToolMap<TServers> = IsUntyped<TServers> extends true ? Record<string, MCPTool> : {
    [E in ToolEntries<TServers> as E['key']]?: TypedToolOf<E['entry']>;
};
interface MCPToolTaskConfig {
    support: MCPTaskSupport;
    inputBeforeTask?: boolean;
}
type MCPToolTaskSupport = 'optional' | 'required';
interface MCPToolsWithErrors<TServers = never> extends FanOutErrors {
    tools: MCPToolMap<TServers>;
}
type MCPToolsetMap<TServers> = IsUntyped<TServers> extends true ? Record<string, Record<string, MCPTool>> : {
    [S in keyof TServers]?: {
        [N in keyof ToolsOf<TServers[S]>]?: TypedToolOf<ToolsOf<TServers[S]>[N]>;
    };
};
interface MCPToolsetsWithErrors<TServers = never> extends FanOutErrors {
    toolsets: MCPToolsetMap<TServers>;
}
interface MCPTraceContext {
    traceparent: string;
    tracestate?: string;
    baggage?: string;
}
interface MCPTracerProvider {
    getTracer(name: string, version?: string): object;
}
type MCPTypedTool<TInput, TOutput> = Omit<MCPTool, 'execute'> & {
    execute?: (input: TInput, context?: ToolExecutionContext) => Promise<MCPToolExecuteResult<TOutput>>;
};
interface MCPUiResourceCsp {
    connectDomains?: string[];
    resourceDomains?: string[];
    frameDomains?: string[];
    baseUriDomains?: string[];
}
interface MCPUiResourcePermissions {
    camera?: Record<string, never>;
    microphone?: Record<string, never>;
    geolocation?: Record<string, never>;
    clipboardWrite?: Record<string, never>;
}
interface MCPWebhookQueue {
    open(context: WebhookDeliveryContext): WebhookDelivery;
}
declare const MCP_APPS_EXTENSION_ID = "io.modelcontextprotocol/ui";
declare const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
declare const MCP_CLIENT_BRAND: unique symbol;
declare const MCP_CLIENT_SERVER_ERAS: unique symbol;
declare const MCP_CLIENT_SKIPPED_TOOLS: unique symbol;
declare const MCP_INSTANCE_ID_HEADER = "Mcp-Instance-Id";
type MastraFetchLike = (url: string | URL, init?: RequestInit, requestContext?: RequestContext<Record<string, any>> | null) => Promise<Response>;
type MastraMCPServerDefinition = StdioServerDefinition | HttpServerDefinition;
interface McpUiResourceMeta {
    csp?: MCPUiResourceCsp;
    permissions?: MCPUiResourcePermissions;
    domain?: string;
    prefersBorder?: boolean;
}
interface OAuthCallbackResult {
    code: string;
    iss?: string;
}
interface OAuthCallbackServer {
    readonly url: URL;
    waitForCode(): Promise<OAuthCallbackResult>;
    close(): Promise<void>;
}
interface OAuthCallbackServerOptions {
    redirectUrl: string | URL;
    state: string;
}
type OAuthMiddleware = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<{
    proceed: boolean;
}>;
interface OAuthMiddlewareOptions {
    oauth: OAuthProtectionOptions;
    mcpPath?: string;
    logger?: IMastraLogger;
}
interface OAuthProtectionOptions {
    resource: string;
    authorizationServers: string[];
    scopesSupported?: string[];
    resourceName?: string;
    validateToken?: TokenValidator;
}
interface OAuthStorage {
    get(key: string): Promise<string | undefined>;
    set(key: string, value: string): Promise<void>;
    delete(key: string): Promise<void>;
}
interface PendingAuthorization {
    state: string;
    redirectUri: string;
    scope: string | undefined;
}
type Prompt = Prompt & {
    version?: string;
};
declare const REGISTERED: unique symbol;
interface RegisteredClient {
    issuer: string;
    clientId: string;
    storageKey: string;
}
type RequestStateKey = string | Uint8Array;
interface RequireToolApprovalContext {
    toolName: string;
    args: Record<string, unknown>;
    requestContext?: Record<string, any>;
    annotations?: ToolAnnotations;
}
type ResolvedLimits = Required<MCPServerLimits>;
type ResourceTemplate = ResourceTemplateType;
type RoutableRequest = IncomingMessage | Request | {
    req: {
        url: string;
    };
};
declare class SSETransport implements Transport {
    private readonly messagePath;
    private readonly stream;
    readonly sessionId: `${string}-${string}-${string}-${string}-${string}`;
    onclose?: () => void;
    onerror?: (error: Error) => void;
    onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
    private closed;
    private readonly guard;
    constructor(messagePath: string, stream: SSEStreamingApi, options?: SSETransportOptions);
    start(): Promise<void>;
    send(message: JSONRPCMessage): Promise<void>;
    handleMessage(body: unknown, authInfo?: AuthInfo): void;
    close(): Promise<void>;
}
interface SSETransportOptions {
    maxBufferBytes?: number;
    writeTimeoutMs?: number;
    onerror?: (error: Error) => void;
    destroy?: () => void;
}
type SchemaBudgetExceeded = {
    kind: 'depth';
    limit: number;
    message: string;
} | {
    kind: 'nodes';
    limit: number;
    message: string;
} | {
    kind: 'raw';
    limit: number;
    message: string;
};
type ServerAuthState = 'needs-auth' | 'authorized';
interface SimpleTokenProviderOptions {
    redirectUrl: string | URL;
    clientMetadata: OAuthClientMetadata;
    clientInformation?: OAuthClientInformationMixed;
}
interface SseOptions extends HostGuardOptions {
    url: URL;
    ssePath: string;
    messagePath: string;
    req: AuthenticatedRequest;
    res: ServerResponse;
}
interface StdioServerDefinition extends BaseServerOptions {
    command: string;
    args?: string[];
    env?: Record<string, string>;
    inheritDefaultEnv?: boolean;
    cwd?: string;
    stderr?: 'inherit' | 'ignore' | ((line: string) => void);
    url?: never;
}
interface StreamableHTTPServerTransportOptions extends HostGuardOptions {
    serverless?: boolean;
    serverlessStreaming?: boolean;
    sessionIdGenerator?: (() => string) | undefined;
    onsessioninitialized?: (sessionId: string) => void;
    enableJsonResponse?: boolean;
    eventStore?: EventStore;
}
interface Task {
    taskId: string;
    status: TaskStatus;
    statusMessage?: string;
    createdAt: string;
    lastUpdatedAt: string;
    ttlMs: number | null;
    pollIntervalMs?: number;
}
interface TaskError {
    code: number;
    message: string;
    data?: unknown;
}
interface TaskInputRequest {
    method: string;
    params?: Record<string, unknown>;
}
type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
interface TokenValidationResult {
    valid: boolean;
    error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | (string & {});
    errorDescription?: string;
    requiredScopes?: string[];
    scopes?: string[];
    subject?: string;
    clientId?: string;
    expiresAt?: number;
    audience?: string | string[];
    claims?: Record<string, unknown>;
}
type TokenValidator = (token: string, resource: string) => Promise<TokenValidationResult>;
type ToolEntries<TServers> = {
    [S in keyof TServers & string]: {
        [N in keyof ToolsOf<TServers[S]> & string]: {
            key: `${S}_${N}`;
            entry: ToolsOf<TServers[S]>[N];
        };
    }[keyof ToolsOf<TServers[S]> & string];
}[keyof TServers & string];
interface ToolInfo {
    name: string;
    description?: string;
    inputSchema: unknown;
    outputSchema?: unknown;
    toolType?: MCPToolType;
    _meta?: Record<string, unknown>;
}
type ToolSchemaOverBudget = SchemaBudgetExceeded & {
    field: 'inputSchema' | 'outputSchema';
};
type ToolsOf<TServer> = TServer extends {
    tools: infer TTools;
} ? TTools : never;
type TypedToolOf<TEntry> = TEntry extends {
    input: infer TInput;
    output: infer TOutput;
} ? MCPTypedTool<TInput, TOutput> : MCPTool;
declare const WRONG_INSTANCE_REASON = "wrong_instance";
interface WebhookDelivery {
    readonly registry: WebhookRegistry;
    readonly shared: boolean;
    start(record: WebhookRecord, subscription: WebhookSubscription, from: string): Promise<void>;
    refreshed(record: WebhookRecord, subscription: WebhookSubscription, reactivated: boolean): Promise<void>;
    published(event: MCPStoredEvent): Promise<void>;
    wake(name: string): void;
    stop(id: string): Promise<void>;
    close(): Promise<void>;
}
interface WebhookDeliveryContext {
    options: WebhookDeliveryOptions;
    types: WebhookEventTypes;
    log: WebhookEventLog;
    sender: WebhookPoster;
    logger: () => IMastraLogger;
}
interface WebhookDeliveryOptions {
    retry: {
        attempts: number;
        initialDelayMs: number;
        maxDelayMs: number;
    };
    suspendAfter: number;
}
type WebhookErrorCategory = z.infer<typeof WebhookErrorCategorySchema>;
declare const WebhookErrorCategorySchema: z.ZodEnum<{
    connection_refused: "connection_refused";
    timeout: "timeout";
    tls_error: "tls_error";
    http_4xx: "http_4xx";
    http_5xx: "http_5xx";
    challenge_failed: "challenge_failed";
}>;
interface WebhookEventLog {
    cursor(type: WebhookEventType, position: string): EventCursor;
    head(): Promise<string>;
    read(subscription: WebhookSubscription, after: string, limit: number): Promise<MCPEventStoreReadResult>;
}
interface WebhookEventType {
    readonly name: string;
    readonly replay: boolean;
    readonly config: {
        matches?: ((args: Record<string, unknown>, occurrence: MCPEventOccurrence) => boolean) | undefined;
    };
}
interface WebhookEventTypes {
    get(name: string): WebhookEventType | undefined;
    matcher(type: WebhookEventType, args: Record<string, unknown>): (occurrence: MCPEventOccurrence) => boolean;
}
interface WebhookMessage {
    url: string;
    subscriptionId: string;
    messageId: string;
    body: string;
    secrets: string[];
    readBody?: number;
    signal: AbortSignal;
}
type WebhookOutcome = {
    ok: true;
    status: number;
    body?: string;
} | {
    ok: false;
    category: WebhookErrorCategory;
    status?: number;
    final: boolean;
};
interface WebhookPoster {
    send(message: WebhookMessage): Promise<WebhookOutcome>;
}
interface WebhookRecord {
    id: string;
    principal: string;
    url: string;
    name: string;
    args: Record<string, unknown>;
    secret: string;
    previous: {
        secret: string;
        until: number;
    } | undefined;
    expiresAt: number;
    status: DeliveryStatus;
    abandonedInRow: number;
    watermark: string;
}
interface WebhookRefresh {
    secret: string;
    graceUntil: number;
    expiresAt: number;
}
interface WebhookRegistry {
    counts(): {
        subscriptions: number;
        suspended: number;
    };
    get(id: string): Promise<WebhookRecord | undefined>;
    list(name?: string): Promise<WebhookRecord[]>;
    create(record: WebhookRecord, max: number): Promise<'created' | 'exists' | 'full'>;
    refresh(id: string, change: WebhookRefresh): Promise<WebhookRecord | undefined>;
    delete(id: string): Promise<boolean>;
    report(id: string, report: WebhookReport): Promise<void>;
    verified(key: string): Promise<boolean>;
    markVerified(key: string, ttlMs: number): Promise<void>;
}
type WebhookReport = {
    kind: 'delivered';
} | {
    kind: 'rejected';
} | {
    kind: 'failed';
    error: WebhookErrorCategory;
} | {
    kind: 'abandoned';
    suspendAfter: number;
};
interface WebhookSubscription {
    readonly type: WebhookEventType;
    readonly args: Record<string, unknown>;
    readonly match: (occurrence: MCPEventOccurrence) => boolean;
}
interface WithErrorsOptions {
    perServerTimeoutMs?: number;
}
declare function createIntrospectionValidator(url: string, options: IntrospectionValidatorOptions): TokenValidator;
declare function createOAuthCallbackServer(options: OAuthCallbackServerOptions): Promise<OAuthCallbackServer>;
declare function createOAuthMiddleware(options: OAuthMiddlewareOptions): OAuthMiddleware;
declare function createSimpleTokenProvider(token: string, options: SimpleTokenProviderOptions): MCPOAuthClientProvider;
declare function createStaticTokenValidator(tokens: string[]): TokenValidator;
declare function getCallbackUrlCandidates(redirectUrl: string | URL): URL[];
declare function requestStateInstance(state: string): string | undefined;
declare function requestUrl(request: RoutableRequest, base?: string): URL | undefined;
declare function taskSupportOf(definition: Pick<MCPToolDefinition, '_meta'>): MCPToolTaskSupport | undefined;
