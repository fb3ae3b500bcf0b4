import { InMemoryMCPEventStore, MCPServer } from 'mastra-mcp';
import { z } from 'zod';

export const github = new MCPServer({
  name: 'GitHub events',
  version: '1.0.0',
  tools: {},
  events: {
    types: {
      'repo.push': {
        description: 'A push to a repository',
        inputSchema: z.object({ repo: z.string() }),
        payloadSchema: z.object({ repo: z.string(), sha: z.string(), pusher: z.string() }),
        // Which subscriptions an occurrence belongs to (default: every subscription of the type)
        matches: (args, push) => push.data.repo === args.repo,
        // false answers Forbidden; authInfo is the HTTP caller's req.auth (absent over stdio)
        authorize: ({ args, authInfo }) => args.repo.startsWith('public/') || authInfo !== undefined,
      },
      // No history: cursors are null, and clients cannot resume across a disconnect
      'deploy.finished': {
        description: 'A deployment finished',
        replay: false,
        delivery: ['push', 'webhook'],
      },
    },
    store: new InMemoryMCPEventStore({ maxEvents: 1000, maxAgeMs: 60 * 60 * 1000 }), // per event type
    heartbeatIntervalMs: 30_000,
    pollIntervalMs: 5_000,
    webhook: { maxSubscriptions: 500, defaultTtlMs: 60 * 60 * 1000, retry: { attempts: 5 } },
  },
});

// From your upstream (a GitHub webhook handler, a queue consumer, ...):
const occurrence = await github.events.emit(
  'repo.push',
  { repo: 'public/site', sha: 'abc123', pusher: 'ada' },
  { eventId: 'gh-delivery-guid' }, // reuse the upstream's id: clients deduplicate on it
);
console.log(occurrence.cursor, github.events.stats());
