// MCPClient reference (v1), "Require approval for all tools": requireToolApproval: true on a server.
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: {
    github: {
      url: new URL('http://localhost:3000/mcp'),
      requireToolApproval: true,
    },
  },
});
