/**
 * Builds one SDK `Server` instance with every MCP handler MCPServer serves. Instances are cheap:
 * they hold closures over shared, precomputed state (the tool registry and its cached list), so
 * the 2026-07-28 path can build one per request and a legacy connection one per session. What an
 * instance declares and attaches follows its InstanceProfile (instance-profile.ts).
 */

import type { IMastraLogger } from '@mastra/core/logger';
import {
  type CallToolResult,
  type InputRequiredResult,
  isInputRequiredResult,
  type JSONRPCRequest,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type Server,
  type ServerCapabilities,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TASK_SUPPORT_META_KEY } from '../shared/tasks-wire.js';
import type { Telemetry } from '../shared/telemetry/telemetry.js';
import type { ToolAuthorization } from './auth/fga.js';
import { boundedLogLine } from './error-echo.js';
import type { EventsService } from './events/service.js';
import type { InstanceProfile } from './instance-profile.js';
import { quoted } from './issues.js';
import type { ResolvedLimits } from './limits.js';
import type { PromptHandlers } from './prompts.js';
import type { ToolRegistry } from './registry.js';
import { type ErrorReporting, failureMessage, protocolErrorIn, requestParams } from './request-errors.js';
import { callerElicits, serveAsking } from './request-input.js';
import type { ResourceHandlers } from './resources.js';
import { attachSkills } from './skills/handlers.js';
import type { SkillsService } from './skills/service.js';
import { isStillWorking, type SuspendedCalls } from './suspended-calls.js';
import type { TasksService } from './tasks/service.js';
import type { TaskWork } from './tasks/task-run.js';
import type { MCPTaskSupport } from './tasks/types.js';
import { TelemetryServer } from './telemetry-server.js';
import {
  handedOverToolContext,
  mcpRequestContext,
  promptContext,
  requestExtra,
  taskToolContext,
  toolContext,
} from './tool-context.js';
import { ToolArgumentsError, type ToolEntry } from './tool-entry.js';
import type { TaskHooks, ToolInvocation } from './tool-invocation.js';
import { errorResult, toCallToolResult } from './tool-result.js';
import { exposeTraceContext, inToolSpan, type TracedHost, traced } from './trace-context.js';
import type { MCPRequestExtra, MCPToolContext } from './types.js';

export const promptGetParams = requestParams(
  z.looseObject({
    name: z.string(),
    version: z.string().optional(),
    arguments: z.record(z.string(), z.string()).optional(),
  }),
);

/** Shared state every instance reads (the traced identity included). */
export interface ProtocolHost extends TracedHost {
  instructions?: string | undefined;
  registry: ToolRegistry;
  resources?: ResourceHandlers | undefined;
  prompts?: PromptHandlers | undefined;
  suspended: SuspendedCalls;
  /** FGA for tools/list and tools/call (a no-op unless the Mastra instance has an FGA provider). */
  access: ToolAuthorization;
  logger: IMastraLogger;
  /** The `events` option's state; attached to instances whose profile `servesEvents`. */
  events?: EventsService | undefined;
  /** The `tasks` option's state; attached to instances whose profile `runsTasks`. */
  tasks?: TasksService | undefined;
  /** The `skills` option's state (its files are among `resources`). */
  skills?: SkillsService | undefined;
  limits: ResolvedLimits;
  /** The `redactErrors` option: thrown callback errors reach the client as a generic message. */
  redactErrors: boolean;
  /** The `telemetry` option's OpenTelemetry spans and measurements. */
  telemetry: Telemetry;
}

export interface ProtocolInstance {
  server: Server;
  /** URIs this connection subscribed to with `resources/subscribe` (legacy connections). */
  subscriptions: Set<string>;
  /** The log level the latest 2026-07-28 request to this instance named, if any (connections.ts reads it). */
  requestedLogLevel?: () => LoggingLevel | undefined;
  /** Says the instance serves a stdio connection (its spans say `network.transport: pipe`). */
  servesStdio?: () => void;
}

/**
 * MCPServer's SDK `Server`: errors shaped and traced (TelemetryServer), and the latest log level a
 * 2026-07-28 request named (`_meta` `io.modelcontextprotocol/logLevel`, checked by the SDK before
 * any handler) kept. A 2026-07-28 stdio connection has one instance whose one channel carries
 * every answer, so that level is the one `sendLoggingMessage()` honours there.
 */
class InstanceServer extends TelemetryServer {
  requestedLogLevel: LoggingLevel | undefined;

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) => {
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      const level = envelope?.[LOG_LEVEL_META_KEY] as LoggingLevel | undefined;
      if (level !== undefined) this.requestedLogLevel = level;
      return wrapped(request, ctx);
    };
  }
}

function capabilitiesOf(host: ProtocolHost, { notifies }: InstanceProfile): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: notifies ? { listChanged: true } : {}, logging: {} };
  if (host.resources) capabilities.resources = notifies ? { subscribe: true, listChanged: true } : {};
  const extensions = host.resources?.extensions();
  if (extensions) capabilities.extensions = extensions;
  if (host.prompts) capabilities.prompts = notifies ? { listChanged: true } : {};
  if (host.resources || host.prompts) capabilities.completions = {};
  return capabilities;
}

/** How a tool runs for a client that declared the Tasks extension (derived ask_/run_ tools may by default). */
function supportOf(entry: ToolEntry, tasks: TasksService): MCPTaskSupport {
  return tasks.supportOf(entry.name, entry.kind !== 'tool', entry.taskSupport);
}

/** A tool as 2026-07-28 clients list it when tasks are on: its `_meta` says whether it may return a task. */
function withTaskSupport(tool: Tool, host: ProtocolHost): Tool {
  const entry = host.registry.get(tool.name);
  const support = entry && host.tasks ? supportOf(entry, host.tasks) : 'forbidden';
  return support === 'forbidden'
    ? tool
    : { ...tool, _meta: { ...tool._meta, [TASK_SUPPORT_META_KEY]: support } };
}

/** Where a server's errors are logged, and whether clients see their detail. */
export function reportingOf(host: ProtocolHost): ErrorReporting {
  return {
    redact: host.redactErrors,
    log: (message) => host.logger.error(boundedLogLine(`MCP server '${host.id}': ${message}`)),
  };
}

/**
 * Runs a tool to a `CallToolResult`: thrown errors and rejected arguments become `isError`
 * results. Rejected arguments describe the caller's own input, so they are never redacted. A
 * missing client capability (-32021: a question the caller cannot be asked, which the tool let
 * escape) is the caller's answer, rethrown. For a task (`forTask`), any `ProtocolError` the tool
 * threw on purpose is rethrown (the task fails with it), and so is whatever it threw once the
 * task's signal aborted (it was cancelled or expired).
 */
export async function runTool(
  entry: ToolEntry,
  args: unknown,
  invocation: ToolInvocation,
  reporting: ErrorReporting,
  { forTask = false } = {},
): Promise<CallToolResult> {
  try {
    const output = await inToolSpan(invocation.tracingContext, entry, args, (tracingContext) =>
      entry.invoke(args, { ...invocation, tracingContext }),
    );
    return toCallToolResult(entry, output);
  } catch (error) {
    if (error instanceof ToolArgumentsError) return errorResult(error.message);
    const protocol = protocolErrorIn(error);
    if (protocol instanceof MissingRequiredClientCapabilityError) throw protocol;
    if (forTask && (invocation.signal?.aborted || protocol)) throw error;
    return errorResult(failureMessage(reporting, `Tool '${entry.name}' failed`, error));
  }
}

/** One `tools/call` past its authorization: what each way of running it is given. */
interface ToolCall {
  ctx: ServerContext;
  name: string;
  extra: MCPRequestExtra;
  /** Runs the tool once with this context and signal (and a task's hooks when it runs as one). */
  invoke: (mcp: MCPToolContext, signal: AbortSignal, task?: TaskHooks) => Promise<CallToolResult>;
  /** The result as the SDK sends it, checked against the tool's output schema. */
  project: (result: CallToolResult) => CallToolResult;
}

/**
 * A `tools/call` that runs as a task. The task is created when the call arrives, unless the tool
 * asks first (`inputBeforeTask`): then its questions are the call's own `input_required` rounds,
 * and the task is created on the round after which it works on without asking (the
 * specification's multi-round-trip-then-task composition). Returns the CreateTaskResult, which
 * the SDK passes through for tools/call (resultType 'task'), or the round's own answer.
 */
async function callAsTask(
  { ctx, name, extra, invoke, project }: ToolCall,
  tasks: TasksService,
  suspended: SuspendedCalls,
): Promise<CallToolResult | InputRequiredResult> {
  const created = (work: TaskWork) => tasks.start(ctx, name, work) as Promise<CallToolResult>;
  if (!tasks.asksBeforeTask(name)) {
    return created(async (run) => project(await invoke(taskToolContext(extra, run), run.signal, run)));
  }
  const outcome = await suspended.serveUntilWorking(ctx, { method: 'tools/call', name }, (run) =>
    invoke(handedOverToolContext(ctx, run, extra), run.signal, run),
  );
  if (isInputRequiredResult(outcome)) return outcome;
  if (!isStillWorking<CallToolResult>(outcome)) return project(outcome);
  return created(async (run) => {
    outcome.handOver(run);
    return project(await outcome.result);
  });
}

export function createProtocolServer(host: ProtocolHost, profile: InstanceProfile): ProtocolInstance {
  const reporting = reportingOf(host);
  const server = new InstanceServer(
    host.info,
    {
      capabilities: capabilitiesOf(host, profile),
      ...(host.instructions ? { instructions: host.instructions } : {}),
      // The retry of a suspended call carries its state back: signed by this server, checked here.
      ...(profile.suspendsCalls ? { requestState: { verify: host.suspended.codec.verify } } : {}),
    },
    reporting,
    host.telemetry,
    profile.serves === 'session',
  );
  const subscriptions = new Set<string>();

  const { tasks } = host;
  const taskAware = tasks?.enabled && profile.runsTasks;
  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const tools = taskAware
      ? host.registry.list().map((tool) => withTaskSupport(tool, host))
      : host.registry.list();
    if (!host.access.provider()) return { tools };
    const extra = requestExtra(ctx);
    return { tools: await host.access.visible(tools, mcpRequestContext(extra), extra) };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name } = request.params;
    const entry = host.registry.get(name);
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${quoted(name)}`);
    return traced(host, server, ctx, name, async (trace) => {
      const extra = requestExtra(ctx);
      const requestContext = mcpRequestContext(extra);
      const refusal = await host.access.refusal(name, requestContext, extra);
      const project = (result: CallToolResult) =>
        server.projectCallToolResult(result, entry.definition.outputSchema);
      if (refusal) {
        host.logger.warn(refusal);
        return project(errorResult(refusal));
      }
      // Only now, so authorization never sees it.
      exposeTraceContext(requestContext, trace);
      const elicits = callerElicits(profile, server, ctx);
      // A suspended run (2026-07-28 elicitation) stays under the span of the request that started it.
      const invoke = (mcp: MCPToolContext, signal: AbortSignal, task?: TaskHooks) => {
        const invocation: ToolInvocation = {
          mcp,
          requestContext,
          signal,
          elicits,
          tracingContext: trace.tracingContext,
          ...(task ? { task } : {}),
        };
        const mastra = host.mastra();
        if (mastra) invocation.mastra = mastra;
        return runTool(entry, request.params.arguments, invocation, reporting, {
          forTask: task !== undefined,
        });
      };
      const call: ToolCall = { ctx, name, extra, invoke, project };
      if (taskAware && tasks.runsAsTask(ctx, supportOf(entry, tasks), name)) {
        return callAsTask(call, tasks, host.suspended);
      }
      const outcome = await serveAsking(
        host.suspended,
        profile,
        server,
        ctx,
        { method: 'tools/call', name },
        (ask, signal) => invoke(toolContext(ctx, ask, extra), signal),
      );
      return isInputRequiredResult(outcome) ? outcome : project(outcome);
    });
  });

  const { resources, prompts } = host;
  if (resources) {
    server.setRequestHandler('resources/list', () => resources.list());
    server.setRequestHandler('resources/templates/list', () => resources.templates());
    server.setRequestHandler('resources/read', (request, ctx) =>
      traced(host, server, ctx, request.params.uri, () => resources.read(request.params.uri)),
    );
    if (profile.acceptsResourceSubscriptions) {
      server.setRequestHandler('resources/subscribe', (request) => {
        subscriptions.add(request.params.uri);
        return {};
      });
      server.setRequestHandler('resources/unsubscribe', (request) => {
        subscriptions.delete(request.params.uri);
        return {};
      });
    }
  }
  if (prompts) {
    // 2025 prompts have no `version`: those clients see each name once (prompts.ts).
    server.setRequestHandler('prompts/list', () =>
      prompts.list({ oneVersionEach: profile.oneVersionPerPrompt }),
    );
    // A schema of our own: the SDK's strict one would drop `version`, which selects the prompt.
    server.setRequestHandler('prompts/get', { params: promptGetParams }, (params, ctx) =>
      traced(host, server, ctx, params.name, () =>
        serveAsking(
          host.suspended,
          profile,
          server,
          ctx,
          { method: 'prompts/get', name: params.name },
          (ask, signal) =>
            prompts.get(params.name, params.version, params.arguments, {
              mcp: promptContext(ask, { ...requestExtra(ctx), signal }),
            }),
        ),
      ),
    );
  }
  if (resources || prompts) {
    server.setRequestHandler('completion/complete', (request) => {
      const { ref, argument, context } = request.params;
      if (ref.type === 'ref/prompt' && prompts) return prompts.complete(ref.name, argument, context);
      if (ref.type === 'ref/resource' && resources) return resources.complete(ref.uri, argument, context);
      return { completion: { values: [] } };
    });
  }
  if (host.events && profile.servesEvents) host.events.attach(server, { streaming: profile.streams });
  if (taskAware) tasks.attach(server);
  if (host.skills) attachSkills(server, host.skills);
  return {
    server,
    subscriptions,
    requestedLogLevel: () => server.requestedLogLevel,
    servesStdio: () => {
      server.link.overStdio = true;
    },
  };
}
