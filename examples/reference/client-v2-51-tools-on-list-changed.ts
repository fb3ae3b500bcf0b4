// MCPClient reference (v2), "tools.onListChanged(serverName: string, handler: () => void)": register a handler for tool list changes.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

await mcpClient.tools.onListChanged('myWeatherServer', async () => {
  console.log('Tool list changed on myWeatherServer.');
  // You should re-fetch the tools
  // const tools = await mcpClient.listTools();
});
