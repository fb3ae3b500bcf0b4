// MCPClient reference (v2), "prompts Property": prompt operations through mcpClient.prompts.
// Page change: the elided configuration is filled as an empty `servers` map.
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({
  servers: {
    /* ...servers configuration... */
  },
});

// Access prompt methods via mcpClient.prompts
const allPromptsByServer = await mcpClient.prompts.list();
const { prompt, messages } = await mcpClient.prompts.get({
  serverName: 'myWeatherServer',
  name: 'current',
});
