export type { ElicitResult, LoggingLevel, PromptMessage, Resource } from '@modelcontextprotocol/server';
export { MCPClient } from './client/client.js';
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
  HttpServerDefinition,
  LogHandler,
  LogMessage,
  MastraFetchLike,
  MastraMCPServerDefinition,
  MCPClientCapabilities,
  MCPClientOptions,
  MCPErrorDetail,
  MCPInputRequest,
  MCPInputRequestHandler,
  MCPServerImplementation,
  MCPTraceContext,
  RequireToolApprovalContext,
  StdioServerDefinition,
  WithErrorsOptions,
} from './client/types.js';
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
export { MCPServer, type MCPServerHonoSSEStartOptions, type ToolInfo } from './server/server.js';
export { SSETransport } from './server/transports/hono-sse.js';
export type {
  AppResource,
  AppResources,
  ElicitationRequest,
  MCPRequestExtra,
  MCPServerCompletion,
  MCPServerCompletionRequest,
  MCPServerConfig,
  MCPServerPrompts,
  MCPServerResourceContent,
  MCPServerResources,
  MCPToolContext,
  Prompt,
  ResourceTemplate,
  StreamableHTTPServerTransportOptions,
} from './server/types.js';
