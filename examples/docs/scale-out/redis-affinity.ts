import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { MCPServer, requestUrl } from 'mastra-mcp';
import { RedisResumabilityEventStore } from 'mastra-mcp/redis';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL }).on('error', (e) =>
  console.error('redis:', e.message),
);
await redis.connect();

const server = new MCPServer({
  id: 'weather',
  name: 'Weather',
  version: '1.0.0',
  tools: {},
  requestState: {
    key: process.env.MCP_REQUEST_STATE_KEY as string, // at least 32 bytes, the same on every instance
    instanceId: process.env.HOSTNAME, // unique per instance; every response carries it as Mcp-Instance-Id
  },
});

// Legacy (2025) sessions replay a broken SSE stream from Redis, on the instance that owns the session.
const eventStore = new RedisResumabilityEventStore({ client: redis, timeoutMs: 250 });
http
  .createServer(async (req, res) => {
    const url = requestUrl(req, 'http://localhost:3000');
    if (!url) {
      res.writeHead(400).end('Bad request target');
      return;
    }
    await server.startHTTP({
      url,
      httpPath: '/mcp',
      req,
      res,
      options: { sessionIdGenerator: randomUUID, eventStore },
    });
  })
  .listen(3000);
