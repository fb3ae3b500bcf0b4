/**
 * The Agent a bare model answers sampling through: no instructions, so only the server's system
 * prompt frames the request. Loaded with the first request a model answers (sampler.ts), so an
 * application that never samples with a model does not load the Agent class for it.
 */
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';

export function modelAgent(serverName: string, model: MastraModelConfig): Agent {
  return new Agent({
    id: `mcp-sampling-${serverName}`,
    name: `MCP sampling for server '${serverName}'`,
    instructions: '',
    model,
  });
}
