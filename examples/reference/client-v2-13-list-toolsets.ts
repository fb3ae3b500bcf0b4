// MCPClient reference (v2), "listToolsets()": toolsets passed at runtime to agent.stream().
import type { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const agent: Agent;
declare const prompt: string;

const res = await agent.stream(prompt, {
  toolsets: await mcp.listToolsets(),
});
