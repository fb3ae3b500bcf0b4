// MCPClient reference (v2), "Events in agents and workflows (experimental)" (src/mastra/triggers/repo-push.ts): start a workflow run for each event occurrence.
import type { Workflow } from '@mastra/core/workflows';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const triagePushWorkflow: Workflow;
declare function loadCursor(): Promise<string | null>;
declare function saveCursor(cursor: string): Promise<void>;

const subscription = await mcp.events.subscribe(
  'github',
  'repo.push',
  { repo: 'mastra-ai/mastra' },
  { cursor: await loadCursor() },
);

process.once('SIGTERM', () => void subscription.cancel());

for await (const event of subscription) {
  const run = await triagePushWorkflow.createRun();
  await run.start({ inputData: { eventId: event.eventId, push: event.data } });
  if (subscription.cursor) await saveCursor(subscription.cursor);
}
