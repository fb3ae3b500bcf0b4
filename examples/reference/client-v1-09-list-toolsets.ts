// MCPClient reference (v1), "listToolsets()": toolsets passed to agent.stream() at run time.
import type { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const agent: Agent;
declare const prompt: string;

const res = await agent.stream(prompt, {
  toolsets: await mcp.listToolsets(),
});
