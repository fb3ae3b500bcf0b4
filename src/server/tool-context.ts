/**
 * Builds what a tool sees as `context.mcp` (and `requestContext.get('mcp.extra')`) from the SDK's
 * per-request handler context. Elicitation is injected because it differs by era and mode.
 */
import { RequestContext } from '@mastra/core/request-context';
import type { ElicitResult, ServerContext } from '@modelcontextprotocol/server';
import type { ElicitationRequest, MCPRequestExtra, MCPToolContext } from './types.js';

export type Elicit = (request: ElicitationRequest) => Promise<ElicitResult>;

export function requestExtra(ctx: ServerContext): MCPRequestExtra {
  const extra: MCPRequestExtra = {
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    sendNotification: ctx.mcpReq.notify,
    sendRequest: ctx.mcpReq.send,
  };
  if (ctx.http?.authInfo) extra.authInfo = ctx.http.authInfo;
  if (ctx.sessionId) extra.sessionId = ctx.sessionId;
  if (ctx.mcpReq._meta) extra._meta = ctx.mcpReq._meta;
  return extra;
}

export function toolContext(ctx: ServerContext, elicit: Elicit, extra = requestExtra(ctx)): MCPToolContext {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return {
    extra,
    elicitation: { sendRequest: elicit },
    log: (level, message, data) => ctx.mcpReq.log(level, data ? { message, ...data } : message),
    progress: async ({ progress, total, message }) => {
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      });
    },
  };
}

export function mcpRequestContext(extra: MCPRequestExtra): RequestContext {
  const requestContext = new RequestContext();
  requestContext.set('mcp.extra', extra);
  return requestContext;
}
