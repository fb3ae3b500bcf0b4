import { MCPClient } from 'mastra-mcp';

// The file Claude Desktop, Cursor or VS Code already reads (`mcpServers`, or VS Code's `servers`);
// a parsed object works too: MCPClient.fromConfig({ mcpServers: { ... } }).
const mcp = await MCPClient.fromConfig('.cursor/mcp.json', {
  id: 'from-cursor',
  // What such a file cannot say, added per server of the file:
  servers: { github: { requireToolApproval: true, excludeTools: ['delete_*'] } },
});

const tools = await mcp.listTools(); // keys `<server>_<tool>`, as for any MCPClient
console.log(Object.keys(tools));
await mcp.disconnect();
