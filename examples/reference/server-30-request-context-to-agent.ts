// MCPServer reference, "Passing RequestContext through to agent": a tool calling an agent with the request context carrying auth info.
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

// Assumed from the app:
declare const prompt: string;

const askAgent = createTool({
  id: 'askAgent',
  description: 'Asks an agent on behalf of the authenticated user.',
  inputSchema: z.object({}),
  execute: async (inputData, context) => {
    // Access the auth data you set in middleware
    const authInfo = context?.mcp?.extra?.authInfo;

    const requestContext = context.requestContext || new RequestContext().set('someKey', authInfo);

    if (!authInfo?.extra?.userId) {
      return { error: 'Authentication required' };
    }

    // Use the auth data
    console.log('User ID:', authInfo.extra.userId);
    console.log('Email:', authInfo.extra.email);

    const agent = context?.mastra?.getAgentById('some-agent-id');

    if (!agent) {
      return { error: "Agent 'some-agent-id' not found" };
    }

    const response = await agent.generate(prompt, { requestContext });

    return response.text;
  },
});
