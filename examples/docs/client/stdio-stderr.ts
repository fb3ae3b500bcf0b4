import { MastraError } from '@mastra/core/error';
import { MCPClient, MCPErrorCode } from 'mastra-mcp';

const mcp = new MCPClient({
  id: 'stderr-example',
  servers: {
    // Default: each stderr line is a log record (warnings and errors shown by the default logger).
    weather: {
      command: 'node',
      args: ['weather-server.js'],
      env: { DATABASE_URL: 'postgres://127.0.0.1/weather' },
    },
    // Written to this process's stderr as the server writes it.
    files: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
      stderr: 'inherit',
    },
    // Each line to a function of yours.
    search: {
      command: 'python3',
      args: ['search_server.py'],
      stderr: (line) => console.log(`[search] ${line}`),
    },
  },
});

const tools = await mcp.listTools();
try {
  // Called outside an agent, the tool needs no execution context (Mastra's type asks for one).
  await tools.weather_forecast?.execute?.({ city: 7 }, {} as never);
} catch (error) {
  // "MCP tool 'forecast' on server 'weather': invalid arguments: city: expected string, got number; ..."
  if (error instanceof MastraError && error.id === MCPErrorCode.CLIENT_INVALID_TOOL_ARGUMENTS) {
    console.warn(error.details?.field, error.details?.expected);
  }
}
await mcp.disconnect();
