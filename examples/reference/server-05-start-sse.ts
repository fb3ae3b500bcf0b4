// MCPServer reference, "startSSE()": serving the legacy SSE transport from a Node http server (clients connect to http://localhost:1234/sse).
import http from 'http';
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app:
declare const server: MCPServer;
declare const PORT: number;

const httpServer = http.createServer(async (req, res) => {
  await server.startSSE({
    url: new URL(req.url || '', `http://localhost:1234`),
    ssePath: '/sse',
    messagePath: '/message',
    req,
    res,
  });
});

httpServer.listen(PORT, () => {
  console.log(`HTTP server listening on port ${PORT}`);
});
