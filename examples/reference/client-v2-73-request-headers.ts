// MCPClient reference (v2), "Sending request headers": static headers in requestInit, sent on every request.
import { MCPClient } from 'mastra-mcp';

const client = new MCPClient({
  servers: {
    exampleServer: {
      url: new URL('https://your-mcp-server.com/mcp'),
      requestInit: {
        headers: {
          Authorization: 'Bearer your-token',
        },
      },
    },
  },
});
