/**
 * The server's one door for code that hosts MCP traffic without being an MCPServer (the client
 * server proxies in src/proxy/): the connection set with its list-changed fan-out, the Streamable
 * HTTP endpoint, tracked stdio, request tracing (Mastra's and OpenTelemetry's), tool authorization, error shaping and error
 * results, registry metadata and the tool-info builder. src/proxy/ imports src/server/ only
 * through this file, so what a host relies on is listed here and the rest stays MCPServer's own.
 */
export { MCP_APPS_EXTENSION_ID } from './app-resources.js';
export { ToolAuthorization } from './auth/fga.js';
export { Connections } from './connections.js';
export type { InstanceProfile } from './instance-profile.js';
export { promptGetParams } from './protocol-server.js';
export { type ErrorReporting, ErrorShapingServer } from './request-errors.js';
export { registryServerDetail, registryServerInfo } from './server-info.js';
export { TelemetryServer } from './telemetry-server.js';
export { mcpRequestContext, requestExtra } from './tool-context.js';
export { coreTool, type ToolInfo, toolInfo } from './tool-info.js';
export { errorResult } from './tool-result.js';
export { forwardedTraceContext, type RequestTrace, type TracedHost, traced } from './trace-context.js';
export { loadTrackedStdio, type StdioServing } from './transports/stdio.js';
export { StreamableHttpEndpoint } from './transports/streamable-http.js';
