import { MastraError } from '@mastra/core/error';
import { MCPClient, MCPErrorCode } from 'mastra-mcp';

// A config read from a file or built at run time escapes TypeScript's checks; the constructor does not.
const fromFile: Record<string, unknown> = { url: new URL('http://127.0.0.1:3000/mcp'), timout: 5000 };

try {
  new MCPClient({ id: 'option-checks', servers: { weather: fromFile as { url: URL } } });
} catch (error) {
  // "MCPClient: `servers.weather.timout` is not an option of server 'weather'; did you mean `timeout`?"
  if (error instanceof MastraError && error.id === MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG) {
    console.error(error.message, error.details?.field); // field: 'servers.weather.timout'
  }
}
