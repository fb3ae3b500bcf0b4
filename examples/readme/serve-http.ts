import http from 'node:http';
import { server } from './publish.js';

const httpServer = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost:3000');
  // One endpoint for 2026-07-28 clients (stateless) and legacy clients (sessions).
  await server.startHTTP({ url, httpPath: '/mcp', req, res });
});
httpServer.listen(3000, '127.0.0.1');
