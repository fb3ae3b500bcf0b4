// MCPClient reference (v2), "toolFromDefinition()": one executable tool rebuilt from a cached definition.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const cache: { get(key: string): Promise<string>; set(key: string, value: string): Promise<void> };

const definitions = JSON.parse(await cache.get('mcp-tools'));

const tool = await mcp.toolFromDefinition({
  serverName: 'weather',
  definition: definitions.weather.getForecast,
});
