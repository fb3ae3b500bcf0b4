import { server } from './weather.js';

// Streamable HTTP at /mcp (every protocol revision), legacy SSE at /sse, GET /health.
const { url } = await server.listen({ port: 3000 });
console.log(`MCP server listening at ${url}`);
