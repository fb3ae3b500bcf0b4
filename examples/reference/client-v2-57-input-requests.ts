// MCPClient reference (v2), "Answering input requests": an inputRequests handler on a server definition that declines url mode and collects form input.
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare function collectUserInput(
  message: string,
  requestedSchema: unknown,
  options: { signal: AbortSignal },
): Promise<Record<string, string | number | boolean>>;

const mcpClient = new MCPClient({
  servers: {
    interactiveServer: {
      url: new URL('http://localhost:3000/mcp'),
      inputRequests: async ({ key, params, signal }) => {
        if (params.mode === 'url') {
          return { action: 'decline' };
        }
        const content = await collectUserInput(params.message, params.requestedSchema, { signal });
        return { action: 'accept', content };
      },
    },
  },
});
