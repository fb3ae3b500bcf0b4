/**
 * `@opentelemetry/api`, an optional peer: import()ed once something was registered with it (an
 * SDK, a provider given in the options), and undefined where it is not installed. One copy in the
 * app: an API copy does not see an SDK registered through another, older minor version.
 */
import { lazyModule } from '../lazy-module.js';

export type OtelApi = typeof import('./otel-api.js');

/** The API's load while it is under way (undefined before it starts and once it ended). */
let inFlight: Promise<unknown> | undefined;

export const loadOtelApi = lazyModule<OtelApi | undefined>(() => {
  const load = import('./otel-api.js').catch(() => undefined);
  // Registered before lazyModule's own handler, yet a waiter resumes after both: `loaded` is set.
  inFlight = load.finally(() => {
    inFlight = undefined;
  });
  return load;
});

/** The API's load while it is under way, for a request that waits for it rather than going untraced. */
export function otelApiLoading(): Promise<unknown> | undefined {
  return inFlight;
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
