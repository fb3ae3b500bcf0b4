// MCPClient reference (v2), "Generate client types" (src/mcp/clients.ts): independent clients with distinct ids and output paths.
import { MCPClient } from 'mastra-mcp';

const servers = { weather: { url: new URL(process.env.WEATHER_MCP_URL!) } };
export const first = new MCPClient({
  id: 'first',
  servers,
  typegen: { outFile: 'first.generated.ts' },
});
export const second = new MCPClient({
  id: 'second',
  servers,
  typegen: { outFile: 'second.generated.ts' },
});
