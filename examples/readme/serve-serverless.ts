import http from 'node:http';
import { server } from './publish.js';

http
  .createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost:3000');
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
