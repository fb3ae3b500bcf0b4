import http from 'node:http';
import { requestUrl } from 'mastra-mcp';
import { server } from '../tools/publish.js';

const httpServer = http.createServer(async (req, res) => {
  // Unlike `new URL(req.url, base)`, never throws: a malformed request target is undefined.
  const url = requestUrl(req, 'http://localhost:3000');
  if (!url) {
    res.writeHead(400).end('Bad request target');
    return;
  }
  // One endpoint for 2026-07-28 clients (stateless) and legacy clients (sessions). It never
  // rejects: a hostile request gets its 4xx, an internal failure a 500 (and the server's log).
  await server.startHTTP({ url, httpPath: '/mcp', req, res });
});
httpServer.listen(3000, '127.0.0.1');
