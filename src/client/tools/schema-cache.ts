/**
 * Input schemas of MCP tools as Standard Schemas that carry the server's JSON Schema as written.
 * Compilation is shared by every tool that advertises the same schema text through the same
 * validator (reconnecting, or twenty servers offering the same tools, compiles once) and can wait
 * for the first validation: a cached catalog of a thousand tools is rebuilt without compiling any.
 *
 * Without a server's own validator, the default is the client's (safe-validator.ts: Ajv with RE2
 * patterns, its own engines bounded), compiling within the server's pattern budget; a schema that
 * compiled with patterns its server's budget refused is not shared (another server's budget may
 * admit them).
 */
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { ArgumentIssue } from './argument-issues.js';
import type { PatternBudget } from './pattern-budget.js';
import { defaultJsonSchemaValidator, withPatternBudget } from './validation.js';

const MAX_ENTRIES = 500;

type Check = ReturnType<jsonSchemaValidator['getValidator']>;

const caches = new WeakMap<jsonSchemaValidator, Map<string, Check>>();

function compiled(
  schema: JsonSchemaType,
  custom: jsonSchemaValidator | undefined,
  budget: PatternBudget | undefined,
): Check {
  const validator = custom ?? defaultJsonSchemaValidator;
  let cache = caches.get(validator);
  if (!cache) {
    cache = new Map();
    caches.set(validator, cache);
  }
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  const refused = budget?.refused;
  const check = withPatternBudget(budget, () => validator.getValidator(schema));
  if (budget?.refused !== refused) return check;
  cache.set(key, check);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return check;
}

/**
 * The Standard Schema a tool validates its arguments with. `eager` compiles now, so a schema the
 * validator rejects fails here rather than on the first call. `budget`: its server's patterns'.
 */
export function inputSchemaFor(
  schema: JsonSchemaType,
  validator: jsonSchemaValidator | undefined,
  { eager, budget }: { eager: boolean; budget?: PatternBudget },
) {
  let check: Check | undefined = eager ? compiled(schema, validator, budget) : undefined;
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'mcp',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (data: unknown) => {
        try {
          check ??= compiled(schema, validator, budget);
        } catch (error) {
          // A cached catalog's schema the validator rejects: every call fails validation, visibly.
          const reason = error instanceof Error ? error.message : String(error);
          return { issues: [{ message: `the tool's input schema cannot be used: ${reason}` }] };
        }
        const result: { valid: boolean; data?: unknown; errorMessage?: string; issues?: ArgumentIssue[] } =
          check(data);
        if (result.valid) return { value: result.data };
        // The default validator names each field (argument-issues.ts); another gives one message.
        return { issues: result.issues ?? [{ message: result.errorMessage ?? 'invalid', path: [] }] };
      },
    },
  };
}
