// MCPClient reference (v1), "elicitation property": an elicitation handler set through mcpClient.elicitation.onRequest().
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({ /* ...servers configuration... */ servers: {} });

// Set up elicitation handler
mcpClient.elicitation.onRequest('serverName', async (request) => {
  // Handle elicitation request from server
  console.log('Server requests:', request.message);
  console.log('Schema:', request.requestedSchema);

  // Return user response
  return {
    action: 'accept',
    content: { name: 'John Doe', email: 'john@example.com' },
  };
});
