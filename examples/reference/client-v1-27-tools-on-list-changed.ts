// MCPClient reference (v1), "tools.onListChanged(serverName, handler)": handler for changes of a server's tool list.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

await mcpClient.tools.onListChanged('myWeatherServer', async () => {
  console.log('Tool list changed on myWeatherServer.');
  // You should re-fetch the tools
  // const tools = await mcpClient.listTools();
});
