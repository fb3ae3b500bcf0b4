import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { server } from '../tools/publish.js';

// The server: pages served from these origins may call it; any other origin's preflight gets 403.
await server.listen({ port: 3000, cors: { origins: ['https://app.example.com', 'http://localhost:5173'] } });

// In a page on https://app.example.com (bundled for the browser): the SDK's client, as anywhere.
export async function forecast(city: string): Promise<unknown> {
  const client = new Client({ name: 'web-app', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
  try {
    const result = await client.callTool({ name: 'weatherTool', arguments: { location: city } });
    return result.structuredContent;
  } finally {
    await client.close();
  }
}
