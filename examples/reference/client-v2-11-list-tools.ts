// MCPClient reference (v2), "listTools()": namespaced tools passed to an Agent definition.
// Page change: `name`, `instructions` and `model` (Mastra model-router string 'openai/gpt-4o') added; @mastra/core's AgentConfig requires them.
import { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;

new Agent({
  id: 'agent',
  name: 'agent',
  instructions: 'You are a helpful assistant.',
  model: 'openai/gpt-4o',
  tools: await mcp.listTools(),
});
