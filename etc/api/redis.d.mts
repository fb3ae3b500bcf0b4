// The public API of this entry as its built declarations declare it: scripts/api-report.ts
// wrote this file (npm run api:update); review every change to it.
export {
  REDIS_COMMAND_FAILED,
  REDIS_INVALID_OPTION,
  REDIS_UNAVAILABLE,
  type RedisCommandClient,
  RedisMCPEventCursorStore,
  type RedisMCPEventCursorStoreOptions,
  RedisMCPEventStore,
  type RedisMCPEventStoreOptions,
  type RedisMCPEventStoreSubscriber,
  RedisMCPServerEventBus,
  type RedisMCPServerEventBusOptions,
  RedisMCPTaskStore,
  type RedisMCPTaskStoreOptions,
  RedisOAuthStorage,
  type RedisOAuthStorageOptions,
  RedisResumabilityEventStore,
  type RedisResumabilityEventStoreOptions,
  type RedisStoreOptions,
  type RedisSubscriberClient,
  RedisWebhookQueue,
  type RedisWebhookQueueOptions,
  WEBHOOK_ENQUEUE_FAILED,
};
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
type EventCursor = string | null;
interface MCPEventCursorStore {
    get(key: string): Promise<string | null | undefined> | string | null | undefined;
    set(key: string, cursor: string): Promise<void> | void;
    delete(key: string): Promise<void> | void;
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
interface MCPWebhookQueue {
    open(context: WebhookDeliveryContext): WebhookDelivery;
}
type MessageListener = (message: string, channel: string) => unknown;
interface OAuthStorage {
    get(key: string): Promise<string | undefined>;
    set(key: string, value: string): Promise<void>;
    delete(key: string): Promise<void>;
}
declare const REDIS_COMMAND_FAILED: "MCP_REDIS_COMMAND_FAILED";
declare const REDIS_INVALID_OPTION: "MCP_REDIS_INVALID_OPTION";
declare const REDIS_UNAVAILABLE: "MCP_REDIS_UNAVAILABLE";
interface RedisCommandClient {
    readonly isReady: boolean;
    sendCommand(args: ReadonlyArray<string>, options?: {
        abortSignal?: AbortSignal;
    }): Promise<unknown>;
}
declare class RedisKeyValue {
    private readonly store;
    readonly keyPrefix: string;
    private readonly client;
    private readonly ttlSeconds;
    private readonly timeoutMs;
    protected constructor(store: string, defaultPrefix: string, options: RedisStoreOptions);
    get(key: string): Promise<string | null | undefined>;
    set(key: string, value: string): Promise<void>;
    delete(key: string): Promise<void>;
    private run;
}
declare class RedisMCPEventCursorStore extends RedisKeyValue implements MCPEventCursorStore {
    constructor(options: RedisMCPEventCursorStoreOptions);
}
type RedisMCPEventCursorStoreOptions = RedisStoreOptions;
declare class RedisMCPEventStore implements MCPEventStore {
    readonly epoch = "redis";
    readonly keyPrefix: string;
    private readonly client;
    private readonly subscriber;
    private readonly maxEvents;
    private readonly maxAgeMs;
    private readonly timeoutMs;
    private readonly onError;
    private readonly channel;
    private readonly origin;
    private readonly listeners;
    private readonly known;
    constructor(options: RedisMCPEventStoreOptions);
    append(occurrence: MCPEventOccurrence): Promise<MCPStoredEvent>;
    readAfter(after: string, filter: MCPEventStoreFilter, limit: number): Promise<MCPEventStoreReadResult>;
    head(): Promise<string>;
    watch(listener: (name: string) => void): () => void;
    private page;
    private readonly onMessage;
    private readonly onReady;
    private listen;
    private stopListening;
    private streamKey;
    private keys;
    private subject;
}
interface RedisMCPEventStoreOptions {
    client: RedisCommandClient;
    subscriber: RedisMCPEventStoreSubscriber;
    serverId: string;
    keyPrefix?: string;
    maxEvents?: number;
    maxAgeMs?: number;
    timeoutMs?: number;
    onError?: (error: Error) => void;
}
interface RedisMCPEventStoreSubscriber extends RedisSubscriberClient {
    on(event: 'ready', listener: () => void): unknown;
    off(event: 'ready', listener: () => void): unknown;
}
declare class RedisMCPServerEventBus implements MCPServerEventBus {
    readonly channelPrefix: string;
    private readonly client;
    private readonly subscriber;
    private readonly timeoutMs;
    private readonly channels;
    constructor(options: RedisMCPServerEventBusOptions);
    join(serverId: string, listener: MCPServerEventBusListener): MCPServerEventBusMember;
    private open;
    private dispatch;
    private subject;
}
interface RedisMCPServerEventBusOptions {
    client: RedisCommandClient;
    subscriber: RedisSubscriberClient;
    channelPrefix?: string;
    timeoutMs?: number;
}
declare class RedisMCPTaskStore implements MCPTaskStore {
    readonly keyPrefix: string;
    private readonly client;
    private readonly subscriber;
    private readonly base;
    private readonly channel;
    private readonly timeoutMs;
    private readonly onError;
    private readonly bounds;
    private readonly listeners;
    private subscribed;
    constructor(options: RedisMCPTaskStoreOptions);
    create(task: MCPStoredTask): Promise<void>;
    get(taskId: string): Promise<MCPStoredTask | undefined>;
    update(taskId: string, update: MCPTaskUpdate, expect?: {
        instanceId: string;
    }): Promise<MCPStoredTask | undefined>;
    signal(taskId: string, signal: MCPTaskSignal): Promise<void>;
    watch(listener: MCPTaskStoreListener): () => void;
    heartbeat(instanceId: string, ttlMs: number): Promise<void>;
    isAlive(instanceId: string): Promise<boolean>;
    release(instanceId: string): Promise<void>;
    private readonly deliver;
    private taskKey;
    private command;
    private script;
    private subject;
}
interface RedisMCPTaskStoreOptions {
    client: RedisCommandClient;
    subscriber: RedisSubscriberClient;
    serverId: string;
    keyPrefix?: string;
    timeoutMs?: number;
    onError?: (error: Error) => void;
    maxFinishedTaskBytes?: number;
    maxFinishedTaskBytesPerPrincipal?: number;
    maxFinishedTasks?: number;
    maxFinishedTasksPerPrincipal?: number;
}
declare class RedisOAuthStorage extends RedisKeyValue implements OAuthStorage {
    constructor(options: RedisOAuthStorageOptions);
    get(key: string): Promise<string | undefined>;
}
type RedisOAuthStorageOptions = RedisStoreOptions;
declare class RedisResumabilityEventStore implements EventStore {
    readonly keyPrefix: string;
    private readonly client;
    private readonly maxLength;
    private readonly ttlSeconds;
    private readonly timeoutMs;
    constructor(options: RedisResumabilityEventStoreOptions);
    storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId>;
    getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined>;
    replayEventsAfter(lastEventId: EventId, { send }: {
        send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>;
    }): Promise<StreamId>;
    private message;
    private subject;
}
interface RedisResumabilityEventStoreOptions {
    client: RedisCommandClient;
    keyPrefix?: string;
    maxLength?: number;
    ttlSeconds?: number;
    timeoutMs?: number;
}
interface RedisStoreOptions {
    client: RedisCommandClient;
    keyPrefix?: string;
    ttlSeconds?: number;
    timeoutMs?: number;
}
interface RedisSubscriberClient {
    readonly isReady: boolean;
    subscribe(channel: string, listener: MessageListener): Promise<void>;
    unsubscribe(channel: string, listener: MessageListener): Promise<void>;
}
declare class RedisWebhookQueue implements MCPWebhookQueue {
    readonly keyPrefix: string;
    readonly consumer: string;
    private readonly settings;
    private opened;
    constructor(options: RedisWebhookQueueOptions);
    open(context: WebhookDeliveryContext): WebhookDelivery;
}
interface RedisWebhookQueueOptions {
    client: RedisCommandClient;
    reader: RedisCommandClient;
    serverId: string;
    keyPrefix?: string;
    consumer?: string;
    concurrency?: number;
    reclaimIdleMs?: number;
    timeoutMs?: number;
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
declare const WEBHOOK_ENQUEUE_FAILED: "MCP_EVENTS_WEBHOOK_ENQUEUE_FAILED";
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
