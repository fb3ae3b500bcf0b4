// MCPServer reference, "startHTTP()" (serverless streaming): serverless mode with request-scoped SSE streaming of progress notifications.
import type http from 'node:http';
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app (the surrounding serverless handler):
declare const server: MCPServer;
declare const url: URL;
declare const nodeReq: http.IncomingMessage;
declare const nodeRes: http.ServerResponse;

await server.startHTTP({
  url,
  httpPath: '/mcp',
  req: nodeReq,
  res: nodeRes,
  options: {
    serverless: true,
    serverlessStreaming: true, // ← Stream request-scoped notifications/progress
  },
});
