import { MCPClient } from 'mastra-mcp';

// Write it by hand, or generate it from the live schemas (`npx mastra-mcp generate`, below).
interface MCPServers {
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
  id: 'typed',
  servers: { weather: { url: new URL('http://127.0.0.1:3000/mcp') } }, // every declared server, no others
});

try {
  const tools = await mcp.listTools(); // keys: 'weather_get_weather' (possibly absent at runtime)
  const weather = tools.weather_get_weather;
  if (weather?.execute) {
    const result = await weather.execute({ location: 'Paris' }); // arguments are type-checked
    // The structured output, a protocol envelope or undefined: check the shape (bad arguments reject).
    if (result && 'temperature' in result && typeof result.temperature === 'number') {
      console.log(result.temperature);
    }
  }
} finally {
  await mcp.disconnect();
}
