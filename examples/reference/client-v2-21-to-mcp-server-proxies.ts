// MCPClient reference (v2), "toMCPServerProxies()" (src/mastra/index.ts): external servers registered in Mastra's mcpServers.
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
