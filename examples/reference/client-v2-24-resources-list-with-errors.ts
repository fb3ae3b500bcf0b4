// MCPClient reference (v2), "resources.listWithErrors(options?)": resources plus per-server errors and durations.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

const { resources, errors, errorDetails, durations } = await mcpClient.resources.listWithErrors({
  perServerTimeoutMs: 3_000,
});

console.log(resources, errors, errorDetails, durations);
