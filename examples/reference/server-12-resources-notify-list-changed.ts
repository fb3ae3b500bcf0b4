// MCPServer reference, "server.resources.notifyListChanged()": telling clients the resource list changed.
import type { MCPServer } from 'mastra-mcp';

// Assumed from the app (the server of the resources example):
declare const serverWithResources: MCPServer;

// After adding a new resource to the list managed by 'myResourceHandlers.listResources'
await serverWithResources.resources.notifyListChanged();
