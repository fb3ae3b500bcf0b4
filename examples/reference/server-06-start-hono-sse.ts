// MCPServer reference, "startHonoSSE()": the page's usage inside a Node http request handler (clients connect to http://localhost:1234/hono-sse).
import http from 'http';
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app:
declare const server: MCPServer;
declare const PORT: number;

const httpServer = http.createServer(async (req, res) => {
  await server.startHonoSSE({
    url: new URL(req.url || '', `http://localhost:1234`),
    ssePath: '/hono-sse',
    messagePath: '/message',
    req,
    res,
  });
});

httpServer.listen(PORT, () => {
  console.log(`HTTP server listening on port ${PORT}`);
});
