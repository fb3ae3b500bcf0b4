/**
 * `mastra-mcp/server`: MCPServer and what serving takes, without MCPClient. The package entry
 * (index.ts) exports both sides; a process that only serves (a stdio server a host spawns and
 * waits on) imports this one and loads none of the client side: not the SDK's client, not the
 * client's features. The package entry re-exports this module: every name here is its too.
 */

export type { ElicitResult, LoggingLevel, PromptMessage, Resource } from '@modelcontextprotocol/server';
export { MCPServer, type MCPServerHonoSSEStartOptions } from './compat/server.js';
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
