// MCPClient reference (v2), "Typed client contracts": an explicit server-map type checks server, tool and argument names.
// Page change: `interface MCPServers` is exported (makes the file a module; example 02 imports it as the generated types).
import { MCPClient } from 'mastra-mcp';

export interface MCPServers {
  weather: {
    tools: {
      get_weather: {
        input: { location: string };
        output: { temperature: number; conditions: string };
      };
    };
  };
}

const mcp = new MCPClient<MCPServers>({
  servers: { weather: { url: new URL(process.env.WEATHER_MCP_URL!) } },
});

try {
  const tools = await mcp.listTools();
  const weather = tools.weather_get_weather;
  if (weather?.execute) {
    const result = await weather.execute({ location: 'Paris' });
    if (result && 'temperature' in result && typeof result.temperature === 'number') {
      console.log(result.temperature);
    }
  }
} finally {
  await mcp.disconnect();
}
