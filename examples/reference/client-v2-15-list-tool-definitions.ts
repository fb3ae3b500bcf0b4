// MCPClient reference (v2), "listToolDefinitions()": serializable tool definitions cached as JSON.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const cache: { get(key: string): Promise<string>; set(key: string, value: string): Promise<void> };

const definitions = await mcp.listToolDefinitions();

await cache.set('mcp-tools', JSON.stringify(definitions));
