// MCPClient reference (v1), "Custom fetch for runtime-defined authentication": forwarding a cookie from the request context; the agent's requestContext reaches fetch.

import type { LanguageModelV3 } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import type { RequestContext } from '@mastra/core/request-context';
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare function openai(modelId: string): LanguageModelV3;
declare const myRequestContext: RequestContext;

const mcpClient = new MCPClient({
  servers: {
    apiServer: {
      url: new URL('https://api.example.com/mcp'),
      fetch: async (url, init, requestContext) => {
        const headers = new Headers(init?.headers);
        // Forward auth cookie from the incoming request
        const cookie = requestContext?.get('cookie');
        if (cookie) {
          headers.set('cookie', cookie);
        }
        return fetch(url, { ...init, headers });
      },
    },
  },
});

// Use with an agent — requestContext is automatically forwarded
const agent = new Agent({
  id: 'my-agent',
  name: 'My Agent',
  instructions: 'You are a helpful assistant.',
  model: openai('gpt-5.4'),
  tools: await mcpClient.listTools(),
});

await agent.generate('Hello!', {
  requestContext: myRequestContext, // forwarded to the custom fetch
});
