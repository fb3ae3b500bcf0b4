/**
 * The client's validation engines (Ajv with RE2 patterns: safe-validator.ts, safe-pattern.ts) load
 * with the first connect or cached tool build, not with the package. Every path that builds a tool
 * or an SDK Client awaits `loadValidation()` first, so the synchronous uses below (Standard Schema
 * validation, the SDK's output checks) always find the engines loaded.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import { lazyModule } from '../../shared/lazy-module.js';

const load = lazyModule(async () => {
  const [{ defaultJsonSchemaValidator }, { uncheckedPatterns }] = await Promise.all([
    import('./safe-validator.js'),
    import('./safe-pattern.js'),
  ]);
  return { defaultJsonSchemaValidator, uncheckedPatterns };
});

export async function loadValidation(): Promise<void> {
  await load();
}

function loaded(): NonNullable<typeof load.loaded> {
  if (!load.loaded) throw new Error('mastra-mcp validated a schema before loading its validation engines');
  return load.loaded;
}

/** The default validator: one object for every server (schema-cache.ts keys compilations by it). */
export const defaultJsonSchemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => loaded().defaultJsonSchemaValidator.getValidator(schema),
};

/** See safe-pattern.ts. */
export const uncheckedPatterns = (schema: unknown) => loaded().uncheckedPatterns(schema);
