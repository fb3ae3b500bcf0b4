import http from 'node:http';
import { requestUrl } from 'mastra-mcp';
import { server } from '../tools/publish.js';

http
  .createServer(async (req, res) => {
    const url = requestUrl(req, 'http://localhost:3000');
    if (!url) {
      res.writeHead(400).end('Bad request target');
      return;
    }
    await server.startHTTP({
      url,
      httpPath: '/mcp',
      req,
      res,
      // No session state between requests; `serverlessStreaming` lets progress reach the client.
      options: { serverless: true, serverlessStreaming: true },
    });
  })
  .listen(3000, '127.0.0.1');
