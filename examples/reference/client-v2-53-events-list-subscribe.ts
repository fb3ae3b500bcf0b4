// MCPClient reference (v2), "events Property (experimental)": list a server's events, subscribe from a saved cursor and persist it per occurrence.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcpClient: MCPClient;
declare function loadCursor(): Promise<string | null>;
declare function saveCursor(cursor: string | null): Promise<void>;
declare function handlePush(data: unknown): Promise<void>;

const events = await mcpClient.events.list('github');

const subscription = await mcpClient.events.subscribe(
  'github',
  'repo.push',
  { repo: 'mastra-ai/mastra' },
  { cursor: await loadCursor() },
);

for await (const event of subscription) {
  await handlePush(event.data);
  // Safe to persist after each handled occurrence
  await saveCursor(subscription.cursor);
}
