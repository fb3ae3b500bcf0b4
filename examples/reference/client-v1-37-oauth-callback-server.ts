// MCPClient reference (v1), "Interactive browser authentication": createOAuthCallbackServer and getCallbackUrlCandidates for a host driving the flow itself.
import { createOAuthCallbackServer, getCallbackUrlCandidates } from 'mastra-mcp';

// Assumed from the app:
declare const expectedState: string;

// getCallbackUrlCandidates() lists every URL the helper may bind, so register
// all of them as redirect_uris during client registration to cover port fallback.
const redirectUris = getCallbackUrlCandidates('http://127.0.0.1:5533/oauth/callback').map((url) =>
  url.toString(),
);

const server = await createOAuthCallbackServer({
  redirectUrl: 'http://127.0.0.1:5533/oauth/callback',
  state: expectedState,
});

// server.url reflects the port actually bound — use it as the redirect_uri.
try {
  const { code } = await server.waitForCode();
  // Exchange the code here.
} finally {
  await server.close();
}
