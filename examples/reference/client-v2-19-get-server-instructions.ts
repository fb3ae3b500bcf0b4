// MCPClient reference (v2), "getServerInstructions()": instructions each connected server advertised.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;

await mcp.listTools();

const instructionsByServer = mcp.getServerInstructions();
console.log(instructionsByServer.db);
