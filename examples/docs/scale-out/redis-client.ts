import { MCPClient, MCPEventsSignalProvider, MCPOAuthClientProvider } from 'mastra-mcp';
import { RedisMCPEventCursorStore, RedisOAuthStorage } from 'mastra-mcp/redis';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL }).on('error', (e) =>
  console.error('redis:', e.message),
);
await redis.connect();

// Every agent process with this prefix shares the server's tokens: one signs in, all are signed in.
const authProvider = new MCPOAuthClientProvider({
  redirectUrl: 'http://127.0.0.1:5533/oauth/callback',
  clientMetadata: { client_name: 'My agents', redirect_uris: ['http://127.0.0.1:5533/oauth/callback'] },
  clientInformation: { client_id: 'my-registered-client' },
  storage: new RedisOAuthStorage({ client: redis, keyPrefix: 'my-agents:oauth:github:' }), // one prefix per server
});

const mcp = new MCPClient({
  id: 'agents',
  servers: { github: { url: new URL('https://mcp.example.com/mcp'), authProvider } },
});

// A process that takes over a subscription resumes from the cursor any process stored last.
export const repoEvents = new MCPEventsSignalProvider({
  client: mcp,
  cursorStore: new RedisMCPEventCursorStore({ client: redis, ttlSeconds: 7 * 24 * 60 * 60 }),
});
