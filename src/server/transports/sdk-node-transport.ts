/** The SDK's Node transport for legacy requests, in a module of its own: streamable-http.ts imports it on first use (see shared/lazy-module.ts). */
export { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
