// MCPClient reference (v2), "resources.onListChanged(serverName, handler)": a handler for resource list changes.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

mcpClient.resources.onListChanged('myWeatherServer', () => {
  console.log('Resource list changed on myWeatherServer.');
  // You should re-fetch the list of resources
  // await mcpClient.resources.list();
});
