// MCPClient reference (v2), "Restricting outbound hosts with allowedHosts": an allowlist for a URL from untrusted config.
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
