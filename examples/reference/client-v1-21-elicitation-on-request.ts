// MCPClient reference (v1), "elicitation.onRequest(serverName, handler)": a handler accepting or declining based on the requested schema.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;

mcpClient.elicitation.onRequest('serverName', async (request) => {
  console.log(`Server requests: ${request.message}`);

  // Example: Simple user input collection
  if (request.requestedSchema.properties.name) {
    // Simulate user accepting and providing data
    return {
      action: 'accept',
      content: {
        name: 'Alice Smith',
        email: 'alice@example.com',
      },
    };
  }

  // Simulate user declining the request
  return { action: 'decline' };
});
