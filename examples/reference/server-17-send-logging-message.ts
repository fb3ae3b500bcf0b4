// MCPServer reference, "sendLoggingMessage()": broadcasting a log notification to every connected client.
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app:
declare const server: MCPServer;

await server.sendLoggingMessage({
  level: 'info',
  data: { message: 'Sync completed', itemsProcessed: 42 },
});
