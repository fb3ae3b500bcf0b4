// MCPClient reference (v1), "Handling authentication failures in a custom fetch": a synthetic 405 for the GET listener, a bearer token on POSTs.
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare function getAuthToken(options: { timeoutMs: number }): Promise<string | null>;

async function waitForToken(timeoutMs = 5000): Promise<string | null> {
  // Replace with your token lookup. Return null if no token is available.
  return getAuthToken({ timeoutMs });
}

const mcpClient = new MCPClient({
  servers: {
    apiServer: {
      url: new URL('https://api.example.com/mcp'),
      fetch: async (url, init) => {
        const method = (init?.method || 'GET').toUpperCase();

        // The SDK opens a background GET stream for server-pushed notifications.
        // If your server does not use it, short-circuit with 405 to stop reconnect attempts.
        if (method === 'GET') {
          return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
        }

        // POST: wait for the token, then forward the request with an Authorization header.
        const token = await waitForToken();
        if (!token) {
          // Forward the request without a token and let the server reject it.
          // The SDK surfaces non-2xx POST responses as errors to the caller of
          // tools/list, tools/call, etc., which is the desired behavior here.
          return fetch(url, init);
        }

        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${token}`);
        return fetch(url, { ...init, headers });
      },
    },
  },
});
