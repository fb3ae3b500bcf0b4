/**
 * OpenTelemetry context in `params._meta` (`traceparent`, `tracestate`, `baggage`, unprefixed as
 * the conventions and SEP-414 say). The app's configured propagator injects and extracts; when it
 * writes or finds no `traceparent` (no propagator registered, or one for another format) the W3C
 * value is written or read directly, so the trace still crosses the wire.
 */
import type { Context, Span } from '@opentelemetry/api';
import { parseTraceparent, receivedTraceContext } from '../trace-context.js';
import type { OtelApi } from './telemetry-api.js';

const CARRIER_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/** The `_meta` keys naming `span` in `context` (the span set in it). */
export function injectedMeta(api: OtelApi, context: Context, span: Span): Record<string, string> {
  const carrier: Record<string, string> = {};
  api.propagation.inject(context, carrier);
  const spanContext = span.spanContext();
  if (carrier.traceparent === undefined && api.trace.isSpanContextValid(spanContext)) {
    const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
    carrier.traceparent = `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
  }
  const meta: Record<string, string> = {};
  for (const key of CARRIER_KEYS) if (carrier[key] !== undefined) meta[key] = carrier[key];
  return meta;
}

/** The context a request's `_meta` names as its remote parent, over `base`; `base` when it names none. */
export function extractedContext(
  api: OtelApi,
  base: Context,
  meta: Record<string, unknown> | undefined,
): Context {
  // Only values the shared parser accepts reach the propagator: they are untrusted input.
  const received = receivedTraceContext(meta);
  if (!received) return base;
  const carrier: Record<string, string> = { ...received };
  const extracted = api.propagation.extract(base, carrier);
  if (api.trace.getSpanContext(extracted) !== api.trace.getSpanContext(base)) return extracted;
  const parent = parseTraceparent(received.traceparent);
  if (!parent) return base;
  const flags = Number.parseInt(received.traceparent.slice(53, 55), 16);
  return api.trace.setSpanContext(base, { ...parent, traceFlags: flags & 1, isRemote: true });
}
