/**
 * Mastra's observability (mastra-observability.ts), loaded when a request is first traced:
 * `@mastra/core/observability` builds schemas for 20-30 ms at import, which a server not
 * registered on a Mastra instance (a stdio server's first answer) should not wait for.
 */
import type { TracingContext } from '@mastra/core/observability';
import { lazyModule } from '../shared/lazy-module.js';

export const observability = lazyModule(() => import('./mastra-observability.js'));

/** The observability fields Mastra's tool `execute` context takes for `tracingContext`. */
export async function observabilityContext(tracingContext: TracingContext) {
  return (await observability()).createObservabilityContext(tracingContext);
}
