import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV2 } from 'ai/test';
import { MCPClient } from 'mastra-mcp';

const cache = new Map<string, string>(); // your Redis, database or build artifact

const mcp = new MCPClient({
  id: 'catalog',
  servers: { weather: { url: new URL('http://127.0.0.1:3000/mcp') } },
});

// Once (at deploy time, or when a server's tools change): discover and store plain JSON.
const { definitions, errors } = await mcp.listToolDefinitionsWithErrors({ perServerTimeoutMs: 5_000 });
if (Object.keys(errors).length === 0) cache.set('mcp-tools', JSON.stringify(definitions));

// On a cold start: rebuild the same `server_tool` map without connecting. A server connects the
// first time one of its tools runs; servers no longer configured are skipped.
const tools = await mcp.toolsFromDefinitions({ definitions: JSON.parse(cache.get('mcp-tools') ?? '{}') });
const agent = new Agent({
  id: 'cold',
  name: 'Cold start',
  instructions: '…',
  model: new MockLanguageModelV2(),
  tools,
});
console.log(agent.name, Object.keys(tools));
