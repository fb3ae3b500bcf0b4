// MCPClient reference (v2), "Response types" (Cancel): an input request handler reporting that the user dismissed the request.
import type { MCPInputRequestHandler } from 'mastra-mcp';

// The page shows only the return statement; the handler around it is added.
const inputRequests: MCPInputRequestHandler = async () => {
  return { action: 'cancel' };
};
