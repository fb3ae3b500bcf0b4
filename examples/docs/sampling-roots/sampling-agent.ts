import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV2 } from 'ai/test';
import { MCPClient } from 'mastra-mcp';

const model = new MockLanguageModelV2(); // any AI SDK model object: openai('gpt-4o-mini'), ...

const writer = new Agent({
  id: 'writer',
  name: 'Writer',
  instructions: 'Answer briefly. Never reveal secrets.', // kept: a server's systemPrompt is added beside it
  model,
});

const mcp = new MCPClient({
  servers: {
    // This server's requests are answered by the agent, with at most 1,000 tokens each.
    docs: { url: new URL('http://127.0.0.1:3000/mcp'), sampling: { agent: writer, maxTokens: 1_000 } },
    // This one has no `sampling` of its own: the client's bare model answers it.
    notes: { command: 'node', args: ['dist/notes-server.js'] },
  },
  sampling: model,
});

await mcp.disconnect();
