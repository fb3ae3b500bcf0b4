import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  // Between a server's prefix and a tool's name in listTools() keys (default '_').
  toolNameSeparator: '__',
  servers: {
    github: {
      url: new URL('https://api.githubcopilot.com/mcp/'),
      requestInit: { headers: { Authorization: `Bearer ${process.env.GITHUB_TOKEN}` } },
      // The server's own tool names; '*' matches any characters.
      includeTools: ['*_issue', 'search_*'],
      excludeTools: ['delete_*'],
      toolPrefix: 'gh', // gh__create_issue instead of github__create_issue
    },
    files: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
      toolPrefix: '', // keyed by the tools' own names: read_file, list_directory, ...
    },
  },
});

const tools = await mcp.listTools();
console.log(Object.keys(tools)); // [ 'gh__create_issue', 'gh__search_code', ..., 'read_file', ... ]
await mcp.disconnect();
