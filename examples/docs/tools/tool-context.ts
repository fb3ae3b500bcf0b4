import { createTool } from '@mastra/core/tools';
import type { MCPRequestExtra } from 'mastra-mcp';
import { z } from 'zod';

export const importContacts = createTool({
  id: 'importContacts',
  description: 'Imports contacts after asking the user to confirm.',
  inputSchema: z.object({ count: z.number().int().min(1) }),
  execute: async ({ count }, context) => {
    // Direct MCP calls get context.mcp; tools an exposed agent calls read requestContext.
    const extra = (context.mcp?.extra ?? context.requestContext?.get('mcp.extra')) as
      | MCPRequestExtra
      | undefined;
    await context.mcp?.log?.('info', 'import requested', { count, user: extra?.authInfo?.clientId });

    const answer = await context.mcp?.elicitation.sendRequest({
      message: `Import ${count} contacts?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean' } },
        required: ['confirm'],
      },
    });
    if (answer?.action !== 'accept' || answer.content?.confirm !== true) return 'Import cancelled.';

    for (let done = 1; done <= count; done++) {
      await context.mcp?.progress?.({ progress: done, total: count }); // no-op without a progressToken
    }
    return `Imported ${count} contacts.`;
  },
});
