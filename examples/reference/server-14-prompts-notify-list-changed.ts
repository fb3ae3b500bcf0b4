// MCPServer reference, "server.prompts.notifyListChanged()": telling clients the prompt list changed.
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app (the server of the prompts example):
declare const serverWithPrompts: MCPServer;

await serverWithPrompts.prompts.notifyListChanged();
