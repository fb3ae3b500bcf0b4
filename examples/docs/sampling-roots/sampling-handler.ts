import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: { research: { url: new URL('http://127.0.0.1:3000/mcp') } },
  sampling: {
    // Asked first, for every request: a server asking your model to generate is a trust decision.
    onRequest: (request, { serverName }) => serverName === 'research' && request.maxTokens <= 2_000,
    handler: async (request, { serverName, signal }) => {
      const last = request.messages.at(-1)?.content;
      const text = last && !Array.isArray(last) && last.type === 'text' ? last.text : '';
      signal.throwIfAborted();
      return {
        model: 'my-summariser',
        role: 'assistant',
        content: { type: 'text', text: `${serverName} asked about: ${text.slice(0, 100)}` },
        stopReason: 'endTurn',
      };
    },
  },
});

await mcp.disconnect();
