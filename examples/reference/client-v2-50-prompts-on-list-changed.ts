// MCPClient reference (v2), "prompts.onListChanged(serverName: string, handler: () => void)": register a handler for prompt list changes.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

mcpClient.prompts.onListChanged('myWeatherServer', () => {
  console.log('Prompt list changed on myWeatherServer.');
  // You should re-fetch the list of prompts
  // await mcpClient.prompts.list();
});
