// MCPClient reference (v2), "Webhook delivery" (src/mastra/index.ts): client webhook settings and a Mastra API route that calls events.handleWebhook().
import { Mastra } from '@mastra/core';
import { registerApiRoute } from '@mastra/core/server';
import { MCPClient } from 'mastra-mcp';

export const mcpClient = new MCPClient({
  servers: {
    github: {
      url: new URL('https://mcp.example.com/mcp'),
      requestInit: { headers: { Authorization: `Bearer ${process.env.GITHUB_MCP_TOKEN}` } },
    },
  },
  webhook: { url: 'https://agent.example.com/mcp/webhook' },
});

export const mastra = new Mastra({
  server: {
    apiRoutes: [
      registerApiRoute('/mcp/webhook', {
        method: 'POST',
        // Deliveries are authenticated by their signature, not by Mastra auth
        requiresAuth: false,
        handler: (c) => mcpClient.events.handleWebhook(c.req.raw),
      }),
    ],
  },
});
