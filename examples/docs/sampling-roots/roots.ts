import { pathToFileURL } from 'node:url';
import { MCPClient } from 'mastra-mcp';

const project = pathToFileURL('/home/me/project').href; // roots are file:// URIs

const mcp = new MCPClient({
  servers: {
    files: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/project'],
      roots: [{ uri: project, name: 'project' }],
    },
    // A function is read each time the server asks.
    search: { url: new URL('http://127.0.0.1:3000/mcp'), roots: () => [{ uri: project }] },
  },
});

// Replaces the roots of every server that has some (or of one: { server: 'files' }); connected 2025
// servers get notifications/roots/list_changed, 2026-07-28 servers read the list when they next ask.
await mcp.roots.set([{ uri: pathToFileURL('/home/me/other').href, name: 'other' }]);

await mcp.disconnect();
