// MCPClient reference (v2), "Interactive browser authentication": capture the authorization code with createOAuthCallbackServer and list getCallbackUrlCandidates as redirect URIs.
import { createOAuthCallbackServer, getCallbackUrlCandidates } from 'mastra-mcp';

// Assumed from the app:
declare const expectedState: string;

// getCallbackUrlCandidates() lists every URL the helper may bind, so list all
// of them as redirect_uris in your pre-registration or metadata document.
const redirectUris = getCallbackUrlCandidates('http://127.0.0.1:5533/oauth/callback').map((url) =>
  url.toString(),
);

const server = await createOAuthCallbackServer({
  redirectUrl: 'http://127.0.0.1:5533/oauth/callback',
  state: expectedState,
});

// server.url reflects the port actually bound — use it as the redirect_uri.
try {
  const { code, iss } = await server.waitForCode();
  // Exchange the code here, passing `iss` so the SDK validates the issuer.
} finally {
  await server.close();
}
