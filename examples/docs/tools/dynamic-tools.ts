import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { server } from './publish.js';

const searchTool = createTool({
  id: 'search',
  description: 'Searches the knowledge base.',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => ({ results: [`match for ${query}`] }),
});

await server.toolActions.add({ searchTool }); // connected clients get tools/list_changed
await server.toolActions.remove(['searchTool', 'unknown']); // unknown ids are ignored
