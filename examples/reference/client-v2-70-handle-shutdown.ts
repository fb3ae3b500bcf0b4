// MCPClient reference (v2), "Handle shutdown yourself": registerProcessHooks: false and disconnect() from the app's own SIGTERM handler.
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: { weather: { url: new URL('https://example.com/mcp') } },
  registerProcessHooks: false,
});

process.once('SIGTERM', async () => {
  // Finish your application's cleanup before disconnecting the client.
  await mcp.disconnect();
  process.exit(0);
});
