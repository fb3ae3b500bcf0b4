// MCPClient reference (v2), "Generate client types" (src/mcp/call-weather.ts): calling a tool through the generated names.
// Page change: './client' is example 02's file.
import { mcp } from './client-v2-02-typegen-client.js';

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
