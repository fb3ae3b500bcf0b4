// MCPServer reference, "Setting Up Authentication Middleware": an Express middleware setting req.auth before startHTTP.
import express from 'express';
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app:
declare const server: MCPServer;
declare function verifyToken(token: string): Promise<{
  userId: string;
  clientId: string;
  email: string;
  expiresAt: number;
  scopes: string[];
}>;

type MCPAuthenticatedRequest = express.Request & {
  auth?: {
    token: string;
    clientId: string;
    scopes: string[];
    expiresAt?: number;
    extra?: Record<string, unknown>;
  };
};

const app = express();

// Auth middleware - set req.auth before the MCP handler
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
