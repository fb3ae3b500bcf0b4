// MCPServer reference, "Tool Execution API": elicitation and auth info inside a tool's execute function (the page's pseudo-signature made concrete).
import { createTool } from '@mastra/core/tools';
import type { ElicitationRequest, ElicitResult } from 'mastra-mcp';
import { z } from 'zod';

// Assumed from the app (the page writes their types in place: `message: string`, `requestedSchema: object`):
declare const message: string;
declare const requestedSchema: ElicitationRequest['requestedSchema'];

const tool = createTool({
  id: 'elicitingTool',
  description: 'Asks the user for input.',
  inputSchema: z.object({}),
  // Within a tool's execute function
  execute: async (inputData, context) => {
    // Use elicitation for user input
    // @ts-expect-error OUTSIDE: @mastra/core types context.mcp as optional
    const result: ElicitResult = await context.mcp.elicitation.sendRequest({
      message, // Message to display to user
      requestedSchema, // JSON schema defining expected response structure
    });

    // Access authentication info if needed
    if (context.mcp?.extra?.authInfo) {
      // Use context.mcp.extra.authInfo.token, etc.
    }
  },
});
