// MCPClient reference (v2), "resources Property": resource operations through mcpClient.resources.
// Page change: the elided configuration is filled as an empty `servers` map.
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({
  servers: {
    /* ...servers configuration... */
  },
});

// Access resource methods via mcpClient.resources
const allResourcesByServer = await mcpClient.resources.list();
const templatesByServer = await mcpClient.resources.templates();
// ... and so on for other resource methods.
