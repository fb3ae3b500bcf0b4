// MCPClient reference (v2), "Response types" (Accept): an input request handler returning the user's confirmed data.
import type { MCPInputRequestHandler } from 'mastra-mcp';

// The page shows only the return statement; the handler around it is added.
const inputRequests: MCPInputRequestHandler = async () => {
  return {
    action: 'accept',
    content: { name: 'John Doe', email: 'john@example.com' },
  };
};
