import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

export const getWeather = createTool({
  id: 'getWeather',
  description: 'Gets the current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), forecast: z.string(), celsius: z.number() }),
  execute: async ({ city }) => ({ city, forecast: 'sunny', celsius: 21 }),
});
