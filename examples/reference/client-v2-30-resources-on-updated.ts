// MCPClient reference (v2), "resources.onUpdated(serverName, handler)": a handler for updates of subscribed resources.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

mcpClient.resources.onUpdated('myWeatherServer', (params) => {
  console.log(`Resource updated on myWeatherServer: ${params.uri}`);
  // You might want to re-fetch the resource content here
  // await mcpClient.resources.read("myWeatherServer", params.uri);
});
