import { MCPClient } from 'mastra-mcp';
import type { MCPServers } from './mcp-types.generated.js'; // written by the command below

export const mcp = new MCPClient<MCPServers>({
  id: 'weather-client',
  servers: { weather: { url: new URL(process.env.WEATHER_MCP_URL ?? 'http://127.0.0.1:3000/mcp') } },
  typegen: { outFile: 'examples/docs/contracts/mcp-types.generated.ts' }, // relative to where the command runs
});
