// MCPServer reference, "Token Validation": token introspection (RFC 7662) and a custom validateToken function.
import { createIntrospectionValidator, createOAuthMiddleware } from 'mastra-mcp';

// Assumed from the app:
declare function verifyJWT(token: string): Promise<{ sub?: string; scope?: string } | null>;

// Option 1: Token introspection (RFC 7662)
const middleware = createOAuthMiddleware({
  oauth: {
    resource: 'https://mcp.example.com/mcp',
    authorizationServers: ['https://auth.example.com'],
    validateToken: createIntrospectionValidator('https://auth.example.com/oauth/introspect', {
      clientId: 'mcp-server',
      clientSecret: 'secret',
    }),
  },
});

// Option 2: Custom validation (JWT, database lookup, etc.)
const customMiddleware = createOAuthMiddleware({
  oauth: {
    resource: 'https://mcp.example.com/mcp',
    authorizationServers: ['https://auth.example.com'],
    validateToken: async (token, resource) => {
      const decoded = await verifyJWT(token);
      if (!decoded) {
        return { valid: false, error: 'invalid_token' };
      }
      return {
        valid: true,
        scopes: decoded.scope?.split(' ') || [],
        subject: decoded.sub,
      };
    },
  },
});
