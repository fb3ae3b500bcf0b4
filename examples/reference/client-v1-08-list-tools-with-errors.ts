// MCPClient reference (v1), "listToolsWithErrors()": tools of the servers that answered plus per-server errors.

import type { LanguageModelV3 } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;
declare const model: LanguageModelV3;

const { tools, errors } = await mcp.listToolsWithErrors();

// name, instructions and model are required by @mastra/core's AgentConfig; the page leaves them out.
new Agent({ id: 'agent', name: 'agent', instructions: 'You are a helpful assistant.', model, tools });
console.log(errors);
