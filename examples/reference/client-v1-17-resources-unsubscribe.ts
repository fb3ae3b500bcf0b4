// MCPClient reference (v1), "resources.unsubscribe(serverName, uri)": ending a resource subscription.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

await mcpClient.resources.unsubscribe('myWeatherServer', 'weather://current');
