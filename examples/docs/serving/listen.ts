import { server } from '../tools/publish.js';

// port 0 picks a free port; `url` says which (http://127.0.0.1:<port>/mcp).
const { url, close } = await server.listen({ port: 0, host: '127.0.0.1', path: '/mcp' });
console.log(`MCP at ${url}, health at ${new URL('/health', url)}`);

process.once('SIGTERM', () => void close()); // stops listening; requests in flight get 5 s to finish
