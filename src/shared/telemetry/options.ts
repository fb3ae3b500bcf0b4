/**
 * The `telemetry` option MCPClient and MCPServer share. Providers are typed structurally so that the
 * public types need no `@opentelemetry/api` (an optional peer): any TracerProvider or MeterProvider
 * of that API fits.
 */
import { boolean, type Check, check, type OptionsOf, object } from '../options.js';

/** What OpenTelemetry spans and metrics this side emits (docs/telemetry.md). */
export interface MCPTelemetryOptions {
  /** `false` turns spans, metrics and `_meta` propagation off. Default: on, a no-op until an SDK is registered. */
  enabled?: boolean;
  /** Where spans go instead of the globally registered provider. */
  tracerProvider?: MCPTracerProvider;
  /** Where the four histograms go instead of the globally registered provider. */
  meterProvider?: MCPMeterProvider;
  /**
   * Record tool arguments and results (`gen_ai.tool.call.arguments` / `.result`, as JSON) on
   * `tools/call` spans. Off by default: they may hold personal data. Headers are never recorded.
   */
  captureContent?: boolean;
  /** The most bytes of JSON one captured value keeps; longer ones are cut and end with `…`. Default 4096. */
  maxContentBytes?: number;
}

/** An OpenTelemetry `TracerProvider`. */
export interface MCPTracerProvider {
  getTracer(name: string, version?: string): object;
}

/** An OpenTelemetry `MeterProvider`. */
export interface MCPMeterProvider {
  getMeter(name: string, version?: string): object;
}

export const DEFAULT_MAX_CONTENT_BYTES = 4096;

const provider = (method: string) =>
  check(`an OpenTelemetry provider (an object with ${method}())`, (value) => {
    const candidate = value as Record<string, unknown> | null;
    return typeof candidate === 'object' && candidate !== null && typeof candidate[method] === 'function';
  });

const positiveInteger = check(
  'a positive integer',
  (value) => Number.isInteger(value) && (value as number) > 0,
);

export const TELEMETRY: Check = object({
  enabled: boolean,
  tracerProvider: provider('getTracer'),
  meterProvider: provider('getMeter'),
  captureContent: boolean,
  maxContentBytes: positiveInteger,
} satisfies OptionsOf<MCPTelemetryOptions>);
