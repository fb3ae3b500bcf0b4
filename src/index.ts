// Loaded for its effect: the proxies' implementation plugs itself into the client (client/server-proxies.ts),
// so every MCPClient the package entry hands out can build them.
import './proxy/server-proxy.js';

export type { ElicitResult, LoggingLevel, PromptMessage, Resource } from '@modelcontextprotocol/server';
export type { ServerAuthState } from './client/auth/auth-required.js';
export {
  createOAuthCallbackServer,
  getCallbackUrlCandidates,
  type OAuthCallbackResult,
  type OAuthCallbackServer,
  type OAuthCallbackServerOptions,
} from './client/auth/callback-server.js';
export { MCPOAuthClientProvider, type MCPOAuthClientProviderOptions } from './client/auth/oauth-provider.js';
export {
  createSimpleTokenProvider,
  type SimpleTokenProviderOptions,
} from './client/auth/simple-token-provider.js';
export { InMemoryOAuthStorage, type OAuthStorage } from './client/auth/storage.js';
export type {
  MCPClientConfigOptions,
  MCPConfig,
  MCPConfigInput,
  MCPConfigServer,
  MCPServerConfigOverrides,
} from './client/config-file/types.js';
export { InMemoryMCPEventCursorStore, type MCPEventCursorStore } from './client/events/cursor-store.js';
export type { MCPClientEvents } from './client/events/event-actions.js';
export {
  type MCPEventsErrorInfo,
  MCPEventsSignalProvider,
  type MCPEventsSignalProviderOptions,
  type MCPEventsSubscriptionInput,
  type MCPEventsThread,
} from './client/events/signal-provider.js';
export type {
  MCPClientWebhookOptions,
  MCPEventDeliveryMode,
  MCPEventDeliveryStatus,
  MCPEventDescriptor,
  MCPEventErrorHandler,
  MCPEventRetryOptions,
  MCPEventSubscribeOptions,
  MCPEventSubscription,
  MCPReceivedEvent,
} from './client/events/types.js';
export type {
  MCPClientRoots,
  MCPClientRootsOption,
  MCPRoot,
  MCPRootsProvider,
} from './client/roots/types.js';
export type {
  CreateMessageRequestParams,
  CreateMessageResult,
  MCPClientSamplingOption,
  MCPSamplingApproval,
  MCPSamplingContext,
  MCPSamplingDecision,
  MCPSamplingHandler,
  MCPSamplingModel,
  MCPSamplingOptions,
} from './client/sampling/types.js';
export { MCPClientServerProxy } from './client/server-proxies.js';
export type { MCPClientSkills } from './client/skills/api.js';
export type { MCPClientSkillsOptions } from './client/skills/options.js';
export type {
  MCPClientSkillEntry,
  MCPMastraSkillsOptions,
  MCPSkillFile,
  MCPSkillSelector,
  MCPSkillsWithErrors,
} from './client/skills/types.js';
export type { MCPSkillsWorkspace } from './client/skills/workspace.js';
export { type MCPToolTaskSupport, taskSupportOf } from './client/tasks/task-support.js';
export type { MCPClientTasks, MCPTask, MCPTaskStart, MCPTaskWaitOptions } from './client/tasks/types.js';
export type { MCPToolDefinition } from './client/tools/definition.js';
export type {
  MCPServerTypes,
  MCPTool,
  MCPToolExecuteResult,
  MCPToolMap,
  MCPToolsetMap,
  MCPTypedTool,
} from './client/typed.js';
export type {
  FanOutErrors,
  HttpServerDefinition,
  LogHandler,
  LogMessage,
  MastraFetchLike,
  MastraMCPServerDefinition,
  MCPClientCapabilities,
  MCPClientOptions,
  MCPClientProgress,
  MCPClientPrompts,
  MCPClientResources,
  MCPClientTools,
  MCPErrorDetail,
  MCPErrorDetailCode,
  MCPEventSourceInit,
  MCPGetPromptResult,
  MCPInputRequest,
  MCPInputRequestHandler,
  MCPProgressUpdate,
  MCPPrompt,
  MCPPromptsWithErrors,
  MCPReadResourceResult,
  MCPResourceContents,
  MCPResourcesWithErrors,
  MCPResourceTemplatesWithErrors,
  MCPServerImplementation,
  MCPToolDefinitionsWithErrors,
  MCPToolsetsWithErrors,
  MCPToolsWithErrors,
  MCPTraceContext,
  RequireToolApprovalContext,
  StdioServerDefinition,
  WithErrorsOptions,
} from './client/types.js';
export {
  type ElicitationHandler,
  MCPClient,
  type MCPClientElicitation,
  type MCPElicitationRequest,
  MCPServer,
  type MCPServerHonoSSEStartOptions,
} from './compat/index.js';
export { MCPErrorCategories, type MCPErrorCategory, MCPErrorCode } from './errors.js';
export { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION_ID } from './server/app-resources.js';
export {
  createOAuthMiddleware,
  type OAuthMiddleware,
  type OAuthMiddlewareOptions,
  type OAuthProtectionOptions,
} from './server/auth/oauth-middleware.js';
export {
  createIntrospectionValidator,
  createStaticTokenValidator,
  type IntrospectionValidatorOptions,
  type TokenValidationResult,
  type TokenValidator,
} from './server/auth/token-validators.js';
export type {
  MCPServerBusEvent,
  MCPServerEventBus,
  MCPServerEventBusListener,
  MCPServerEventBusMember,
} from './server/event-bus.js';
export type {
  MCPEventOccurrence,
  MCPEventStore,
  MCPEventStoreFilter,
  MCPEventStoreReadResult,
  MCPStoredEvent,
  MCPWebhookQueue,
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
} from './server/events/contracts.js';
export { InMemoryMCPEventStore } from './server/events/memory-store.js';
export type {
  InMemoryMCPEventStoreOptions,
  MCPEmitOptions,
  MCPEmittedEvent,
  MCPEventAuthorizationRequest,
  MCPEventTypeConfig,
  MCPEventTypes,
  MCPServerEvents,
  MCPServerEventsConfig,
  MCPServerWebhookOptions,
  MCPServerWebhookRetryOptions,
} from './server/events/types.js';
export { DEFAULT_LIMITS, type MCPServerLimits } from './server/limits.js';
export {
  type MCPServerRequestStateOptions,
  type RequestStateKey,
  requestStateInstance,
} from './server/request-state.js';
export type {
  MCPServerSkills,
  MCPServerSkillsApi,
  MCPServerSkillsConfig,
  MCPSkillEntry,
  MCPSkillSourceConfig,
  MCPSkillsAgent,
} from './server/skills/types.js';
export { WRONG_INSTANCE_REASON } from './server/suspended-calls.js';
export { InMemoryMCPTaskStore, type InMemoryMCPTaskStoreOptions } from './server/tasks/memory-store.js';
export type {
  MCPServerTasksConfig,
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskSupport,
  MCPTaskUpdate,
} from './server/tasks/types.js';
export type { ToolInfo } from './server/tool-info.js';
export type { SSETransport } from './server/transports/hono-sse-transport.js';
export { type RoutableRequest, requestUrl } from './server/transports/request-target.js';
export type {
  AppResource,
  AppResources,
  ElicitationRequest,
  MCPInputContext,
  MCPInputRequestOptions,
  MCPPromptContext,
  MCPRequestExtra,
  MCPSamplingRequest,
  MCPServerCompletion,
  MCPServerCompletionRequest,
  MCPServerConfig,
  MCPServerPrompts,
  MCPServerResourceContent,
  MCPServerResources,
  MCPToolContext,
  MCPUiResourceCsp,
  MCPUiResourcePermissions,
  McpUiResourceMeta,
  Prompt,
  ResourceTemplate,
  StreamableHTTPServerTransportOptions,
} from './server/types.js';
export type {
  EventCursor as MCPEventCursor,
  WebhookErrorCategory as MCPWebhookErrorCategory,
} from './shared/events-wire.js';
export { MCP_INSTANCE_ID_HEADER } from './shared/instance-header.js';
export type {
  MCPMeterProvider,
  MCPTelemetryOptions,
  MCPTracerProvider,
} from './shared/telemetry/options.js';
