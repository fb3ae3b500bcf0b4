// MCPClient reference (v2), "Generate client types" (src/mcp/client.ts): an exported client with typegen.outFile.
// Page change: './mcp-types.generated' (written by `mastra-mcp generate`) stands in as example 01's identical MCPServers.
import { MCPClient } from 'mastra-mcp';
import type { MCPServers } from './client-v2-01-typed-contracts.js';

export const mcp = new MCPClient<MCPServers>({
  id: 'weather-client',
  servers: { weather: { url: new URL(process.env.WEATHER_MCP_URL!) } },
  typegen: { outFile: 'src/mcp/mcp-types.generated.ts' },
});
