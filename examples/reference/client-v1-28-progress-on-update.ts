// MCPClient reference (v1), "progress property": enableProgressTracking and a progress.onUpdate() handler.
import { MCPClient } from 'mastra-mcp';

const mcpClient = new MCPClient({
  servers: {
    myServer: {
      url: new URL('http://localhost:4111/api/mcp/myServer/mcp'),
      // Enabled by default; set to false to disable
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
