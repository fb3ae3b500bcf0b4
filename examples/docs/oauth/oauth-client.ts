import { readFile, writeFile } from 'node:fs/promises';
import { getCallbackUrlCandidates, MCPClient, MCPOAuthClientProvider, type OAuthStorage } from 'mastra-mcp';

/** Tokens in a JSON file, so a restart needs no new sign-in (one file per provider). */
class FileOAuthStorage implements OAuthStorage {
  constructor(private readonly path: string) {}
  private async read(): Promise<Record<string, string>> {
    return JSON.parse(await readFile(this.path, 'utf8').catch(() => '{}'));
  }
  async get(key: string) {
    return (await this.read())[key];
  }
  async set(key: string, value: string) {
    await writeFile(this.path, JSON.stringify({ ...(await this.read()), [key]: value }), { mode: 0o600 });
  }
  async delete(key: string) {
    const { [key]: _removed, ...rest } = await this.read();
    await writeFile(this.path, JSON.stringify(rest), { mode: 0o600 });
  }
}

const redirectUrl = 'http://127.0.0.1:5533/oauth/callback';
const authProvider = new MCPOAuthClientProvider({
  redirectUrl,
  clientMetadata: {
    client_name: 'My MCP Client',
    // authenticate() moves to the next port when 5533 is taken: register every candidate.
    redirect_uris: getCallbackUrlCandidates(redirectUrl).map(String),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  },
  // Exactly one identity: a pre-registered client, or `clientMetadataUrl` (a metadata document).
  clientInformation: { client_id: 'my-registered-client' },
  onRedirectToAuthorization: (url) => console.log(`Sign in at ${url}`), // open the browser here
  storage: new FileOAuthStorage('.mcp-oauth-protected.json'),
});

const mcp = new MCPClient({
  id: 'oauth-app',
  servers: { protected: { url: new URL('https://mcp.example.com/mcp'), authProvider } },
});

await mcp.listToolsWithErrors(); // a refused connection records 'needs-auth' and reports the error
if (mcp.getServerAuthState('protected') === 'needs-auth') {
  await mcp.authenticate('protected', { timeoutMs: 120_000 }); // callback, code exchange, reconnect
}
const tools = await mcp.listTools(); // mcp.getServerAuthState('protected') === 'authorized'
console.log(Object.keys(tools));
