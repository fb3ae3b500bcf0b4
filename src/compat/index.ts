/**
 * The one door of src/compat: the public MCPClient and MCPServer (the core classes plus the
 * shapes only older reference pages and transports ask for) and those shapes' types. Only
 * src/index.ts imports it; nothing of the core does (test/e2e/architecture.test.ts).
 */
export { MCPClient } from './client.js';
export type { ElicitationHandler, MCPClientElicitation, MCPElicitationRequest } from './elicitation.js';
export { MCPServer, type MCPServerHonoSSEStartOptions } from './server.js';
