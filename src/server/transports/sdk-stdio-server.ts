/** The SDK's stdio server, in a module of its own: transports/stdio.ts imports it on first use (see shared/lazy-module.ts). */
export { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
