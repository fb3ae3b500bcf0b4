// MCPClient reference (v2), "listToolsWithErrors(options?)": tools plus per-server errors and discovery durations.
// Page change: `name`, `instructions` and `model` (Mastra model-router string 'openai/gpt-4o') added; @mastra/core's AgentConfig requires them.
import { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;

const { tools, errors, errorDetails, durations } = await mcp.listToolsWithErrors({
  perServerTimeoutMs: 3_000,
});

new Agent({
  id: 'agent',
  name: 'agent',
  instructions: 'You are a helpful assistant.',
  model: 'openai/gpt-4o',
  tools,
});
console.log(errors, errorDetails, durations);
