/**
 * Builds what a tool sees as `context.mcp` (and `requestContext.get('mcp.extra')`), and a prompt's
 * `getPromptMessages` as `context.mcp`, from the SDK's per-request handler context. How input is
 * asked (`ask`) is injected because it differs by instance profile (request-input.ts).
 */
import { RequestContext } from '@mastra/core/request-context';
import type { ElicitResult, ListRootsResult, ServerContext } from '@modelcontextprotocol/server';
import type { Ask } from './input-requests.js';
import type { RunHandle, TaskSink } from './suspended-call.js';
import type { MCPInputContext, MCPPromptContext, MCPRequestExtra, MCPToolContext } from './types.js';

/**
 * The input methods over one way of asking: each splits its `key` off and asks by method. The
 * answer's type is the method's, as input-answers.ts checked it (or the SDK, on a 2025 session).
 */
export function inputMethods(ask: Ask): MCPInputContext {
  return {
    elicitation: {
      sendRequest: ({ key, ...params }) =>
        ask({ method: 'elicitation/create', params }, key) as Promise<ElicitResult>,
    },
    sampling: {
      createMessage: (({ key, ...params }) =>
        ask(
          { method: 'sampling/createMessage', params },
          key,
        )) as MCPInputContext['sampling']['createMessage'],
    },
    roots: { list: ({ key } = {}) => ask({ method: 'roots/list' }, key) as Promise<ListRootsResult> },
  };
}

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

export function toolContext(ctx: ServerContext, ask: Ask, extra = requestExtra(ctx)): MCPToolContext {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return {
    extra,
    ...inputMethods(ask),
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
 * What a tool running as a task sees: the request it was started by is over, so its questions are
 * the task's input requests, progress and log lines become its status message, and the
 * abort signal is the task's (cancel, TTL, server shutdown).
 */
export function taskToolContext(extra: MCPRequestExtra, task: TaskSink): MCPToolContext {
  return {
    extra: { ...extra, signal: task.signal },
    ...inputMethods(task.ask),
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
  const direct = toolContext(ctx, run.ask, extra);
  const reporting = (): Pick<MCPToolContext, 'log' | 'progress'> =>
    run.task ? reportingTo(run.task) : direct;
  return {
    ...direct,
    extra: { ...extra, signal: run.signal },
    log: (level, message, data) => reporting().log(level, message, data),
    progress: (params) => reporting().progress(params),
  };
}

/** What `getPromptMessages` sees as `context.mcp`: the request's `extra` (with the run's signal) and input. */
export function promptContext(ask: Ask, extra: MCPRequestExtra): MCPPromptContext {
  return { extra, ...inputMethods(ask) };
}

export function mcpRequestContext(extra: MCPRequestExtra): RequestContext {
  const requestContext = new RequestContext();
  requestContext.set('mcp.extra', extra);
  return requestContext;
}
