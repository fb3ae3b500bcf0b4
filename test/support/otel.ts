/**
 * A real OpenTelemetry SDK for the telemetry tests, registered globally as an app would: spans to
 * an in-memory exporter, metrics to a reader collected on demand, AsyncLocalStorage as the context
 * manager. `unregister()` puts the API back to its no-op state.
 */
import { context, metrics, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, expect } from 'vitest';
import { type MastraMCPServerDefinition, MCPClient, type MCPClientOptions } from '../../src/index.js';

/** A reader whose only export is an explicit `collect()`. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface HistogramPoint {
  attributes: Record<string, unknown>;
  count: number;
  sum: number;
}

export interface RegisteredOtel {
  exporter: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  /** Every data point of the histogram `name` collected so far. */
  histogram(name: string): Promise<HistogramPoint[]>;
  unregister(): Promise<void>;
}

/** A tracer and meter provider (not registered globally). */
export function otelProviders() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const histogram = async (name: string): Promise<HistogramPoint[]> => {
    const { resourceMetrics } = await reader.collect();
    const points: HistogramPoint[] = [];
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        if (metric.descriptor.name !== name) continue;
        for (const point of metric.dataPoints as DataPoint<Histogram>[]) {
          points.push({ attributes: point.attributes, count: point.value.count, sum: point.value.sum ?? 0 });
        }
      }
    }
    return points;
  };
  return { exporter, tracerProvider, meterProvider, histogram };
}

export function registerOtel(): RegisteredOtel {
  const providers = otelProviders();
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(providers.tracerProvider);
  metrics.setGlobalMeterProvider(providers.meterProvider);
  return {
    ...providers,
    spans: () => providers.exporter.getFinishedSpans(),
    unregister: async () => {
      await providers.tracerProvider.shutdown();
      await providers.meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}

/** The one finished span named `name` (fails naming the spans there are otherwise). */
export function spanNamed(spans: ReadableSpan[], name: string, kind?: number): ReadableSpan {
  const found = spans.filter((span) => span.name === name && (kind === undefined || span.kind === kind));
  if (found.length !== 1) {
    throw new Error(
      `expected one span '${name}', found ${found.length} among: ${spans.map((s) => s.name).join(', ')}`,
    );
  }
  return found[0] as ReadableSpan;
}

/** Registers the SDK before each test of the calling file and unregisters it after; returns this test's. */
export function registeredEachTest(): () => RegisteredOtel {
  let otel: RegisteredOtel | undefined;
  beforeEach(() => {
    otel = registerOtel();
  });
  afterEach(async () => {
    await otel?.unregister();
  });
  return () => otel as RegisteredOtel;
}

/**
 * The CLIENT span and the SERVER span of the one request named `name` (a request either side
 * sent), asserting the SERVER span is parented on the CLIENT span across the wire, in its trace.
 */
export function sentAndServed(
  spans: ReadableSpan[],
  name: string,
): { sent: ReadableSpan; served: ReadableSpan } {
  const sent = spanNamed(spans, name, SpanKind.CLIENT);
  const served = spanNamed(spans, name, SpanKind.SERVER);
  expect(served.parentSpanContext?.spanId, `${name}: the SERVER span's parent`).toBe(
    sent.spanContext().spanId,
  );
  expect(served.parentSpanContext?.isRemote, `${name}: a remote parent`).toBe(true);
  expect(served.spanContext().traceId).toBe(sent.spanContext().traceId);
  for (const span of [sent, served]) expect(span.attributes['mcp.method.name']).toBe(name.split(' ')[0]);
  return { sent, served };
}

/** An MCPClient of one server named `remote` (telemetry tests' client), disconnected by `cleanups`. */
export function remoteClient(
  cleanups: Array<() => Promise<unknown>>,
  definition: MastraMCPServerDefinition,
  options: Partial<MCPClientOptions> = {},
): MCPClient {
  const client = new MCPClient({
    id: `otel-${Math.random()}`,
    registerProcessHooks: false,
    servers: { remote: definition },
    ...options,
  });
  cleanups.push(() => client.disconnect());
  return client;
}
