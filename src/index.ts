// Loaded for its effect: the proxies' implementation plugs itself into the client (client/server-proxies.ts),
// so every MCPClient the package entry hands out can build them.
import './proxy/server-proxy.js';

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
} from './compat/index.js';
// The server side: MCPServer and what serving takes, also published alone as `mastra-mcp/server`.
export * from './server-entry.js';
