// MCPClient reference (v2), "progress Property": opt in to progress tracking and subscribe to a server's progress updates.
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({
  servers: {
    myServer: {
      url: new URL('http://localhost:4111/api/mcp/myServer/mcp'),
      // Off by default: opt in so tool calls carry a progressToken
      enableProgressTracking: true,
    },
  },
});

// Subscribe to progress updates for a specific server
await mcpClient.progress.onUpdate('myServer', (params) => {
  console.log('📊 Progress:', params.progress, '/', params.total);
  if (params.message) console.log('Message:', params.message);
  if (params.progressToken) console.log('Token:', params.progressToken);
});
