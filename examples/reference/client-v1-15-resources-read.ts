// MCPClient reference (v1), "resources.read(serverName, uri)": reading one resource's contents.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

const content = await mcpClient.resources.read('myWeatherServer', 'weather://current');
console.log('Current weather:', content.contents[0].text);
