// MCPClient reference (v1), "prompts property": prompt methods reached through mcpClient.prompts, get() returning { prompt, messages }.
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({ /* ...servers configuration... */ servers: {} });

// Access prompt methods via mcpClient.prompts
const allPromptsByServer = await mcpClient.prompts.list();
const { prompt, messages } = await mcpClient.prompts.get({
  serverName: 'myWeatherServer',
  name: 'current',
});
