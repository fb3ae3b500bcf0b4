import { MCPServer } from 'mastra-mcp';
import { RedisMCPEventStore, RedisMCPServerEventBus, RedisWebhookQueue } from 'mastra-mcp/redis';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL }).on('error', (e) =>
  console.error('redis:', e.message),
);
const subscriber = redis.duplicate().on('error', (e) => console.error('redis (subscriber):', e.message));
const reader = redis.duplicate().on('error', (e) => console.error('redis (reader):', e.message));
// pub/sub and the webhook queue's blocking reads each need a connection of their own
await Promise.all([redis.connect(), subscriber.connect(), reader.connect()]);

export const server = new MCPServer({
  id: 'weather', // the same on every instance: the bus channel is named after it
  name: 'Weather',
  version: '1.0.0',
  tools: {}, // the same tools, agents and workflows on every instance
  notifications: { bus: new RedisMCPServerEventBus({ client: redis, subscriber }) },
  events: {
    types: { 'forecast.changed': { description: 'The forecast changed' } },
    // One history for every instance: a cursor one instance issued resumes on any other
    store: new RedisMCPEventStore({ client: redis, subscriber, serverId: 'weather' }),
    // Webhook subscriptions made on any instance, each delivery sent by one instance
    webhook: { queue: new RedisWebhookQueue({ client: redis, reader, serverId: 'weather' }) },
  },
});

// Every listening client of every instance hears it: 2026-07-28 listen streams and legacy sessions.
await server.resources.notifyUpdated({ uri: 'weather://today' });
