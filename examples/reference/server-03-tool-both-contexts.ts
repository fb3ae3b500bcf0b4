// MCPServer reference, "Accessing MCP Context in Tools" (Example: Tool that works in both contexts): auth info from context.mcp.extra or requestContext 'mcp.extra'.
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

const fetchUserData = createTool({
  id: 'fetchUserData',
  description: 'Fetches user data using authentication from MCP context',
  inputSchema: z.object({
    userId: z.string().describe('The ID of the user to fetch'),
  }),
  execute: async (inputData, context) => {
    // Access MCP authentication context
    // When called directly via MCP: context.mcp.extra
    // When called via agent: context.requestContext.get('mcp.extra')
    const mcpExtra = context?.mcp?.extra || context?.requestContext?.get('mcp.extra');
    const authInfo = mcpExtra?.authInfo;

    if (!authInfo?.token) {
      throw new Error('Authentication required');
    }

    const response = await fetch(`https://api.example.com/users/${inputData.userId}`, {
      headers: {
        Authorization: `Bearer ${authInfo.token}`,
      },
    });

    return response.json();
  },
});
