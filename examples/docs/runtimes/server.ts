import { MCPServer } from 'mastra-mcp';
import { getWeather } from './weather-tool.js';

export const server = new MCPServer({
  id: 'weather',
  name: 'Weather',
  version: '1.0.0',
  tools: { getWeather },
  // What server.fetch serves (every runtime but Express): browser pages on this origin may call it.
  http: { cors: { origins: ['https://app.example.com'] } },
});
