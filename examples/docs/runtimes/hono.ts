import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { requestUrl } from 'mastra-mcp';
import { server } from './server.js';

const app = new Hono();
app.get('/', (c) => c.text('Weather MCP server at /mcp'));
// server.fetch takes the web Request; path, CORS and OAuth come from the server's `http` option.
app.all('/mcp', (c) => server.fetch(c.req.raw));

// Legacy HTTP+SSE, for clients older than Streamable HTTP: GET /sse streams, POST /messages sends.
app.on(['GET', 'POST'], ['/sse', '/messages'], async (c) => {
  const url = requestUrl(c); // never throws; undefined for a malformed request target
  if (!url) return c.text('Bad request target', 400);
  return server.startHonoSSE({ url, ssePath: '/sse', messagePath: '/messages', context: c });
});

// On Node. On Bun: `export default { fetch: app.fetch, idleTimeout: 0 }`; on Deno: `Deno.serve(app.fetch)`.
const port = Number(process.env.PORT ?? 3000);
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) =>
  console.log(`MCP server at http://127.0.0.1:${info.port}/mcp`),
);
