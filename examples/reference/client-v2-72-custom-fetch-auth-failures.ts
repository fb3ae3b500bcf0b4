// MCPClient reference (v2), "Handling auth failures inside custom fetch": wait for a token and forward the request without throwing when none is available.
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
        const token = await waitForToken();
        if (!token) {
          // Forward the request without a token and let the server reject it.
          return fetch(url, init);
        }

        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${token}`);
        return fetch(url, { ...init, headers });
      },
    },
  },
});
