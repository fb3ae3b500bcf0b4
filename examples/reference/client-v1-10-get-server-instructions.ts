// MCPClient reference (v1), "getServerInstructions()": instructions cached per server after connecting.
import type { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare const mcp: MCPClient;

await mcp.listTools();

const instructionsByServer = mcp.getServerInstructions();
console.log(instructionsByServer.db);
