import { createTool } from '@mastra/core/tools';
import { MCPServer } from 'mastra-mcp';
import { z } from 'zod';

const getWeather = createTool({
  id: 'getWeather',
  description: 'Gets the current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ forecast: z.string() }),
  execute: async ({ city }) => ({ forecast: `Sunny in ${city}` }),
});

export const server = new MCPServer({
  id: 'weather',
  name: 'Weather',
  version: '1.0.0',
  tools: { getWeather },
});
