/** `server.fetch` on Node in a Hono app on @hono/node-server: `app.all('/mcp', (c) => server.fetch(c.req.raw))`. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { fetchServer } from './fixtures/fetch-server.js';
import { describeRuntime } from './runtime-checks.js';

describeRuntime('node', true, async () => {
  const server = fetchServer('node');
  const app = new Hono();
  app.all('/mcp', (c) => server.fetch(c.req.raw));
  const node = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => node.once('listening', resolve));
  return {
    url: new URL(`http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`),
    stop: async () => {
      node.closeAllConnections();
      await new Promise((resolve) => node.close(resolve));
      await server.close();
    },
  };
});
