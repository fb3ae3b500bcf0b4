// MCPServer reference, "startStdio()": starting the server over stdio.
import { MCPServer } from 'mastra-mcp';

const server = new MCPServer({
  id: 'my-server',
  name: 'My Server',
  version: '1.0.0',
  tools: {
    /* ... */
  },
});
await server.startStdio();
