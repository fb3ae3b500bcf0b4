/**
 * The budgets that keep a hostile tool catalog from stalling or crashing the client: at most 128
 * nested subschema levels and 10,000 subschema nodes per schema, plus a bound on the raw JSON
 * inside it (`default`, `enum`, `examples`, unknown keywords). Measured with an explicit stack,
 * before anything copies, stringifies or compiles the schema, so a deep schema cannot overflow
 * the call stack here either.
 */

export const SCHEMA_MAX_DEPTH = 128;
export const SCHEMA_MAX_NODES = 10_000;
/** Raw JSON values are data, not schemas: looser bounds, still finite. */
export const RAW_MAX_DEPTH = 1_000;
export const RAW_MAX_VALUES = 200_000;

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is one subschema (or, for `items` in older drafts, an array of them). */
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
]);
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

export type SchemaBudgetExceeded =
  | { kind: 'depth'; limit: number; message: string }
  | { kind: 'nodes'; limit: number; message: string }
  | { kind: 'raw'; limit: number; message: string };

interface Pending {
  value: unknown;
  /** Subschema level (root = 1); 0 marks raw JSON. */
  level: number;
  rawDepth: number;
}

/** Undefined when the schema is within every budget, else the first budget it exceeds. */
export function measureSchema(schema: unknown): SchemaBudgetExceeded | undefined {
  const stack: Pending[] = [{ value: schema, level: 1, rawDepth: 0 }];
  let nodes = 0;
  let rawValues = 0;
  while (stack.length > 0) {
    const { value, level, rawDepth } = stack.pop() as Pending;
    if (level === 0) {
      if (++rawValues > RAW_MAX_VALUES)
        return {
          kind: 'raw',
          limit: RAW_MAX_VALUES,
          message: `holds more than ${RAW_MAX_VALUES} JSON values`,
        };
      if (rawDepth > RAW_MAX_DEPTH)
        return {
          kind: 'raw',
          limit: RAW_MAX_DEPTH,
          message: `nests JSON more than ${RAW_MAX_DEPTH} levels deep`,
        };
      if (typeof value === 'object' && value !== null) {
        for (const child of Object.values(value))
          stack.push({ value: child, level: 0, rawDepth: rawDepth + 1 });
      }
      continue;
    }
    if (level > SCHEMA_MAX_DEPTH)
      return {
        kind: 'depth',
        limit: SCHEMA_MAX_DEPTH,
        message: `nests subschemas more than ${SCHEMA_MAX_DEPTH} levels deep`,
      };
    if (++nodes > SCHEMA_MAX_NODES)
      return {
        kind: 'nodes',
        limit: SCHEMA_MAX_NODES,
        message: `has more than ${SCHEMA_MAX_NODES} subschemas`,
      };
    // Booleans are whole subschemas; anything else that is not an object is malformed, which the
    // validator reports, and costs nothing more to measure.
    if (!isRecord(value)) continue;
    for (const [keyword, child] of Object.entries(value)) {
      const subschemas = subschemasUnder(keyword, child);
      if (subschemas) {
        for (const [, sub] of subschemas) stack.push({ value: sub, level: level + 1, rawDepth: 0 });
      } else {
        stack.push({ value: child, level: 0, rawDepth: 1 });
      }
    }
  }
  return undefined;
}

/**
 * The subschemas a keyword's value holds, each with the JSON Pointer token under the keyword
 * that leads to it (none for a single subschema), or undefined when the value is raw JSON.
 */
export function subschemasUnder(
  keyword: string,
  value: unknown,
): Array<[string | undefined, unknown]> | undefined {
  if (SCHEMA_MAPS.has(keyword) && isRecord(value)) return Object.entries(value);
  if ((SCHEMA_LISTS.has(keyword) || SCHEMA_VALUES.has(keyword)) && Array.isArray(value))
    return value.map((sub, index) => [String(index), sub]);
  if (SCHEMA_VALUES.has(keyword)) return [[undefined, value]];
  return undefined;
}

/** A tool schema over budget, and which of the tool's schemas it is. */
export type ToolSchemaOverBudget = SchemaBudgetExceeded & { field: 'inputSchema' | 'outputSchema' };

/** The first of a tool's schemas (input, then output) that exceeds a budget, if any. */
export function toolSchemaOverBudget(tool: {
  inputSchema?: unknown;
  outputSchema?: unknown;
}): ToolSchemaOverBudget | undefined {
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const exceeded = tool[field] === undefined ? undefined : measureSchema(tool[field]);
    if (exceeded) return { field, ...exceeded };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
