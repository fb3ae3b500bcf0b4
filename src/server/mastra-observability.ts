/** Mastra's observability, loaded on first use through observability.ts (lazy-module.ts). */
export {
  createObservabilityContext,
  EntityType,
  executeWithContext,
  getOrCreateSpan,
  SpanType,
} from '@mastra/core/observability';
