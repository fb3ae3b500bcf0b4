// MCPServer reference, "server.resources.notifyUpdated()": notifying subscribers that a resource's content changed.
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app (the server of the resources example):
declare const serverWithResources: MCPServer;

// After updating the content of 'file://data.txt'
await serverWithResources.resources.notifyUpdated({ uri: 'file://data.txt' });
