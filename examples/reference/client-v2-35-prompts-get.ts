// MCPClient reference (v2), "prompts.get({ serverName, name, args? })": one prompt's messages with arguments.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

const { messages } = await mcpClient.prompts.get({
  serverName: 'myWeatherServer',
  name: 'current',
  args: { location: 'London' },
});
console.log(messages);
