import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { MockLanguageModelV2 } from 'ai/test';
import { MCPServer } from 'mastra-mcp';
import { z } from 'zod';

const weatherTool = createTool({
  id: 'getWeather',
  description: 'Gets the current weather for a location.',
  inputSchema: z.object({ location: z.string() }),
  outputSchema: z.object({ forecast: z.string() }), // becomes outputSchema + structuredContent
  execute: async ({ location }) => ({ forecast: `Weather in ${location} is sunny.` }),
});

const helper = new Agent({
  id: 'helper',
  name: 'Helper',
  description: 'A generalist that answers basic questions.', // required to become `ask_helper`
  instructions: 'You are helpful.',
  // Any model works; a mock keeps this example offline.
  model: new MockLanguageModelV2({
    doGenerate: async () => ({
      rawCall: { rawPrompt: null, rawSettings: {} },
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      content: [{ type: 'text', text: 'Hello!' }],
      warnings: [],
    }),
  }),
});

const double = createStep({
  id: 'double',
  inputSchema: z.object({ value: z.number() }),
  outputSchema: z.object({ doubled: z.number() }),
  execute: async ({ inputData }) => ({ doubled: inputData.value * 2 }),
});
const doubler = createWorkflow({
  id: 'doubler',
  description: 'Doubles a number.', // required to become `run_doubler`
  inputSchema: z.object({ value: z.number() }),
  outputSchema: z.object({ doubled: z.number() }),
})
  .then(double)
  .commit();

export const server = new MCPServer({
  id: 'my-server',
  name: 'My Server',
  version: '1.0.0',
  tools: { weatherTool }, // tool name: weatherTool (the record key)
  agents: { helper }, // tool name: ask_helper
  workflows: { doubler }, // tool name: run_doubler
});
