/**
 * The client's validation engines (Ajv with RE2 patterns: safe-validator.ts, safe-pattern.ts) load
 * with the first connect or cached tool build, not with the package. Every path that builds a tool
 * or an SDK Client awaits `loadValidation()` first, so the synchronous uses below (Standard Schema
 * validation, the SDK's output checks) always find the engines loaded.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import { lazyModule } from '../../shared/lazy-module.js';
import type { PatternBudget } from './pattern-budget.js';

const load = lazyModule(async () => {
  const [{ defaultJsonSchemaValidator }, { uncheckedPatterns, withPatternBudget }] = await Promise.all([
    import('./safe-validator.js'),
    import('./safe-pattern.js'),
  ]);
  return { defaultJsonSchemaValidator, uncheckedPatterns, withPatternBudget };
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

/**
 * The default validator for one server: its schemas' patterns compile within `budget`. Ajv keeps
 * what it compiled per schema object, so a schema compiles (and is charged) once.
 */
export function budgetedValidator(budget: PatternBudget): jsonSchemaValidator {
  return {
    getValidator: (schema) =>
      withPatternBudget(budget, () => loaded().defaultJsonSchemaValidator.getValidator(schema)),
  };
}

/** See safe-pattern.ts; without a budget, `compile` just runs (a custom validator needs no engine). */
export const withPatternBudget = <T>(budget: PatternBudget | undefined, compile: () => T): T =>
  budget ? loaded().withPatternBudget(budget, compile) : compile();

/** See safe-pattern.ts. */
export const uncheckedPatterns = (schema: unknown, budget: PatternBudget) =>
  loaded().uncheckedPatterns(schema, budget);
