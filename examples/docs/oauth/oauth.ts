import http from 'node:http';
import { createIntrospectionValidator, createOAuthMiddleware, requestUrl } from 'mastra-mcp';
import { server } from '../tools/publish.js';

const oauth = createOAuthMiddleware({
  oauth: {
    resource: 'https://mcp.example.com/mcp', // the URL clients dial; tokens must be issued for it
    authorizationServers: ['https://auth.example.com'],
    scopesSupported: ['mcp:read', 'mcp:write'],
    resourceName: 'Example MCP server',
    // RFC 7662: active, not expired, and `aud` naming the resource above.
    validateToken: createIntrospectionValidator('https://auth.example.com/oauth/introspect', {
      clientId: 'mcp-server',
      clientSecret: process.env.INTROSPECTION_SECRET ?? '',
    }),
  },
  mcpPath: '/mcp',
});

http
  .createServer(async (req, res) => {
    const url = requestUrl(req, 'https://mcp.example.com');
    if (!url) {
      res.writeHead(400).end('Bad request target');
      return;
    }
    // Serves /.well-known/oauth-protected-resource[/mcp], answers 401/403 challenges, sets req.auth.
    if (!(await oauth(req, res, url)).proceed) return;
    await server.startHTTP({ url, httpPath: '/mcp', req, res }); // tools see context.mcp.extra.authInfo
  })
  .listen(3000, '127.0.0.1');
