// MCPServer reference, "toolActions.remove(toolIds)": removing a tool from a running server by its key.
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app:
declare const server: MCPServer;

await server.toolActions.remove(['searchTool']);
