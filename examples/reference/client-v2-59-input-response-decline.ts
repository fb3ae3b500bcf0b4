// MCPClient reference (v2), "Response types" (Decline): an input request handler reporting that the user declined.
import type { MCPInputRequestHandler } from 'mastra-mcp';

// The page shows only the return statement; the handler around it is added.
const inputRequests: MCPInputRequestHandler = async () => {
  return { action: 'decline' };
};
