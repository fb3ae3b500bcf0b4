/**
 * OpenTelemetry context in `params._meta` (`traceparent`, `tracestate`, `baggage`, unprefixed as
 * the conventions and SEP-414 say). The app's configured propagator injects and extracts; when it
 * writes or finds no `traceparent` (one for another format) or none is registered, the W3C value
 * is written or read directly, so the trace still crosses the wire.
 */
import type { Context, Span } from '@opentelemetry/api';
import { receivedTraceContext } from '../trace-context.js';
import type { OtelApi } from './telemetry-api.js';

const CARRIER_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/** Whether the app registered a propagator: the API's no-op one names no fields. */
const propagating = (api: OtelApi): boolean => api.propagation.fields().length > 0;

/** `meta` (copied) with the keys naming `span` in `context` (the span set in it) added. */
export function injectedMeta(
  api: OtelApi,
  context: Context,
  span: Span,
  meta: unknown,
): Record<string, unknown> {
  const carrier: Record<string, string> = {};
  if (propagating(api)) api.propagation.inject(context, carrier);
  const spanContext = span.spanContext();
  if (carrier.traceparent === undefined && api.trace.isSpanContextValid(spanContext)) {
    const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
    carrier.traceparent = `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
  }
  const injected: Record<string, unknown> = { ...(meta as object | undefined) };
  for (const key of CARRIER_KEYS) if (carrier[key] !== undefined) injected[key] = carrier[key];
  return injected;
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
  if (propagating(api)) {
    const extracted = api.propagation.extract(base, received);
    if (api.trace.getSpanContext(extracted) !== api.trace.getSpanContext(base)) return extracted;
  }
  // No propagator read it: the parser accepted it, so it is `{version}-{traceId}-{spanId}-{flags}`.
  const { traceparent } = received;
  return api.trace.setSpanContext(base, {
    traceId: traceparent.slice(3, 35),
    spanId: traceparent.slice(36, 52),
    traceFlags: Number.parseInt(traceparent.slice(53, 55), 16) & 1,
    isRemote: true,
  });
}
