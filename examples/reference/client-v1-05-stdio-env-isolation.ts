// MCPClient reference (v1), "Stdio server child process environment": inheritDefaultEnv: false passes only the configured env.
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: {
    myTool: {
      command: '/usr/local/bin/my-mcp-server',
      inheritDefaultEnv: false,
      env: { MY_TOOL_API_KEY: process.env.MY_TOOL_API_KEY! },
    },
  },
});
