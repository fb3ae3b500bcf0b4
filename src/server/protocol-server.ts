/**
 * Builds one SDK `Server` instance with every MCP handler MCPServer serves. Instances are cheap:
 * they hold closures over shared, precomputed state (the tool registry and its cached list), so
 * the 2026-07-28 path can build one per request and a legacy connection one per session.
 */

import type { IMastraLogger } from '@mastra/core/logger';
import {
  type CallToolResult,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolAuthorization } from './auth/fga.js';
import type { EventsService } from './events/service.js';
import { quoted } from './issues.js';
import type { ResolvedLimits } from './limits.js';
import type { PromptHandlers } from './prompts.js';
import type { ToolRegistry } from './registry.js';
import { type ErrorReporting, ErrorShapingServer, failureMessage, requestParams } from './request-errors.js';
import type { ResourceHandlers } from './resources.js';
import type { SuspendedCalls } from './suspended-calls.js';
import { type Elicit, mcpRequestContext, requestExtra, toolContext } from './tool-context.js';
import { ToolArgumentsError, type ToolEntry, type ToolInvocation } from './tool-entry.js';
import { errorResult, toCallToolResult } from './tool-result.js';
import { exposeTraceContext, inToolSpan, type TracedHost, traced } from './trace-context.js';

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
  /** The `events` option's state; it attaches `events/*` to 2026-07-28 instances only. */
  events?: EventsService | undefined;
  limits: ResolvedLimits;
  /** The `redactErrors` option: thrown callback errors reach the client as a generic message. */
  redactErrors: boolean;
}

/**
 * How elicitation reaches the user: `legacy` sends a real request on the caller's session,
 * `modern` suspends the tool behind `input_required`, `serverless` has nowhere to wait.
 */
export type ElicitationMode = 'legacy' | 'modern' | 'serverless';

/** What the transport knows about an instance beyond its elicitation mode. */
export interface InstanceScope {
  /** It serves one 2025-era request (a stateless legacy HTTP request). */
  legacy?: boolean;
  /** Its answers are JSON only, so no request can hold a stream open. */
  jsonOnly?: boolean;
}

export interface ProtocolInstance {
  server: Server;
  /** URIs this connection subscribed to with `resources/subscribe` (legacy connections). */
  subscriptions: Set<string>;
}

export function capabilitiesOf(host: ProtocolHost, mode: ElicitationMode): ServerCapabilities {
  // A serverless answer ends with its request: nothing can reach the client afterwards.
  const notifies = mode !== 'serverless';
  const capabilities: ServerCapabilities = { tools: notifies ? { listChanged: true } : {}, logging: {} };
  if (host.resources) capabilities.resources = notifies ? { subscribe: true, listChanged: true } : {};
  if (host.resources?.apps.size) capabilities.extensions = host.resources.apps.extensions();
  if (host.prompts) capabilities.prompts = notifies ? { listChanged: true } : {};
  if (host.resources || host.prompts) capabilities.completions = {};
  return capabilities;
}

/** Where a server's errors are logged, and whether clients see their detail. */
function reportingOf(host: ProtocolHost): ErrorReporting {
  return {
    redact: host.redactErrors,
    log: (message) => host.logger.error(`MCP server '${host.id}': ${message}`),
  };
}

/**
 * Runs a tool to a `CallToolResult`: thrown errors and rejected arguments become `isError`
 * results. Rejected arguments describe the caller's own input, so they are never redacted.
 */
export async function runTool(
  entry: ToolEntry,
  args: unknown,
  invocation: ToolInvocation,
  reporting: ErrorReporting,
): Promise<CallToolResult> {
  try {
    const output = await inToolSpan(invocation.tracingContext, entry, args, (tracingContext) =>
      entry.invoke(args, { ...invocation, tracingContext }),
    );
    return toCallToolResult(entry, output);
  } catch (error) {
    if (error instanceof ToolArgumentsError) return errorResult(error.message);
    return errorResult(failureMessage(reporting, `Tool '${entry.name}' failed`, error));
  }
}

function elicitFor(mode: ElicitationMode, ctx: ServerContext): Elicit {
  if (mode === 'serverless') {
    return () =>
      Promise.reject(
        new Error('elicitation needs a stateful session and is not available in serverless (stateless) mode'),
      );
  }
  return (request) =>
    ctx.mcpReq.elicitInput({
      mode: 'form',
      message: request.message,
      requestedSchema: request.requestedSchema,
    });
}

export function createProtocolServer(
  host: ProtocolHost,
  mode: ElicitationMode,
  scope: InstanceScope = {},
): ProtocolInstance {
  const reporting = reportingOf(host);
  const server = new ErrorShapingServer(
    host.info,
    {
      capabilities: capabilitiesOf(host, mode),
      ...(host.instructions ? { instructions: host.instructions } : {}),
      ...(mode === 'modern' ? { requestState: { verify: host.suspended.codec.verify } } : {}),
    },
    reporting,
  );
  const subscriptions = new Set<string>();

  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const tools = host.registry.list();
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
      if (refusal) {
        host.logger.warn(refusal);
        return server.projectCallToolResult(errorResult(refusal), entry.definition.outputSchema);
      }
      // Only now, so authorization never sees it.
      exposeTraceContext(requestContext, trace);
      // A suspended run (2026-07-28 elicitation) stays under the span of the request that started it.
      const start = (elicit: Elicit) => {
        const invocation: ToolInvocation = {
          mcp: toolContext(ctx, elicit, extra),
          requestContext,
          signal: ctx.mcpReq.signal,
          tracingContext: trace.tracingContext,
        };
        const mastra = host.mastra();
        if (mastra) invocation.mastra = mastra;
        return runTool(entry, request.params.arguments, invocation, reporting);
      };
      if (mode === 'modern') {
        const outcome = await host.suspended.serve(ctx, name, start);
        if (isInputRequiredResult(outcome)) return outcome;
        return server.projectCallToolResult(outcome as CallToolResult, entry.definition.outputSchema);
      }
      const result = await start(elicitFor(mode, ctx));
      return server.projectCallToolResult(result, entry.definition.outputSchema);
    });
  });

  const { resources, prompts } = host;
  if (resources) {
    server.setRequestHandler('resources/list', () => resources.list());
    server.setRequestHandler('resources/templates/list', () => resources.templates());
    server.setRequestHandler('resources/read', (request, ctx) =>
      traced(host, server, ctx, request.params.uri, () => resources.read(request.params.uri)),
    );
    if (mode !== 'modern') {
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
    server.setRequestHandler('prompts/list', () => prompts.list());
    // A schema of our own: the SDK's strict one would drop `version`, which selects the prompt.
    server.setRequestHandler('prompts/get', { params: promptGetParams }, (params, ctx) =>
      traced(host, server, ctx, params.name, () =>
        prompts.get(params.name, params.version, params.arguments),
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
  if (host.events && mode !== 'legacy' && !scope.legacy) {
    host.events.attach(server, { streaming: !scope.jsonOnly });
  }
  return { server, subscriptions };
}
