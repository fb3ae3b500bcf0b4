import http from 'node:http';
import { Mastra } from '@mastra/core/mastra';
import { MCPClient, requestUrl } from 'mastra-mcp';

const mcp = new MCPClient({
  id: 'external-servers',
  servers: {
    'color-mixer': { command: 'node', args: ['path/to/color-mixer-server.js'] },
    docs: { url: new URL('https://docs.example.com/mcp') },
  },
});

// Connects every server and lists its tools now; rejects naming each server that cannot be reached.
const proxies = await mcp.toMCPServerProxies();

export const mastra = new Mastra({
  mcpServers: { ...proxies }, // registered (and given ids) under the client's server names
});

const mixer = mastra.getMCPServerById('color-mixer');
const { tools } = (await mixer?.getToolListInfo()) ?? { tools: [] }; // live, `_meta.ui` included
const result = await mixer?.executeTool('mix', { a: 'red', b: 'blue' }); // { status: 'completed', output }
const app = await mixer?.readResource('ui://color-mixer/mixer.html'); // MCP Apps HTML, mimeType and _meta intact
console.log(
  tools.map((tool) => tool.name),
  result,
  app?.contents.length,
);

// Outside Mastra's own server (which routes /api/mcp/<id>/mcp here), any MCP client can reach it:
http
  .createServer(async (req, res) => {
    const url = requestUrl(req, 'http://localhost:4112');
    if (!url) {
      res.writeHead(400).end('Bad request target');
      return;
    }
    await proxies['color-mixer']?.startHTTP({ url, httpPath: '/mcp', req, res }); // never rejects
  })
  .listen(4112, '127.0.0.1');
