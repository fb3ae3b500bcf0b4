import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV2 } from 'ai/test';
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  id: 'my-app',
  servers: {
    // stdio: a child process, started from a curated environment (not the whole parent env)
    local: { command: 'node', args: ['dist/my-server.js'], env: { API_KEY: 'secret' } },
    // Streamable HTTP: 2026-07-28 when the server offers it, the legacy handshake otherwise
    remote: {
      url: new URL('http://127.0.0.1:3000/mcp'),
      requestInit: { headers: { Authorization: 'Bearer token' } },
      requireToolApproval: ({ annotations }) => annotations?.readOnlyHint !== true,
      enableProgressTracking: true,
      inputRequests: async ({ params }) =>
        params.mode === 'url' ? { action: 'decline' } : { action: 'accept', content: { confirm: true } },
    },
  },
  timeout: 30_000,
});

// Keys are `serverName_toolName`; a server that fails is reported, the others still answer.
const { tools, errors } = await mcp.listToolsWithErrors({ perServerTimeoutMs: 5_000 });
if (Object.keys(errors).length > 0) console.warn('unavailable MCP servers:', errors);

const agent = new Agent({
  id: 'assistant',
  name: 'Assistant',
  instructions: 'Use the tools.',
  model: new MockLanguageModelV2(), // any model
  tools,
});

await mcp.progress.onUpdate('remote', ({ progress, total }) => console.log(`progress ${progress}/${total}`));
const resources = await mcp.resources.list(); // grouped by server
const prompt = await mcp.prompts.get({ serverName: 'remote', name: 'review', args: { code: 'x' } });
console.log(agent.name, Object.keys(resources), prompt.messages.length);

await mcp.disconnect(); // closes every transport and child process
