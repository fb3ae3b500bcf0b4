import { createTool } from '@mastra/core/tools';
// The server side alone: no MCPClient, no SDK client, nothing the server does not use.
import { MCPServer } from 'mastra-mcp/server';
import { z } from 'zod';

const server = new MCPServer({
  name: 'notes',
  version: '1.0.0',
  tools: {
    addNote: createTool({
      id: 'addNote',
      description: 'Saves a note.',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => ({ saved: text }),
    }),
  },
});

// Start serving before anything slow: load what only some tools need inside their `execute`.
await server.startStdio();
