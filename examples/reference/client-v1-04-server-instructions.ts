// MCPClient reference (v1), "Server instructions": forwardInstructions/instructionsMaxLength, and an agent using the server's tools.

import type { LanguageModelV3 } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const model: LanguageModelV3;

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
