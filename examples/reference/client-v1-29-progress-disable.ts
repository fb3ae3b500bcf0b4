// MCPClient reference (v1), "progress property": progress tracking disabled for a server.
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({
  servers: {
    myServer: {
      url: new URL('http://localhost:4111/api/mcp/myServer/mcp'),
      enableProgressTracking: false,
    },
  },
});
