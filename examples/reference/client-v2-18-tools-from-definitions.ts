// MCPClient reference (v2), "toolsFromDefinitions()": a whole cached catalog rebuilt into an agent's tool map.
// Page change: `name`, `instructions` and `model` (Mastra model-router string 'openai/gpt-4o') added; @mastra/core's AgentConfig requires them.
import { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const cache: { get(key: string): Promise<string>; set(key: string, value: string): Promise<void> };

const definitions = JSON.parse(await cache.get('mcp-tools'));

new Agent({
  id: 'agent',
  name: 'agent',
  instructions: 'You are a helpful assistant.',
  model: 'openai/gpt-4o',
  tools: await mcp.toolsFromDefinitions({ definitions }),
});
