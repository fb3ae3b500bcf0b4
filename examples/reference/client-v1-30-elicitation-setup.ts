// MCPClient reference (v1), "Setting up elicitation": a handler set before calling tools that elicit.
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare function collectUserInput(schema: unknown): Promise<Record<string, any>>;

const mcpClient = new MCPClient({
  servers: {
    interactiveServer: {
      url: new URL('http://localhost:3000/mcp'),
    },
  },
});

// Set up elicitation handler
mcpClient.elicitation.onRequest('interactiveServer', async (request) => {
  // Handle the server's request for user input
  console.log(`Server needs: ${request.message}`);

  // Your logic to collect user input
  const userData = await collectUserInput(request.requestedSchema);

  return {
    action: 'accept',
    content: userData,
  };
});
