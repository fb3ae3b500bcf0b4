// MCPClient reference (v1), "Using tool annotations from trusted servers": requireToolApproval decided from the tool's MCP annotations.
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
