/**
 * Compiled input schemas, shared by every tool that advertises the same schema text through the
 * same validator: reconnecting, or twenty servers offering the same tools, compiles once. The
 * cache is bounded; the oldest entries go first.
 */
import { fromJsonSchema, type JsonSchemaType, type jsonSchemaValidator } from '@modelcontextprotocol/client';

const MAX_ENTRIES = 500;
const DEFAULT_VALIDATOR = {};
const caches = new WeakMap<object, Map<string, ReturnType<typeof fromJsonSchema>>>();

export function compiledSchema(
  schema: JsonSchemaType,
  validator?: jsonSchemaValidator,
): ReturnType<typeof fromJsonSchema> {
  const owner = validator ?? DEFAULT_VALIDATOR;
  let cache = caches.get(owner);
  if (!cache) {
    cache = new Map();
    caches.set(owner, cache);
  }
  const key = JSON.stringify(schema);
  const cached = cache.get(key);
  if (cached) return cached;
  const compiled = fromJsonSchema(schema, validator);
  cache.set(key, compiled);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return compiled;
}
