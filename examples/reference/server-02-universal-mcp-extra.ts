// MCPServer reference, "Accessing MCP Context in Tools": the universal pattern reading MCP extra from a direct call or an agent call.
import type { ToolExecutionContext } from '@mastra/core/tools';

// Assumed from the app: the second argument of a tool's execute function.
declare const context: ToolExecutionContext | undefined;

const mcpExtra = context?.mcp?.extra ?? context?.requestContext?.get('mcp.extra');
const authInfo = mcpExtra?.authInfo;
