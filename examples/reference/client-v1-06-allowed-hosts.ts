// MCPClient reference (v1), "Restricting outbound hosts with allowedHosts": an untrusted server URL limited to one host.
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const untrustedConfig: { serverUrl: string };

const mcp = new MCPClient({
  servers: {
    remote: {
      url: new URL(untrustedConfig.serverUrl),
      allowedHosts: ['api.example.com'],
    },
  },
});
