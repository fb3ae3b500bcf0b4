import { Agent } from '@mastra/core/agent';
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({ servers: { weather: { url: new URL('http://127.0.0.1:3000/mcp') } } });

const agent = new Agent({
  id: 'assistant',
  name: 'Assistant',
  instructions: 'Answer questions about the weather with your tools.',
  model: 'openai/gpt-4o-mini', // any Mastra model; this one reads OPENAI_API_KEY
  tools: await mcp.listTools(), // { weather_getWeather }: `<server>_<tool>`
});

const { text } = await agent.generate('What is the weather in Oslo?');
console.log(text);
await mcp.disconnect();
