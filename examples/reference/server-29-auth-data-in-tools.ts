// MCPServer reference, "Accessing Auth Data in Tools": a tool reading req.auth as context.mcp.extra.authInfo and forwarding the abort signal.
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

const getData = createTool({
  id: 'getData',
  description: 'Fetches data for the authenticated user.',
  inputSchema: z.object({}),
  execute: async (inputData, context) => {
    // Access the auth data you set in middleware
    const authInfo = context?.mcp?.extra?.authInfo;

    if (!authInfo?.extra?.userId) {
      return { error: 'Authentication required' };
    }

    // Use the auth data
    console.log('User ID:', authInfo.extra.userId);
    console.log('Email:', authInfo.extra.email);

    const response = await fetch('/api/data', {
      headers: { Authorization: `Bearer ${authInfo.token}` },
      signal: context?.mcp?.extra?.signal,
    });

    return response.json();
  },
});
