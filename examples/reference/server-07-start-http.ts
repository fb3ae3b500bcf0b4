// MCPServer reference, "startHTTP()": serving Streamable HTTP from a Node http server with a session id generator.
import { randomUUID } from 'node:crypto';
import http from 'http';
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app:
declare const server: MCPServer;
declare const PORT: number;

const httpServer = http.createServer(async (req, res) => {
  await server.startHTTP({
    url: new URL(req.url || '', 'http://localhost:1234'),
    httpPath: `/mcp`,
    req,
    res,
    options: {
      sessionIdGenerator: () => randomUUID(),
    },
  });
});

httpServer.listen(PORT, () => {
  console.log(`HTTP server listening on port ${PORT}`);
});
