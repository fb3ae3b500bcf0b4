/**
 * ToolInfo: what `getToolInfo()` and `getToolListInfo()` return for one tool. Shared because both
 * MCPServer (src/server/) and the public face of a client server proxy (src/client/server-proxies.ts)
 * name it, and neither may import the other.
 */
import type { MCPToolType } from '@mastra/core/tools';

/** What `getToolInfo()` and `getToolListInfo()` return for one tool (MCPServer and client server proxies). */
export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  /** `agent` for an `ask_<agent>` tool, `workflow` for a `run_<workflow>` or `resume_<workflow>` tool; absent for other tools. */
  toolType?: MCPToolType;
  _meta?: Record<string, unknown>;
}
