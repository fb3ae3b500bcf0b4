// MCPServer reference, "context.mcp.log()": a tool sending log messages to the client that called it.
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

// Assumed from the app:
declare function fetchWeather(location: string): Promise<{ temperature: number; conditions: string }>;

const weatherTool = createTool({
  id: 'getWeather',
  description: 'Gets the current weather for a location.',
  inputSchema: z.object({ location: z.string() }),
  execute: async ({ location }, context) => {
    // @ts-expect-error OUTSIDE: @mastra/core types context.mcp and mcp.log as optional
    await context.mcp.log('debug', 'Fetching weather', { location });
    const weather = await fetchWeather(location);
    // @ts-expect-error OUTSIDE: @mastra/core types context.mcp and mcp.log as optional
    await context.mcp.log('info', 'Weather fetched');
    return weather;
  },
});
