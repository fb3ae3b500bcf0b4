/**
 * The public MCPServer: the core server (server/server.ts) plus what only older reference pages
 * and transports ask of it: `server.elicitation`, and `startHonoSSE()` on Node `req`/`res`.
 */

import type { MCPServerHonoSSEOptions } from '@mastra/core/mcp';
import type { ElicitResult } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';
import { honoSseEndpointOf, MCPServerCore } from '../server/server.js';
import type { HostGuardOptions } from '../server/transports/host-guard.js';
import type { SseOptions } from '../server/transports/sse.js';
import type { AuthenticatedRequest } from '../server/transports/streamable-http.js';
import type { ElicitationRequest, MCPServerConfig } from '../server/types.js';

/**
 * `startHonoSSE()` runs inside a Hono route (`context`) or on Node `req`/`res` as the MCPServer reference shows.
 * Both take `allowedHosts`/`allowedOrigins` (DNS-rebinding protection, as every HTTP transport).
 */
export type MCPServerHonoSSEStartOptions =
  | (MCPServerHonoSSEOptions & HostGuardOptions)
  | (SseOptions & { context?: undefined });

export class MCPServer extends MCPServerCore {
  /**
   * Named in the v1 MCPClient reference's elicitation walkthrough ("the server tool calls
   * `server.elicitation.sendRequest()`"). An elicitation is a request to the one client whose
   * tool call is running, over that call's session (and, on 2026-07-28, inside that call's
   * result), and a server object serves many sessions and calls at once: only the tool's own
   * `context.mcp.elicitation.sendRequest()` knows which. Called here, it rejects with
   * `MCP_SERVER_ELICITATION_NEEDS_TOOL_CONTEXT`, which says so.
   */
  readonly elicitation: { sendRequest: (request: ElicitationRequest) => Promise<ElicitResult> };

  constructor(config: MCPServerConfig) {
    super(config);
    this.elicitation = {
      sendRequest: async () => {
        throw mcpError(
          MCPErrorCode.SERVER_ELICITATION_NEEDS_TOOL_CONTEXT,
          `MCP server '${this.id}': server.elicitation.sendRequest() cannot know which client to ask, since an elicitation belongs to the tool call in progress. Call context.mcp.elicitation.sendRequest() from the tool's execute(tool input, context) instead`,
          { serverId: this.id },
        );
      },
    };
  }

  /**
   * Serves the legacy HTTP+SSE transport through Hono. Inside a Hono route pass `context` and
   * return the Response; on Node pass `req`/`res` and the response is written for you. Either
   * way foreign `Host`/`Origin` headers get 403 (`allowedHosts`/`allowedOrigins` widen that), and
   * message bodies are bounded by `limits`.
   */
  override async startHonoSSE(options: MCPServerHonoSSEStartOptions): Promise<Response | undefined> {
    if (options.context) return super.startHonoSSE(options);
    const honoSse = await honoSseEndpointOf(this);
    await honoSse.handleNode({ ...options, authInfo: (options.req as AuthenticatedRequest).auth });
    return undefined;
  }
}
