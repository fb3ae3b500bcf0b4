// MCPServer reference, "Constructor": an MCPServer exposing a tool, an agent (ask_myAgent) and a workflow (run_dataProcessingWorkflow).
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import type { Workflow } from '@mastra/core/workflows';
import { MCPServer } from 'mastra-mcp';
import { z } from 'zod';

// Assumed from the app (the page imports it from '../workflows/dataProcessingWorkflow'):
declare const dataProcessingWorkflow: Workflow;

const myAgent = new Agent({
  id: 'my-example-agent',
  name: 'MyExampleAgent',
  description: 'A generalist to help with basic questions.',
  instructions: 'You are a helpful assistant.',
  model: 'openai/gpt-5.6-sol',
});

const weatherTool = createTool({
  id: 'getWeather',
  description: 'Gets the current weather for a location.',
  inputSchema: z.object({ location: z.string() }),
  execute: async (inputData) => `Weather in ${inputData.location} is sunny.`,
});

const server = new MCPServer({
  id: 'my-custom-server',
  name: 'My Custom Server',
  version: '1.0.0',
  description: 'A server that provides weather data and agent capabilities',
  instructions: 'Use the available tools to help users with weather information and data processing tasks.',
  tools: { weatherTool },
  agents: { myAgent }, // this agent will become tool "ask_myAgent"
  workflows: {
    dataProcessingWorkflow, // this workflow will become tool "run_dataProcessingWorkflow"
  },
});
