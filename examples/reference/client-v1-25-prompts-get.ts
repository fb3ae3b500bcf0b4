// MCPClient reference (v1), "prompts.get({ serverName, name, args?, version? })": one prompt and its messages.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

const { prompt, messages } = await mcpClient.prompts.get({
  serverName: 'myWeatherServer',
  name: 'current',
  args: { location: 'London' },
});
console.log(prompt);
console.log(messages);
