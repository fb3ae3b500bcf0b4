// The public API of this entry as its built declarations declare it: scripts/api-report.ts
// wrote this file (npm run api:update); review every change to it.
export {
  AppResource,
  AppResources,
  DEFAULT_LIMITS,
  ElicitResult,
  ElicitationRequest,
  InMemoryMCPEventStore,
  InMemoryMCPEventStoreOptions,
  InMemoryMCPTaskStore,
  InMemoryMCPTaskStoreOptions,
  IntrospectionValidatorOptions,
  LoggingLevel,
  MCPEmitOptions,
  MCPEmittedEvent,
  MCPErrorCategories,
  MCPErrorCategory,
  MCPErrorCode,
  MCPEventAuthorizationRequest,
  EventCursor as MCPEventCursor,
  MCPEventOccurrence,
  MCPEventStore,
  MCPEventStoreFilter,
  MCPEventStoreReadResult,
  MCPEventTypeConfig,
  MCPEventTypes,
  MCPInputContext,
  MCPInputRequestOptions,
  MCPMeterProvider,
  MCPPromptContext,
  MCPRequestExtra,
  MCPSamplingRequest,
  MCPServer,
  MCPServerBusEvent,
  MCPServerCompletion,
  MCPServerCompletionRequest,
  MCPServerConfig$1 as MCPServerConfig,
  MCPServerEventBus,
  MCPServerEventBusListener,
  MCPServerEventBusMember,
  MCPServerEvents,
  MCPServerEventsConfig,
  MCPServerHonoSSEStartOptions,
  MCPServerLimits,
  MCPServerPrompts,
  MCPServerRequestStateOptions,
  MCPServerResourceContent,
  MCPServerResources,
  MCPServerSkills,
  MCPServerSkillsApi,
  MCPServerSkillsConfig,
  MCPServerTasksConfig,
  MCPServerWebhookOptions,
  MCPServerWebhookRetryOptions,
  MCPSkillEntry,
  MCPSkillSourceConfig,
  MCPSkillsAgent,
  MCPStoredEvent,
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskSupport,
  MCPTaskUpdate,
  MCPTelemetryOptions,
  MCPToolContext,
  MCPTracerProvider,
  MCPUiResourceCsp,
  MCPUiResourcePermissions,
  WebhookErrorCategory as MCPWebhookErrorCategory,
  MCPWebhookQueue,
  MCP_APPS_EXTENSION_ID,
  MCP_APP_MIME_TYPE,
  MCP_INSTANCE_ID_HEADER,
  McpUiResourceMeta,
  OAuthMiddleware,
  OAuthMiddlewareOptions,
  OAuthProtectionOptions,
  Prompt$1 as Prompt,
  PromptMessage,
  RequestStateKey,
  Resource,
  ResourceTemplate,
  RoutableRequest,
  SSETransport,
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
  createIntrospectionValidator,
  createOAuthMiddleware,
  createStaticTokenValidator,
  requestStateInstance,
  requestUrl,
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
interface HostGuardOptions {
    allowedHosts?: string[];
    allowedOrigins?: string[];
    enableDnsRebindingProtection?: boolean;
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
interface IntrospectionValidatorOptions {
    clientId: string;
    clientSecret: string;
    timeoutMs?: number;
}
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
interface MCPEventAuthorizationRequest<TArgs = Record<string, unknown>> {
    name: string;
    args: TArgs;
    authInfo?: AuthInfo | undefined;
    delivery: EventDeliveryMode;
}
type MCPEventOccurrence = {
    eventId: string;
    name: string;
    timestamp: string;
    data: Record<string, unknown>;
    _meta?: Record<string, unknown>;
};
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
interface MCPInputRequestOptions {
    key?: string;
}
interface MCPMeterProvider {
    getMeter(name: string, version?: string): object;
}
interface MCPPromptContext extends MCPInputContext {
    extra: MCPRequestExtra;
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
interface MCPSkillSourceConfig {
    source: SkillSource;
    paths: string[];
    dynamic?: boolean;
}
interface MCPSkillsAgent {
    id: string;
    listSkills(): Promise<SkillMetadata[]>;
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
type MCPTaskSignal = {
    type: 'input';
    inputResponses: Record<string, unknown>;
} | {
    type: 'cancel';
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
interface MCPTelemetryOptions {
    enabled?: boolean;
    tracerProvider?: MCPTracerProvider;
    meterProvider?: MCPMeterProvider;
    captureContent?: boolean;
    maxContentBytes?: number;
}
interface MCPToolContext extends MCPInputContext {
    extra: MCPRequestExtra;
    log: (level: LoggingLevel, message: string, data?: Record<string, unknown>) => Promise<void>;
    progress: (params: {
        progress: number;
        total?: number;
        message?: string;
    }) => Promise<void>;
}
interface MCPToolTaskConfig {
    support: MCPTaskSupport;
    inputBeforeTask?: boolean;
}
interface MCPTracerProvider {
    getTracer(name: string, version?: string): object;
}
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
declare const MCP_INSTANCE_ID_HEADER = "Mcp-Instance-Id";
interface McpUiResourceMeta {
    csp?: MCPUiResourceCsp;
    permissions?: MCPUiResourcePermissions;
    domain?: string;
    prefersBorder?: boolean;
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
type Prompt = Prompt & {
    version?: string;
};
type RequestStateKey = string | Uint8Array;
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
interface SseOptions extends HostGuardOptions {
    url: URL;
    ssePath: string;
    messagePath: string;
    req: AuthenticatedRequest;
    res: ServerResponse;
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
interface ToolInfo {
    name: string;
    description?: string;
    inputSchema: unknown;
    outputSchema?: unknown;
    toolType?: MCPToolType;
    _meta?: Record<string, unknown>;
}
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
declare function createIntrospectionValidator(url: string, options: IntrospectionValidatorOptions): TokenValidator;
declare function createOAuthMiddleware(options: OAuthMiddlewareOptions): OAuthMiddleware;
declare function createStaticTokenValidator(tokens: string[]): TokenValidator;
declare function requestStateInstance(state: string): string | undefined;
declare function requestUrl(request: RoutableRequest, base?: string): URL | undefined;
