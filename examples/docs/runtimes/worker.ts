import { MCPServer } from 'mastra-mcp';
import { getWeather } from './weather-tool.js';

let server: MCPServer | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    // Workers refuse random values and timers at global scope, and an MCPServer draws a key when it
    // is built: build it on the first request. It then serves every request of this isolate.
    server ??= new MCPServer({
      id: 'weather',
      name: 'Weather',
      version: '1.0.0',
      tools: { getWeather },
      // The names clients reach it by: the Worker's own, and loopback for `wrangler dev`.
      http: { allowedHosts: ['weather-mcp.your-subdomain.workers.dev', 'localhost', '127.0.0.1'] },
    });
    return server.fetch(request);
  },
};
