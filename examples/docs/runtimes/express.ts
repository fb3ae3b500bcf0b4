import express from 'express';
import { requestUrl } from 'mastra-mcp';
import { server } from './server.js';

const app = express();

// No body parser in front of /mcp: MCPServer reads the body itself, within its limits.
app.all('/mcp', async (req, res) => {
  const url = requestUrl(req); // never throws; undefined for a malformed request target
  if (!url) {
    res.status(400).end();
    return;
  }
  await server.startHTTP({ url, httpPath: '/mcp', req, res, cors: { origins: ['https://app.example.com'] } });
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`MCP server at http://127.0.0.1:${port}/mcp`));
