import { MCPClient } from 'mastra-mcp';

const saved = new Map<string, string | null>(); // your database

const mcp = new MCPClient({
  id: 'events-app',
  servers: {
    github: {
      url: new URL('https://mcp.example.com/mcp'),
      requestInit: { headers: { Authorization: `Bearer ${process.env.GITHUB_MCP_TOKEN}` } },
    },
  },
  // Optional: webhook delivery. The URL must reach mcp.events.handleWebhook() in this process.
  webhook: { url: 'https://agent.example.com/mcp/webhook' },
});

// Mount on webhook.url with your HTTP framework (Request in, Response out).
export const webhookRoute = (request: Request) => mcp.events.handleWebhook(request);

const types = await mcp.events.list('github'); // [{ name: 'repo.push', delivery: ['poll', 'push', 'webhook'], ... }]
console.log(types.map((type) => type.name));

const subscription = await mcp.events.subscribe(
  'github',
  'repo.push',
  { repo: 'mastra-ai/mastra' },
  { cursor: saved.get('repo.push') ?? null, maxAgeMs: 24 * 60 * 60 * 1000 },
);
subscription.onError((error) => console.warn(`recoverable (${subscription.mode}):`, error.message));
for await (const event of subscription) {
  if (subscription.truncated) console.warn(`occurrences may be missing before ${event.eventId}`);
  console.log(event.name, event.timestamp, event.data);
  saved.set('repo.push', subscription.cursor); // safe after each handled occurrence
}
// The loop ends normally after subscription.cancel(), a break, or mcp.disconnect().
