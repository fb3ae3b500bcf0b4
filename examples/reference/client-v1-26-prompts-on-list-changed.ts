// MCPClient reference (v1), "prompts.onListChanged(serverName, handler)": handler for changes of a server's prompt list.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

mcpClient.prompts.onListChanged('myWeatherServer', () => {
  console.log('Prompt list changed on myWeatherServer.');
  // You should re-fetch the list of prompts
  // await mcpClient.prompts.list();
});
