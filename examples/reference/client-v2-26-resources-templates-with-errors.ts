// MCPClient reference (v2), "resources.templatesWithErrors(options?)": templates plus per-server errors.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

const { templates, errors, errorDetails } = await mcpClient.resources.templatesWithErrors();
console.log(templates, errors, errorDetails);
