// MCPServer reference, "Tool Execution Signature": a tool reading auth info and eliciting input through context.mcp.
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

const tool = createTool({
  id: 'elicitingTool',
  description: 'Asks the user for information.',
  inputSchema: z.object({}),
  execute: async (inputData, context) => {
    // input contains the tool's inputData parameters
    // context.mcp contains server capabilities like elicitation and authentication info

    // Access authentication information (when available)
    if (context.mcp?.extra?.authInfo) {
      console.log('Authenticated request from:', context.mcp.extra.authInfo.clientId);
    }

    // Use elicitation capabilities
    // @ts-expect-error OUTSIDE: @mastra/core types context.mcp as optional
    const result = await context.mcp.elicitation.sendRequest({
      message: 'Please provide information',
      requestedSchema: {
        type: 'object',
        properties: {},
        /* schema */
      },
    });

    return result;
  },
});
