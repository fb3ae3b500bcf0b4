// MCPClient reference (v1), "resources.subscribe(serverName, uri)": subscribing to a resource's updates.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

await mcpClient.resources.subscribe('myWeatherServer', 'weather://current');
