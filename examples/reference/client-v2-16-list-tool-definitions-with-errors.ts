// MCPClient reference (v2), "listToolDefinitionsWithErrors(options?)": cache the catalog only when every server answered.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const cache: { get(key: string): Promise<string>; set(key: string, value: string): Promise<void> };

const { definitions, errors, errorDetails, durations } = await mcp.listToolDefinitionsWithErrors({
  perServerTimeoutMs: 3_000,
});

if (Object.keys(errors).length === 0) {
  await cache.set('mcp-tools', JSON.stringify(definitions));
}

console.log(errorDetails, durations);
