import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { MockMemory } from '@mastra/core/memory';
import { InMemoryStore } from '@mastra/core/storage';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { MockLanguageModelV2 } from 'ai/test';
import { MCPClient, MCPEventsSignalProvider } from 'mastra-mcp';
import { z } from 'zod';

const mcp = new MCPClient({
  id: 'repo-events',
  servers: { github: { url: new URL('https://mcp.example.com/mcp') } },
});

export const repoEvents = new MCPEventsSignalProvider({
  client: mcp,
  subscribeOptions: { maxAgeMs: 60 * 60 * 1000 }, // bound the backlog replayed on resume
  tools: { servers: ['github'] }, // mcp_events_list / _subscribe / _unsubscribe on the current thread
  onError: (error, { server, event }) => console.warn(`${server} ${event}:`, error),
});

// The notifications domain (and memory) come from the storage of the Mastra the agent is registered with.
const storage = new InMemoryStore();
export const repoAgent = new Agent({
  id: 'repo-agent',
  name: 'Repo Agent',
  instructions: 'Triage repository activity.',
  model: new MockLanguageModelV2(), // any model
  memory: new MockMemory({ storage }),
  signals: [repoEvents],
});
export const mastra = new Mastra({ agents: { repoAgent }, storage });

await repoEvents.subscribeThread(
  { resourceId: 'user-1', threadId: 'thread-1' },
  { server: 'github', event: 'repo.push', args: { repo: 'mastra-ai/mastra' } },
);

// A workflow run per occurrence: iterate a subscription directly and save the cursor after each.
const triagePush = createStep({
  id: 'triage-push',
  inputSchema: z.object({ eventId: z.string(), push: z.record(z.string(), z.unknown()) }),
  outputSchema: z.object({ eventId: z.string() }),
  execute: async ({ inputData }) => ({ eventId: inputData.eventId }),
});
const triagePushWorkflow = createWorkflow({
  id: 'triage-push-workflow',
  inputSchema: triagePush.inputSchema,
  outputSchema: triagePush.outputSchema,
})
  .then(triagePush)
  .commit();

let cursor: string | null = null; // your database
const subscription = await mcp.events.subscribe(
  'github',
  'repo.push',
  { repo: 'mastra-ai/mastra' },
  { cursor },
);
process.once('SIGTERM', () => void subscription.cancel());
for await (const event of subscription) {
  const run = await triagePushWorkflow.createRun();
  await run.start({ inputData: { eventId: event.eventId, push: event.data } });
  if (subscription.cursor) cursor = subscription.cursor;
}

await repoEvents.stop(); // keeps the stored cursors
await mcp.disconnect();
