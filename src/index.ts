export type { ElicitResult, LoggingLevel, PromptMessage, Resource } from '@modelcontextprotocol/server';
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
