/**
 * `@opentelemetry/api`, an optional peer: import()ed when the first MCPClient or MCPServer with
 * telemetry on is built (requests come later), and undefined where it is not installed. One copy in
 * the app: an API copy does not see an SDK registered through another, older minor version.
 */
import { lazyModule } from '../lazy-module.js';

export type OtelApi = typeof import('./otel-api.js');

export const loadOtelApi = lazyModule<OtelApi | undefined>(() =>
  import('./otel-api.js').catch(() => undefined),
);
