// MCPClient reference (v2), "Quick Token Provider": createSimpleTokenProvider with an existing access token.
import { createSimpleTokenProvider, MCPClient } from 'mastra-mcp';

const provider = createSimpleTokenProvider('your-access-token', {
  redirectUrl: 'http://localhost:3000/callback',
  clientMetadata: {
    redirect_uris: ['http://localhost:3000/callback'],
    client_name: 'Test Client',
  },
  clientInformation: { client_id: 'test-client' },
});

const client = new MCPClient({
  servers: {
    testServer: {
      url: new URL('https://mcp.example.com/mcp'),
      authProvider: provider,
    },
  },
});
