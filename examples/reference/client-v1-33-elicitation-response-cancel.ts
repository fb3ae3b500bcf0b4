// MCPClient reference (v1), "Response types": Cancel: the user dismissed the request (the page shows only the return statement; wrapped in a handler).
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

mcpClient.elicitation.onRequest('interactiveServer', async (request) => {
  return { action: 'cancel' };
});
