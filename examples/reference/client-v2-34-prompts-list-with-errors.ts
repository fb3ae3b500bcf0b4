// MCPClient reference (v2), "prompts.listWithErrors(options?)": prompts plus per-server errors.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

const { prompts, errors, errorDetails } = await mcpClient.prompts.listWithErrors();
console.log(prompts, errors, errorDetails);
