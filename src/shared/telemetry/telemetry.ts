/**
 * OpenTelemetry for one MCPClient or MCPServer: a span and an operation-duration measurement
 * around every request it sends (`mcp.client` spans, kind CLIENT) or serves (`mcp.server`, kind
 * SERVER), and a session-duration measurement per session, as the semantic conventions for MCP
 * describe them. The sides' hooks (client/sdk-telemetry.ts, server/protocol-server.ts) call
 * `outbound()` and `inbound()` from the one place each SDK instance sends and dispatches requests.
 *
 * Without `@opentelemetry/api`, or with `enabled: false`, both run the request as it is. With the
 * API but no SDK registered, the global tracer provider delegates to the API's no-op one and the
 * meter is the no-op one: the request runs as it is after those two look-ups.
 */
import type { Context, Histogram, Span, SpanOptions, Tracer } from '@opentelemetry/api';
import {
  type AttributeName,
  type MCPAttributes,
  OPERATION_METRIC_ATTRIBUTES,
  pick,
  SESSION_METRIC_ATTRIBUTES,
} from './attributes.js';
import {
  capturedJson,
  describeRequest,
  type Failure,
  failureInResult,
  failureOf,
  requestFailure,
} from './operation.js';
import { DEFAULT_MAX_CONTENT_BYTES, type MCPTelemetryOptions } from './options.js';
import { extractedContext, injectedMeta } from './propagation.js';
import { loadOtelApi, type OtelApi, otelApiLoading, otelRegistered } from './telemetry-api.js';

export type TelemetrySide = 'client' | 'server';

/** One request: its method and params (with `_meta`), as the SDK sends or dispatches it. */
export interface MCPRequestShape {
  method: string;
  params?: Record<string, unknown> | undefined;
}

const INSTRUMENTATION = 'mastra-mcp';
/** The API's no-op TracerProvider, what the global proxy delegates to until an SDK registers. */
let noopTracerProvider: object | undefined;
/** The conventions' advice for both duration histograms. */
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

interface Instruments {
  client: Histogram;
  server: Histogram;
  session: Histogram;
}

/** The tracer of one provider, and whether its spans can record (a provider given, or an SDK registered). */
interface Tracing {
  provider: object;
  tracer: Tracer;
  recording: boolean;
}

/** What the global proxy tracer provider delegates to (itself for a provider that is no proxy). */
const delegateOf = (global: { getDelegate?: () => object }): object => global.getDelegate?.() ?? global;

/** Ends a session's measurement (the error it ended with, if any). */
type SessionEnd = (error?: unknown) => void;

/** A session's duration from `start()` to `stop()`; a stop without a start records nothing. */
export class SessionClock {
  private end: SessionEnd | undefined;

  constructor(
    private readonly telemetry: Telemetry,
    private readonly connection: () => MCPAttributes,
  ) {}

  start(): void {
    this.end = this.telemetry.session(this.connection);
  }

  stop(error?: unknown): void {
    this.end?.(error);
    this.end = undefined;
  }
}

export class Telemetry {
  readonly enabled: boolean;
  private readonly capture: boolean;
  private readonly maxContentBytes: number;
  private tracing?: Tracing;
  private metersFor?: { provider: object; instruments: Instruments | undefined };

  constructor(
    private readonly side: TelemetrySide,
    private readonly options: MCPTelemetryOptions = {},
  ) {
    this.enabled = options.enabled !== false;
    this.capture = options.captureContent === true;
    this.maxContentBytes = options.maxContentBytes ?? DEFAULT_MAX_CONTENT_BYTES;
    this.api();
  }

  /**
   * The API once loaded. It is loaded when first wanted: providers given here, or anything
   * registered with the API in the process (an SDK; OpenTelemetry asks apps to register before
   * anything else is built). Without either, every call would be a no-op and it never loads.
   */
  private api(): OtelApi | undefined {
    if (!this.enabled) return undefined;
    const { loaded } = loadOtelApi;
    if (loaded) return loaded;
    if (this.wanted()) void loadOtelApi();
    return undefined;
  }

  private wanted(): boolean {
    const { tracerProvider, meterProvider } = this.options;
    return tracerProvider !== undefined || meterProvider !== undefined || otelRegistered();
  }

  /**
   * The API's load while it is under way (started by api() once an SDK was registered after this
   * was built): a request then waits for it (once in the process) rather than going untraced.
   */
  private loading(): Promise<unknown> | undefined {
    return this.enabled ? otelApiLoading() : undefined;
  }

  /**
   * The tracer for this call. The global proxy is asked for its delegate each time (an SDK may
   * register later, or be disabled); the tracer is built again only when that delegate changes.
   */
  private tracer(api: OtelApi): Tracing {
    const given = this.options.tracerProvider;
    const provider = given ?? delegateOf(api.trace.getTracerProvider() as { getDelegate?: () => object });
    if (this.tracing?.provider !== provider) {
      noopTracerProvider ??= new api.ProxyTracerProvider().getDelegate();
      this.tracing = {
        provider,
        tracer: (provider as ReturnType<OtelApi['trace']['getTracerProvider']>).getTracer(INSTRUMENTATION),
        recording: given !== undefined || provider !== noopTracerProvider,
      };
    }
    return this.tracing;
  }

  /** The histograms, or undefined while the meter is the API's no-op one (no SDK registered). */
  private instruments(api: OtelApi): Instruments | undefined {
    const provider = this.options.meterProvider ?? api.metrics.getMeterProvider();
    if (this.metersFor?.provider !== provider) {
      const meter = (provider as ReturnType<OtelApi['metrics']['getMeterProvider']>).getMeter(
        INSTRUMENTATION,
      );
      const noop = meter.constructor === api.createNoopMeter().constructor;
      const histogram = (name: string, description: string) =>
        meter.createHistogram(name, {
          unit: 's',
          description,
          advice: { explicitBucketBoundaries: BUCKETS },
        });
      this.metersFor = {
        provider,
        instruments: noop
          ? undefined
          : {
              client: histogram(
                'mcp.client.operation.duration',
                'Duration of an MCP request as its sender saw it',
              ),
              server: histogram(
                'mcp.server.operation.duration',
                'Duration of an MCP request as its receiver handled it',
              ),
              session: histogram(
                `mcp.${this.side}.session.duration`,
                `Duration of an MCP session as the ${this.side} saw it`,
              ),
            },
      };
    }
    return this.metersFor.instruments;
  }

  /**
   * Sends `request` in a CLIENT span parented on the active context, with that span's context in
   * `params._meta`. `sentId` reads the JSON-RPC id once `send` has assigned it; a notification has none.
   */
  outbound<T>(
    request: MCPRequestShape,
    connection: () => MCPAttributes,
    send: (request: MCPRequestShape) => Promise<T>,
    sentId?: () => string | undefined,
  ): Promise<T> {
    const api = this.api();
    const loading = api ? undefined : this.loading();
    if (loading) return loading.then(() => this.outbound(request, connection, send, sentId));
    const run = api && this.begin(api, 'client', request, connection, undefined);
    if (!run) return send(request);
    // A list_changed notification without params stays bare: the SDK debounces only bare ones.
    const bare = request.params === undefined && request.method.endsWith('/list_changed');
    const sent = bare
      ? request
      : {
          ...request,
          params: {
            ...request.params,
            _meta: injectedMeta(api, run.context, run.span, request.params?._meta),
          },
        };
    const pending = api.context.with(run.context, () => send(sent));
    const id = sentId?.();
    if (id !== undefined) run.set('jsonrpc.request.id', id);
    return run.settle(pending, false);
  }

  /**
   * Handles `request` in a SERVER span whose parent is the context its `_meta` carries (linked to
   * the ambient one, such as an HTTP server span, when that differs), with the span active. For a
   * notification (no id) the span covers its dispatch; its handlers run under it.
   */
  inbound<T>(
    request: MCPRequestShape & { id?: string | number },
    connection: () => MCPAttributes,
    handle: () => Promise<T>,
  ): Promise<T> {
    const api = this.api();
    const loading = api ? undefined : this.loading();
    if (loading) return loading.then(() => this.inbound(request, connection, handle));
    const run = api && this.begin(api, 'server', request, connection, request.id);
    if (!run) return handle();
    return run.settle(
      api.context.with(run.context, () => handle()),
      true,
    );
  }

  /** Starts measuring a session; undefined when nothing measures. */
  session(connection: () => MCPAttributes): SessionEnd | undefined {
    const api = this.api();
    const histogram = api && this.instruments(api)?.session;
    if (!histogram) return undefined;
    const started = performance.now();
    return (error) => {
      const attributes = connection();
      if (error !== undefined)
        attributes['error.type'] = failureOf(error, { answeredAsInternal: false }).type;
      histogram.record((performance.now() - started) / 1000, pick(attributes, SESSION_METRIC_ATTRIBUTES));
    };
  }

  /**
   * The operation `request` starts, or undefined when nothing would record it: that is checked
   * first, so that without an SDK no context is read and nothing is built. A served request (`id`
   * given, or a notification) is parented on the context its `_meta` carries.
   */
  private begin(
    api: OtelApi,
    kind: TelemetrySide,
    request: MCPRequestShape,
    connection: () => MCPAttributes,
    id: string | number | undefined,
  ): Operation | undefined {
    const histogram = this.instruments(api)?.[kind];
    const { tracer, recording } = this.tracer(api);
    if (!histogram && !recording) return undefined;
    const ambient = api.context.active();
    const parent =
      kind === 'client'
        ? ambient
        : extractedContext(api, ambient, request.params?._meta as Record<string, unknown> | undefined);
    // connection() builds a fresh object per call: the request's attributes are added to it.
    const { name, attributes } = describeRequest(request.method, request.params, connection());
    if (id !== undefined) attributes['jsonrpc.request.id'] = String(id);
    if (this.capture && request.method === 'tools/call') {
      const captured = capturedJson(request.params?.arguments ?? {}, this.maxContentBytes);
      if (captured !== undefined) attributes['gen_ai.tool.call.arguments'] = captured;
    }
    const options: SpanOptions = {
      kind: kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.SERVER,
      attributes,
    };
    // A served request continuing a remote parent links the ambient span (an HTTP server's).
    const linked = parent !== ambient && api.trace.getSpanContext(ambient);
    if (linked && api.trace.isSpanContextValid(linked)) options.links = [{ context: linked }];
    const span = tracer.startSpan(name, options, parent);
    if (!span.isRecording() && !histogram) return undefined;
    return new Operation(
      api,
      span,
      api.trace.setSpan(parent, span),
      attributes,
      histogram,
      this.capture ? this.maxContentBytes : 0,
    );
  }
}

/** One request in flight: its span, the attributes measured with it, and how it ends. */
class Operation {
  private readonly started = performance.now();

  constructor(
    private readonly api: OtelApi,
    readonly span: Span,
    readonly context: Context,
    private readonly attributes: MCPAttributes,
    private readonly histogram: Histogram | undefined,
    /** 0: results are not captured. */
    private readonly captureBytes: number,
  ) {}

  set(name: AttributeName, value: string): void {
    this.span.setAttribute(name, value);
  }

  /** Ends with `pending`; `served`: a plain error thrown here is answered as -32603. */
  settle<T>(pending: Promise<T>, served: boolean): Promise<T> {
    return pending.then(
      (result) => {
        const failure = failureInResult(result);
        if (!failure && this.captureBytes > 0 && this.attributes['mcp.method.name'] === 'tools/call') {
          const captured = capturedJson(result, this.captureBytes);
          if (captured !== undefined) this.span.setAttribute('gen_ai.tool.call.result', captured);
        }
        this.end(failure);
        return result;
      },
      (error: unknown) => {
        this.end(requestFailure(this.attributes['mcp.method.name'], error, { answeredAsInternal: served }));
        throw error;
      },
    );
  }

  private end(failure: Failure | undefined): void {
    const { attributes, span } = this;
    if (failure) {
      attributes['error.type'] = failure.type;
      if (failure.code !== undefined) attributes['rpc.response.status_code'] = failure.code;
      span.setAttributes(attributes);
      span.setStatus({
        code: this.api.SpanStatusCode.ERROR,
        ...(failure.message !== undefined ? { message: failure.message } : {}),
      });
    }
    span.end();
    this.histogram?.record(
      (performance.now() - this.started) / 1000,
      pick(attributes, OPERATION_METRIC_ATTRIBUTES),
    );
  }
}
