// MCPClient reference (v2), "listToolsetsWithErrors(options?)": toolsets by server plus per-server errors and durations.
import type { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const agent: Agent;
declare const prompt: string;

const { toolsets, errors, errorDetails, durations } = await mcp.listToolsetsWithErrors({
  perServerTimeoutMs: 3_000,
});

const res = await agent.stream(prompt, { toolsets });
console.log(errors, errorDetails, durations);
