// The optional `@opentelemetry/api` peer, import()ed on first use (telemetry-api.ts): absent, telemetry is off.
export {
  context,
  createNoopMeter,
  metrics,
  ProxyTracerProvider,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
