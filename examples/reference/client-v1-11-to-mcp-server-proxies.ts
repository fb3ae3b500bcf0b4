// MCPClient reference (v1), "toMCPServerProxies()": external MCP servers spread into Mastra's mcpServers (src/mastra/index.ts).
import { Mastra } from '@mastra/core/mastra';
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({
  servers: {
    'color-mixer': {
      command: 'node',
      args: ['path/to/color-mixer-server.js'],
    },
  },
});

export const mastra = new Mastra({
  mcpServers: {
    ...(await mcpClient.toMCPServerProxies()),
  },
});
