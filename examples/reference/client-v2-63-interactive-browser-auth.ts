// MCPClient reference (v2), "Interactive browser authentication": on a 'needs-auth' state, call authenticate() to run the loopback OAuth flow.
import { MCPClient, MCPOAuthClientProvider } from 'mastra-mcp';

const clientMetadataUrl = 'https://app.example.com/oauth/client-metadata.json';

const oauthProvider = new MCPOAuthClientProvider({
  redirectUrl: 'http://127.0.0.1:5533/oauth/callback',
  clientMetadataUrl,
  clientMetadata: {
    client_id: clientMetadataUrl,
    redirect_uris: ['http://127.0.0.1:5533/oauth/callback'],
    client_name: 'My MCP Client',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  },
  onRedirectToAuthorization: (url) => {
    // Open the user's browser at the consent page
    console.log(`Please visit: ${url}`);
  },
});

const mcp = new MCPClient({
  servers: {
    protectedServer: {
      url: new URL('https://mcp.example.com/mcp'),
      authProvider: oauthProvider,
    },
  },
});

try {
  await mcp.listTools();
} catch {
  if (mcp.getServerAuthState('protectedServer') === 'needs-auth') {
    await mcp.authenticate('protectedServer');
  }
}
