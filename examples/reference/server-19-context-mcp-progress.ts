// MCPServer reference, "context.mcp.progress()": a long-running tool reporting progress per processed item.
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

// Assumed from the app:
declare function processItem(item: { name: string }): Promise<void>;

const processItemsTool = createTool({
  id: 'processItems',
  description: 'Processes a list of items.',
  inputSchema: z.object({ items: z.array(z.object({ name: z.string() })) }),
  execute: async ({ items }, context) => {
    for (const [index, item] of items.entries()) {
      await processItem(item);
      // @ts-expect-error OUTSIDE: @mastra/core types context.mcp and mcp.progress as optional
      await context.mcp.progress({
        progress: index + 1,
        total: items.length,
        message: `Processed ${item.name}`,
      });
    }
    return { done: true };
  },
});
