import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  id: 'notes-reader',
  servers: { notes: { url: new URL('http://127.0.0.1:3000/mcp') } },
});

const listed = await mcp.resources.list(); // { notes: [{ uri, name, mimeType }, ...] }
const today = await mcp.resources.read('notes', 'file://notes/today.md');
console.log(listed.notes?.length, today.contents[0]);

// Told when the resource changes (one listen stream per 2026-07-28 server, or the legacy session).
await mcp.resources.onUpdated('notes', async ({ uri }) => console.log('changed:', uri));
await mcp.resources.subscribe('notes', 'file://notes/today.md');

const prompts = await mcp.prompts.list(); // each prompt keeps its `version`
const { prompt, messages } = await mcp.prompts.get({
  serverName: 'notes',
  name: 'review',
  version: 'v2',
  args: { code: 'let x = 1' }, // strings, as the protocol carries them
});
console.log(prompts.notes?.length, prompt?.description, messages.length);

await mcp.disconnect();
