// MCPServer reference, "toolActions.add(tools)": registering a new tool on a running server.
import { createTool } from '@mastra/core/tools';
import type { MCPServer } from 'mastra-mcp';
import { z } from 'zod';

// Assumed from the app:
declare const server: MCPServer;

const searchTool = createTool({
  id: 'search',
  description: 'Searches the knowledge base.',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => ({ results: [] }),
});

await server.toolActions.add({ searchTool });
