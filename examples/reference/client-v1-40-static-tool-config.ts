// MCPClient reference (v1), "Static tool configuration": one client for the whole app, its tools on an agent, resource and prompt methods.

import { Agent } from '@mastra/core/agent';
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: {
    stockPrice: {
      command: 'npx',
      args: ['tsx', 'stock-price.ts'],
      env: {
        API_KEY: 'your-api-key',
      },
      // The page writes `log:`; its own option list (and the v2 page) name the option `logger`.
      logger: (logMessage) => {
        console.log(`[${logMessage.level}] ${logMessage.message}`);
      },
    },
    weather: {
      url: new URL('http://localhost:8080/sse'),
    },
  },
  timeout: 30000, // Global 30s timeout
});

// Create an agent with access to all tools
const agent = new Agent({
  id: 'multi-tool-agent',
  name: 'Multi-tool Agent',
  instructions: 'You have access to multiple tool servers.',
  model: 'openai/gpt-5.6-sol',
  tools: await mcp.listTools(),
});

// Example of using resource methods
async function checkWeatherResource() {
  try {
    const weatherResources = await mcp.resources.list();
    if (weatherResources.weather && weatherResources.weather.length > 0) {
      const currentWeatherURI = weatherResources.weather[0].uri;
      const weatherData = await mcp.resources.read('weather', currentWeatherURI);
      console.log('Weather data:', weatherData.contents[0].text);
    }
  } catch (error) {
    console.error('Error fetching weather resource:', error);
  }
}
checkWeatherResource();

// Example of using prompt methods
async function checkWeatherPrompt() {
  try {
    const weatherPrompts = await mcp.prompts.list();
    if (weatherPrompts.weather && weatherPrompts.weather.length > 0) {
      const currentWeatherPrompt = weatherPrompts.weather.find((p) => p.name === 'current');
      if (currentWeatherPrompt) {
        console.log('Weather prompt:', currentWeatherPrompt);
      } else {
        console.log('Current weather prompt not found');
      }
    }
  } catch (error) {
    console.error('Error fetching weather prompt:', error);
  }
}
checkWeatherPrompt();
