/**
 * Input schemas of MCP tools as Standard Schemas that carry the server's JSON Schema as written.
 * Compilation is shared by every tool that advertises the same schema text through the same
 * validator (reconnecting, or twenty servers offering the same tools, compiles once) and can wait
 * for the first validation: a cached catalog of a thousand tools is rebuilt without compiling any.
 *
 * The default validator (Ajv on Node) keeps every schema it ever compiled, so it is replaced after
 * MAX_ENTRIES compilations: what it retains is then bounded by the tools still alive.
 */
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/_shims';

const MAX_ENTRIES = 500;

type Check = ReturnType<jsonSchemaValidator['getValidator']>;

let defaultValidator: jsonSchemaValidator = new DefaultJsonSchemaValidator();
let defaultCompilations = 0;
const caches = new WeakMap<jsonSchemaValidator, Map<string, Check>>();

function compiled(schema: JsonSchemaType, custom: jsonSchemaValidator | undefined): Check {
  if (!custom && defaultCompilations >= MAX_ENTRIES) {
    defaultValidator = new DefaultJsonSchemaValidator();
    defaultCompilations = 0;
  }
  const validator = custom ?? defaultValidator;
  let cache = caches.get(validator);
  if (!cache) {
    cache = new Map();
    caches.set(validator, cache);
  }
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  const check = validator.getValidator(schema);
  if (!custom) defaultCompilations++;
  cache.set(key, check);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return check;
}

/**
 * The Standard Schema a tool validates its arguments with. `eager` compiles now, so a schema the
 * validator rejects fails here rather than on the first call.
 */
export function inputSchemaFor(
  schema: JsonSchemaType,
  validator: jsonSchemaValidator | undefined,
  { eager }: { eager: boolean },
) {
  let check: Check | undefined = eager ? compiled(schema, validator) : undefined;
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'mcp',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (data: unknown) => {
        try {
          check ??= compiled(schema, validator);
        } catch (error) {
          // A cached catalog's schema the validator rejects: every call fails validation, visibly.
          const reason = error instanceof Error ? error.message : String(error);
          return { issues: [{ message: `the tool's input schema cannot be used: ${reason}` }] };
        }
        const result = check(data);
        return result.valid
          ? { value: result.data }
          : { issues: [{ message: result.errorMessage ?? 'invalid' }] };
      },
    },
  };
}
