/** The SDK's legacy HTTP+SSE transport, in a module of its own: sse.ts imports it on first use (see shared/lazy-module.ts). */
export { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';
