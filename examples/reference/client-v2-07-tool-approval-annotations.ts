// MCPClient reference (v2), "Use tool annotations from a trusted server": approval driven by the server's tool annotations.
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: {
    github: {
      url: new URL('http://localhost:3000/mcp'),
      requireToolApproval: ({ annotations }) => {
        // Skip approval for tools the server has marked read-only
        if (annotations?.readOnlyHint) return false;
        // Always require approval for destructive tools
        if (annotations?.destructiveHint) return true;
        return true;
      },
    },
  },
});
