// MCPServer reference, "OAuth protection": createOAuthMiddleware with a static token validator in front of startHTTP.
import http from 'node:http';
import { createOAuthMiddleware, createStaticTokenValidator, MCPServer } from 'mastra-mcp';

const mcpServer = new MCPServer({
  id: 'protected-server',
  name: 'Protected MCP Server',
  version: '1.0.0',
  tools: {
    /* your tools */
  },
});

// Create OAuth middleware
const oauthMiddleware = createOAuthMiddleware({
  oauth: {
    resource: 'https://mcp.example.com/mcp',
    authorizationServers: ['https://auth.example.com'],
    scopesSupported: ['mcp:read', 'mcp:write'],
    resourceName: 'My Protected MCP Server',
    validateToken: createStaticTokenValidator(['allowed-token-1']),
  },
  mcpPath: '/mcp',
});

// Create HTTP server with OAuth protection
const httpServer = http.createServer(async (req, res) => {
  const url = new URL(req.url || '', 'https://mcp.example.com');

  // Apply OAuth middleware first
  const result = await oauthMiddleware(req, res, url);
  if (!result.proceed) return; // Middleware handled response (401, metadata, etc.)

  // Token is valid, proceed to MCP handler
  await mcpServer.startHTTP({ url, httpPath: '/mcp', req, res });
});

httpServer.listen(3000);
