import { MastraError } from '@mastra/core/error';
import { MCPClient, MCPErrorCode } from 'mastra-mcp';

const mcp = new MCPClient({
  id: 'errors-example',
  servers: { remote: { url: new URL('http://127.0.0.1:3000/mcp') } },
});

try {
  await mcp.reconnectServer('remote');
} catch (error) {
  // e.g. "Failed to connect to MCP server 'remote' at http://127.0.0.1:3000/mcp: connection refused: ..."
  if (error instanceof MastraError && error.id === MCPErrorCode.CLIENT_CONNECT_FAILED) {
    console.warn(error.message, error.details?.httpStatus);
  }
}
await mcp.disconnect();
