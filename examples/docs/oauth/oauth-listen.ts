import { createIntrospectionValidator } from 'mastra-mcp';
import { server } from '../tools/publish.js';

// The same protection on listen(); in the MCPServer's `http` option it covers fetch() as well.
await server.listen({
  port: 3000,
  host: '0.0.0.0', // behind a TLS proxy that serves https://mcp.example.com
  allowedHosts: ['mcp.example.com'],
  oauth: {
    resource: 'https://mcp.example.com/mcp',
    authorizationServers: ['https://auth.example.com'],
    validateToken: createIntrospectionValidator('https://auth.example.com/oauth/introspect', {
      clientId: 'mcp-server',
      clientSecret: process.env.INTROSPECTION_SECRET ?? '',
    }),
  },
});
