import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

// Any MCP client works; here the official SDK's, speaking 2026-07-28 when the server does.
const client = new Client({ name: 'example', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
const { tools } = await client.listTools();
const weather = await client.callTool({ name: 'weatherTool', arguments: { location: 'Oslo' } });
console.log(
  tools.map((tool) => tool.name),
  weather.structuredContent,
);
await client.close();
