/**
 * `@opentelemetry/api`, an optional peer: import()ed once something was registered with it (an
 * SDK, a provider given in the options), and undefined where it is not installed. One copy in the
 * app: an API copy does not see an SDK registered through another, older minor version.
 */
import { lazyModule } from '../lazy-module.js';

export type OtelApi = typeof import('./otel-api.js');

let settled = false;

export const loadOtelApi = lazyModule<OtelApi | undefined>(() =>
  import('./otel-api.js')
    .catch(() => undefined)
    .finally(() => {
      settled = true;
    }),
);

/** Whether the API's load ended (with the module, or without it where it is not installed). */
export function otelApiSettled(): boolean {
  return settled;
}

/** Where @opentelemetry/api 1.x keeps what an app registers (tracer, meter, propagator, context). */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

/**
 * Whether anything was ever registered with @opentelemetry/api 1.x in this process. Until then
 * every span and measurement would be a no-op, so the API is not loaded: 10-15 ms of a stdio
 * server's start that no request needs.
 */
export function otelRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[REGISTRY] !== undefined;
}
