/**
 * Builds what a tool sees as `context.mcp` (and `requestContext.get('mcp.extra')`) from the SDK's
 * per-request handler context. Elicitation is injected because it differs by instance profile
 * (instance-profile.ts).
 */
import { RequestContext } from '@mastra/core/request-context';
import type { ElicitResult, ServerContext } from '@modelcontextprotocol/server';
import type { RunHandle, TaskSink } from './suspended-calls.js';
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

/** Progress and log lines of a tool running as a task: its status message. */
function reportingTo(task: TaskSink): Pick<MCPToolContext, 'log' | 'progress'> {
  return {
    log: async (_level, message) => task.report(message),
    progress: async ({ progress, total, message }) =>
      task.report(
        message ?? (total !== undefined ? `${progress}/${total}` : String(progress)),
        total !== undefined ? { progress, total } : { progress },
      ),
  };
}

/**
 * What a tool running as a task sees: the request it was started by is over, so elicitation asks
 * through the task's input requests, progress and log lines become its status message, and the
 * abort signal is the task's (cancel, TTL, server shutdown).
 */
export function taskToolContext(extra: MCPRequestExtra, task: TaskSink): MCPToolContext {
  return {
    extra: { ...extra, signal: task.signal },
    elicitation: { sendRequest: task.elicit },
    ...reportingTo(task),
  };
}

/**
 * What a tool that asks before it becomes a task sees: the call's own context until then, the
 * task's (as {@link taskToolContext}) once `run` was handed over to one.
 */
export function handedOverToolContext(
  ctx: ServerContext,
  run: RunHandle,
  extra: MCPRequestExtra,
): MCPToolContext {
  const direct = toolContext(ctx, run.elicit, extra);
  const reporting = (): Pick<MCPToolContext, 'log' | 'progress'> =>
    run.task ? reportingTo(run.task) : direct;
  return {
    extra: { ...extra, signal: run.signal },
    elicitation: direct.elicitation,
    log: (level, message, data) => reporting().log(level, message, data),
    progress: (params) => reporting().progress(params),
  };
}

export function mcpRequestContext(extra: MCPRequestExtra): RequestContext {
  const requestContext = new RequestContext();
  requestContext.set('mcp.extra', extra);
  return requestContext;
}
