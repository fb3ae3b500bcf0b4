import { server } from './server.js';

const port = Number(process.env.PORT ?? 3000);
// Bun ends a response that sends nothing for 10 s; idleTimeout: 0 keeps SSE and listen streams open.
const listening = Bun.serve({ port, hostname: '127.0.0.1', idleTimeout: 0, fetch: server.fetch });
console.log(`MCP server at ${new URL('/mcp', listening.url)}`);
