// MCPClient reference (v1), "resources property": resource methods reached through mcpClient.resources.
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({ /* ...servers configuration... */ servers: {} });

// Access resource methods via mcpClient.resources
const allResourcesByServer = await mcpClient.resources.list();
const templatesByServer = await mcpClient.resources.templates();
// ... and so on for other resource methods.
