// MCPClient reference (v1), "listTools()": namespaced tools passed to an agent definition.

import type { LanguageModelV3 } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const model: LanguageModelV3;

// name, instructions and model are required by @mastra/core's AgentConfig; the page leaves them out.
new Agent({
  id: 'agent',
  name: 'agent',
  instructions: 'You are a helpful assistant.',
  model,
  tools: await mcp.listTools(),
});
