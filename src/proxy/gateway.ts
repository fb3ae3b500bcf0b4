/**
 * The MCP server a client server proxy serves with `startHTTP()` / `startStdio()`: one SDK `Server`
 * whose handlers forward every request over the client's connection to the proxied server, so any
 * MCP client reaches an external server through the Mastra app. Invariants:
 *
 * - capabilities mirror what the server announced when the proxy connected, minus what is not
 *   forwarded (resource subscriptions, logging, extensions other than MCP Apps);
 * - results are rebuilt from their fields, so the upstream response envelope (its server identity
 *   in `_meta`) never reaches the caller, while a tool result's own `_meta` and every resource's
 *   `_meta` and `mimeType` pass through;
 * - an upstream JSON-RPC error keeps its code; every error names the proxied server;
 * - with an FGA provider on the Mastra instance, tools are filtered and checked as MCPServer does;
 * - tools/call, resources/read and prompts/get are traced as MCPServer traces them (a request span
 *   linked to the caller, named in the reply) and send the trace context on: the gateway span's
 *   traceparent, or without observability the caller's validated values (a transparent proxy). The
 *   gateway span links to the span the upstream names, whose name never reaches the caller as the
 *   gateway's.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { MCPServerHTTPOptions } from '@mastra/core/mcp';
import type {
  CallToolResult,
  Client,
  ServerCapabilities as UpstreamCapabilities,
} from '@modelcontextprotocol/client';
import {
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  type ServerCapabilities,
  type ServerContext,
  TRACEPARENT_META_KEY,
} from '@modelcontextprotocol/server';
import { addHandler, removeHandler } from '../client/actions.js';
import type { ServerConnection } from '../client/connection.js';
import { findCause, messageOf } from '../client/errors.js';
import { MCPErrorCode, mcpError } from '../errors.js';
import {
  Connections,
  type ErrorReporting,
  errorResult,
  forwardedTraceContext,
  type InstanceProfile,
  loadTrackedStdio,
  MCP_APPS_EXTENSION_ID,
  mcpRequestContext,
  promptGetParams,
  type RequestTrace,
  requestExtra,
  type StdioServing,
  StreamableHttpEndpoint,
  TelemetryServer,
  type ToolAuthorization,
  type TracedHost,
  traced,
} from '../server/hosting.js';
import type { MCPTelemetryOptions } from '../shared/telemetry/options.js';
import { Telemetry } from '../shared/telemetry/telemetry.js';
import { addSpanLink, repliedSpan } from '../shared/trace-context.js';

/** The proxy's id, name/version and Mastra instance (for the request spans), and its upstream. */
export interface GatewayUpstream extends TracedHost {
  connection: ServerConnection;
  instructions: string | undefined;
  /** What the server announced when the proxy connected. */
  capabilities: UpstreamCapabilities;
  access: ToolAuthorization;
  /** The advertised output schema of a tool, for the era-specific projection of its results. */
  outputSchemaOf(tool: string): Record<string, unknown> | undefined;
  /** The advertised input schema of a tool: its `x-mcp-header` parameters are checked against their headers. */
  inputSchemaOf(tool: string): unknown;
  /** The proxying client's `telemetry` option. */
  telemetry: MCPTelemetryOptions | undefined;
}

function gatewayCapabilities(upstream: UpstreamCapabilities): ServerCapabilities {
  const capabilities: ServerCapabilities = {};
  if (upstream.tools) capabilities.tools = { listChanged: true };
  if (upstream.resources) capabilities.resources = { listChanged: true };
  if (upstream.prompts) capabilities.prompts = { listChanged: true };
  if (upstream.completions) capabilities.completions = {};
  // MCP Apps is metadata on tools and `ui://` resources only, so forwarding carries all of it.
  const apps = upstream.extensions?.[MCP_APPS_EXTENSION_ID];
  if (apps) capabilities.extensions = { [MCP_APPS_EXTENSION_ID]: apps };
  return capabilities;
}

/** Links the gateway span (when there is one) to the upstream span a reply names (kind `mcp.server`). */
function linkUpstream(trace: RequestTrace, meta: unknown): void {
  const upstreamSpan = repliedSpan(meta);
  if (upstreamSpan) addSpanLink(trace.tracingContext?.currentSpan, { ...upstreamSpan, kind: 'mcp.server' });
}

/**
 * A tool result without what is the upstream's, not the gateway's, in `_meta`: its identity, and its
 * span's name when the gateway has a span of its own (a transparent gateway passes that through).
 */
function gatewayResult(result: CallToolResult, trace: RequestTrace): CallToolResult {
  const keys = trace.tracingContext ? [SERVER_INFO_META_KEY, TRACEPARENT_META_KEY] : [SERVER_INFO_META_KEY];
  const { _meta: upstreamMeta, ...rest } = result;
  if (!upstreamMeta || !keys.some((key) => key in upstreamMeta)) return result;
  const meta = Object.fromEntries(Object.entries(upstreamMeta).filter(([key]) => !keys.includes(key)));
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

export function createGatewayServer(
  upstream: GatewayUpstream,
  reporting: ErrorReporting,
  telemetry: Telemetry,
  session: boolean,
): TelemetryServer {
  const { connection } = upstream;
  // Its SERVER spans parent the upstream CLIENT spans: one trace from the caller to the server.
  const server = new TelemetryServer(
    upstream.info,
    {
      capabilities: gatewayCapabilities(upstream.capabilities),
      ...(upstream.instructions ? { instructions: upstream.instructions } : {}),
    },
    reporting,
    telemetry,
    session,
  );

  /** One upstream request; a failure keeps its JSON-RPC code and names the server. */
  const forward = async <T>(what: string, operation: (client: Client) => Promise<T>): Promise<T> => {
    try {
      return await connection.run(operation);
    } catch (error) {
      // The SDK brands its errors: the server entry's class matches the upstream client's.
      const code = findCause(error, ProtocolError)?.code ?? ProtocolErrorCode.InternalError;
      throw new ProtocolError(
        code,
        `MCP server '${connection.name}' (proxied): ${what} failed: ${messageOf(error)}`,
      );
    }
  };
  const options = (signal: AbortSignal) => ({ timeout: connection.timeout, signal });
  /** The request `_meta`: a traced request's also carries its trace context upstream. */
  const meta = (trace?: RequestTrace) => {
    const requestMeta = connection.requestMeta(trace && forwardedTraceContext(trace));
    return requestMeta ? { _meta: requestMeta } : {};
  };
  const tracedAs = <R extends object>(
    ctx: ServerContext,
    target: string,
    handle: (trace: RequestTrace) => Promise<R>,
  ) => traced(upstream, server, ctx, target, handle);

  if (upstream.capabilities.tools) {
    server.setRequestHandler('tools/list', async (_request, ctx) => {
      const { tools } = await forward('tools/list', (client) =>
        client.listTools(meta(), options(ctx.mcpReq.signal)),
      );
      if (!upstream.access.provider()) return { tools };
      const extra = requestExtra(ctx);
      return { tools: await upstream.access.visible(tools, mcpRequestContext(extra), extra) };
    });
    server.setRequestHandler('tools/call', (request, ctx) => {
      const { name } = request.params;
      return tracedAs(ctx, name, async (trace) => {
        const extra = requestExtra(ctx);
        const requestContext = mcpRequestContext(extra);
        const refusal = await upstream.access.refusal(name, requestContext, extra);
        if (refusal) return errorResult(refusal);
        const args = request.params.arguments;
        const result = await forward(`calling tool '${name}'`, (client) =>
          client.callTool(
            { name, ...(args ? { arguments: args } : {}), ...meta(trace) },
            options(ctx.mcpReq.signal),
          ),
        );
        linkUpstream(trace, result._meta);
        return server.projectCallToolResult(gatewayResult(result, trace), upstream.outputSchemaOf(name));
      });
    });
  }

  if (upstream.capabilities.resources) {
    server.setRequestHandler('resources/list', async (_request, ctx) => {
      const { resources } = await forward('resources/list', (client) =>
        client.listResources(meta(), options(ctx.mcpReq.signal)),
      );
      return { resources };
    });
    server.setRequestHandler('resources/templates/list', async (_request, ctx) => {
      const { resourceTemplates } = await forward('resources/templates/list', (client) =>
        client.listResourceTemplates(meta(), options(ctx.mcpReq.signal)),
      );
      return { resourceTemplates };
    });
    server.setRequestHandler('resources/read', (request, ctx) => {
      const { uri } = request.params;
      return tracedAs(ctx, uri, async (trace) => {
        const { contents, _meta } = await forward(`reading resource '${uri}'`, (client) =>
          client.readResource({ uri, ...meta(trace) }, options(ctx.mcpReq.signal)),
        );
        linkUpstream(trace, _meta);
        return { contents };
      });
    });
  }

  if (upstream.capabilities.prompts) {
    server.setRequestHandler('prompts/list', async (_request, ctx) => {
      const { prompts } = await forward('prompts/list', (client) =>
        client.listPrompts(meta(), options(ctx.mcpReq.signal)),
      );
      return { prompts };
    });
    // Our own schema, as MCPServer's: the SDK's strict one would drop `version`.
    server.setRequestHandler('prompts/get', { params: promptGetParams }, (params, ctx) =>
      tracedAs(ctx, params.name, async (trace) => {
        const { description, messages, _meta } = await forward(`getting prompt '${params.name}'`, (client) =>
          client.getPrompt(
            {
              name: params.name,
              ...(params.version !== undefined ? { version: params.version } : {}),
              ...(params.arguments ? { arguments: params.arguments } : {}),
              ...meta(trace),
            },
            options(ctx.mcpReq.signal),
          ),
        );
        linkUpstream(trace, _meta);
        return description !== undefined ? { description, messages } : { messages };
      }),
    );
  }

  if (upstream.capabilities.completions) {
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      const { completion } = await forward('completion/complete', (client) =>
        client.complete({ ...request.params, ...meta() }, options(ctx.mcpReq.signal)),
      );
      return { completion };
    });
  }
  return server;
}

/**
 * The transports a proxy's gateway is served on, and the upstream list-changed handlers that
 * notify its callers (installed on the first request, removed by `close()`).
 */
export class ProxyGateway {
  private readonly connections: Connections;
  private readonly http: StreamableHttpEndpoint;
  private stdio: StdioServing | undefined;
  private readonly forwarders: Array<[Set<() => void>, () => void]> = [];
  private listening: Promise<void> | undefined;
  /** The proxying client's option, on by default as MCPServer's when an OpenTelemetry SDK is registered. */
  private readonly telemetry: Telemetry;

  constructor(
    private readonly upstream: GatewayUpstream,
    private readonly label: () => string,
    private readonly logger: () => IMastraLogger,
  ) {
    this.connections = new Connections(logger);
    this.telemetry = new Telemetry('server', upstream.telemetry);
    this.http = new StreamableHttpEndpoint({
      createInstance: (profile) => this.instance(profile),
      connections: this.connections,
      onerror: (error) => this.logger().error(`${this.label()}: ${error.message}`),
      toolInputSchema: (tool) => upstream.inputSchemaOf(tool),
      telemetry: this.telemetry,
    });
    const { handlers } = upstream.connection;
    const { tools, resources, prompts } = upstream.capabilities;
    if (tools) this.forwarders.push([handlers.toolsChanged, () => void this.connections.toolsChanged()]);
    if (resources)
      this.forwarders.push([handlers.resourcesChanged, () => void this.connections.resourcesChanged()]);
    if (prompts)
      this.forwarders.push([handlers.promptsChanged, () => void this.connections.promptsChanged()]);
  }

  /** Gateway instances hold no state of their own: one per request, session or stdio peer. */
  private instance(profile: InstanceProfile) {
    // A proxy has no redactErrors option: upstream errors are the upstream's to word.
    const reporting = {
      redact: false,
      log: (message: string) => this.logger().error(`${this.label()}: ${message}`),
    };
    const server = createGatewayServer(
      this.upstream,
      reporting,
      this.telemetry,
      profile.serves === 'session',
    );
    return {
      server,
      subscriptions: new Set<string>(),
      servesStdio: () => {
        server.link.overStdio = true;
      },
    };
  }

  /**
   * Upstream list changes reach the callers from the first request on. The handlers are in place
   * even when widening the listen stream fails now: a reconnect restores the stream with them.
   */
  private listen(): Promise<void> {
    this.listening ??= Promise.all(
      this.forwarders.map(([set, handler]) => addHandler(this.upstream.connection, set, handler)),
    ).then(
      () => {},
      (error: unknown) =>
        this.logger().warn(`${this.label()}: list changes may not be forwarded yet: ${messageOf(error)}`),
    );
    return this.listening;
  }

  async serveHttp(options: MCPServerHTTPOptions): Promise<void> {
    await this.listen();
    await this.http.serve(options);
  }

  async serveStdio(): Promise<void> {
    const serveTrackedStdio = await loadTrackedStdio();
    if (this.stdio) {
      throw mcpError(MCPErrorCode.SERVER_ALREADY_SERVING_STDIO, `${this.label()} is already serving stdio`, {
        proxy: this.label(),
      });
    }
    await this.listen();
    this.stdio = serveTrackedStdio(
      (profile) => this.instance(profile),
      this.connections,
      (error) => this.logger().error(`${this.label()} (stdio): ${error.message}`),
      undefined,
      this.telemetry,
    );
  }

  get stdioTransport() {
    return this.stdio?.transport;
  }

  async close(): Promise<void> {
    const stdio = this.stdio;
    this.stdio = undefined;
    this.listening = undefined;
    await Promise.allSettled([
      stdio?.handle.close(),
      this.http.close(),
      this.connections.closeAll(),
      ...this.forwarders.map(([set, handler]) => removeHandler(this.upstream.connection, set, handler)),
    ]);
  }
}
