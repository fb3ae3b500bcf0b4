// MCPClient reference (v2), "getServerInfo()": the identity each connected server announced.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;

await mcp.listTools();

const info = mcp.getServerInfo();
console.log(info.myServer?.title, info.myServer?.version);
