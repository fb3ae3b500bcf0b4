// MCPServer reference, "Complete Example": Express + jose JWT verification (JWKS) setting req.auth for a tool that reads it.
import { createTool } from '@mastra/core/tools';
import express from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { MCPServer } from 'mastra-mcp';
import { z } from 'zod';

type MCPAuthenticatedRequest = express.Request & {
  auth?: {
    token: string;
    clientId: string;
    scopes: string[];
    expiresAt?: number;
    extra?: Record<string, unknown>;
  };
};

const issuer = process.env.JWT_ISSUER;
const audience = process.env.JWT_AUDIENCE;
const jwksUri = process.env.JWT_JWKS_URI;

if (!issuer || !audience || !jwksUri) {
  throw new Error('JWT_ISSUER, JWT_AUDIENCE, and JWT_JWKS_URI are required');
}

const jwks = createRemoteJWKSet(new URL(jwksUri));

const verifyToken = async (token: string) => {
  const { payload } = await jwtVerify(token, jwks, {
    issuer,
    audience,
    algorithms: ['RS256'],
    requiredClaims: ['exp'],
  });

  const clientId =
    typeof payload.client_id === 'string'
      ? payload.client_id
      : typeof payload.azp === 'string'
        ? payload.azp
        : undefined;

  if (!payload.sub || typeof payload.email !== 'string' || !clientId || !payload.exp) {
    throw new Error('Token must contain sub, email, exp, and client_id or azp claims');
  }

  return {
    userId: payload.sub,
    clientId,
    email: payload.email,
    expiresAt: payload.exp,
    scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
  };
};

// 1. Define your tool that uses auth context
const getUserData = createTool({
  id: 'get-user-data',
  description: 'Fetches data for the authenticated user',
  inputSchema: z.object({}),
  execute: async (inputData, context) => {
    const authInfo = context?.mcp?.extra?.authInfo;

    if (!authInfo?.extra?.userId) {
      return { error: 'Authentication required' };
    }

    // Access the data you set in middleware
    return {
      userId: authInfo.extra.userId,
      email: authInfo.extra.email,
    };
  },
});

// 2. Create the MCP server with your tools
const server = new MCPServer({
  id: 'my-server',
  name: 'My Server',
  version: '1.0.0',
  tools: { getUserData },
});

// 3. Set up Express with auth middleware
const app = express();

app.use('/mcp', async (req, res, next) => {
  const authorization = req.headers.authorization;

  if (!authorization?.startsWith('Bearer ')) {
    res.status(401).json({ error: 'Missing bearer token' });
    return;
  }

  const token = authorization.slice('Bearer '.length);

  try {
    const user = await verifyToken(token);

    // This entire object becomes context.mcp.extra.authInfo
    const authenticatedRequest = req as MCPAuthenticatedRequest;
    authenticatedRequest.auth = {
      token,
      clientId: user.clientId,
      scopes: user.scopes,
      expiresAt: user.expiresAt,
      extra: {
        userId: user.userId,
        email: user.email,
      },
    };
    next();
  } catch {
    res.status(401).json({ error: 'Invalid or expired token' });
  }
});

app.all('/mcp', async (req, res) => {
  const url = new URL(req.url, `http://${req.headers.host}`);
  await server.startHTTP({ url, httpPath: '/mcp', req, res });
});

app.listen(3000);
