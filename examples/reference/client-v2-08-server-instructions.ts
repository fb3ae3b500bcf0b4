// MCPClient reference (v2), "Server instructions": forwardInstructions appends a trusted server's instructions to an agent's prompt.
import { Agent } from '@mastra/core/agent';
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const model: ConstructorParameters<typeof Agent>[0]['model'];

const mcp = new MCPClient({
  servers: {
    db: {
      url: new URL('http://localhost:3000/mcp'),
      forwardInstructions: true,
      instructionsMaxLength: 512,
    },
  },
});

const agent = new Agent({
  id: 'db-agent',
  name: 'DB Agent',
  instructions: 'Help with database changes.',
  model,
  tools: await mcp.listTools(),
});
