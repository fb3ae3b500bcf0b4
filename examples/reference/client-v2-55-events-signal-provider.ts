// MCPClient reference (v2), "Events in agents and workflows (experimental)" (src/mastra/agents/repo-agent.ts): MCPEventsSignalProvider as an agent signal, subscribing a thread to an event.
import { Agent } from '@mastra/core/agent';
import { MCPClient, MCPEventsSignalProvider } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: { github: { url: new URL('https://example.com/mcp') } },
});

export const repoEvents = new MCPEventsSignalProvider({
  client: mcp,
  subscribeOptions: { maxAgeMs: 60 * 60 * 1000 },
});

export const repoAgent = new Agent({
  id: 'repo-agent',
  name: 'Repo Agent',
  instructions: 'Triage repository activity.',
  model: 'openai/gpt-6.1-sol',
  signals: [repoEvents],
});

await repoEvents.subscribeThread(
  { resourceId: 'user-1', threadId: 'thread-1' },
  { server: 'github', event: 'repo.push', args: { repo: 'mastra-ai/mastra' } },
);
