/**
 * Turns whatever schema a tool was declared with (zod 3, zod 4, Standard Schema, plain JSON Schema,
 * an AI SDK `jsonSchema()` wrapper) into the JSON Schema advertised on the wire plus a validator.
 * Plain JSON Schema is validated as written (the SDK's Ajv-backed validator), never rewritten.
 */
import { standardSchemaToJSONSchema, toStandardSchema } from '@mastra/core/schema';
import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/server';
import { nearest } from '../shared/options.js';
import { formatIssues } from '../shared/schema-issues.js';

export type JsonSchema = Record<string, unknown>;
export type ValidationOutcome = { value: unknown } | { issues: string[] };

export interface NormalizedSchema {
  json: JsonSchema;
  validate(value: unknown): Promise<ValidationOutcome>;
}

interface StandardLike {
  '~standard': {
    validate(value: unknown): unknown;
    jsonSchema?: Partial<Record<'input' | 'output', (options: { target: string }) => JsonSchema>>;
  };
}

interface AiSdkSchemaLike {
  jsonSchema: JsonSchema;
  validate?: (value: unknown) => { success: true; value: unknown } | { success: false; error: Error };
}

const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

const isObject = (value: unknown): value is Record<string | symbol, unknown> =>
  typeof value === 'object' && value !== null;

const isStandard = (value: unknown): value is StandardLike => isObject(value) && '~standard' in value;

const isAiSdkSchema = (value: unknown): value is AiSdkSchemaLike =>
  isObject(value) && (AI_SDK_SCHEMA in value || ('jsonSchema' in value && !('~standard' in value)));

const isZod3 = (value: unknown): boolean =>
  isObject(value) && '_def' in value && typeof value.parse === 'function';

async function runStandard(schema: StandardLike, value: unknown): Promise<ValidationOutcome> {
  const result = (await schema['~standard'].validate(value)) as
    | { value: unknown; issues?: undefined }
    | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<unknown> }> };
  if (result.issues) return { issues: formatIssues(result.issues) };
  return { value: (result as { value: unknown }).value };
}

const JSON_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];

/**
 * Why `schema` is no schema: an object of zod (or other Standard) schemas, the raw shape the SDK's
 * `registerTool` takes, which read as JSON Schema would be a schema of nothing. It is refused, not
 * wrapped: a Mastra tool's own validation ignores a raw shape, so a wrapped one would advertise
 * checks the server never makes.
 */
function rawShapeProblem(schema: Record<string | symbol, unknown>): string | undefined {
  const keys = Object.keys(schema);
  if (!keys.some((key) => isStandard(schema[key]) || isZod3(schema[key]))) return undefined;
  const fields = keys.map((key) => `${key}: …`).join(', ');
  return `it is a raw zod shape (an object of schemas), not a schema; wrap it: z.object({ ${fields} })`;
}

/** Why a JSON Schema's root `type` names no JSON type (`'objekt'`), with the type likely meant. */
function rootTypeProblem(json: JsonSchema): string | undefined {
  const types = Array.isArray(json.type) ? json.type : json.type === undefined ? [] : [json.type];
  const wrong = types.find((type) => !JSON_TYPES.includes(type as string));
  if (wrong === undefined) return undefined;
  const close = typeof wrong === 'string' ? nearest(wrong, JSON_TYPES) : undefined;
  return `its type ${JSON.stringify(wrong)} is not a JSON Schema type (${JSON_TYPES.join(', ')})${close ? `; did you mean '${close}'?` : ''}`;
}

/** A plain object given as a schema, checked before it is read as JSON Schema. */
function checkedJsonSchema(json: JsonSchema): JsonSchema {
  const problem = rawShapeProblem(json) ?? rootTypeProblem(json);
  if (problem) throw new TypeError(problem);
  return json;
}

/** A JSON Schema Mastra wrapped (`createTool` wraps a plain object given as a schema), checked as one. */
function checkWrappedJson(schema: unknown): void {
  const getSchema = isObject(schema) ? schema.getSchema : undefined;
  if (typeof getSchema === 'function') checkedJsonSchema(getSchema.call(schema) as JsonSchema);
}

function fromPlainJsonSchema(json: JsonSchema): NormalizedSchema {
  checkedJsonSchema(json);
  const standard = fromJsonSchema(json as JsonSchemaType);
  return { json, validate: (value) => runStandard(standard as unknown as StandardLike, value) };
}

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Keeps a `$schema` marker only when it says 2020-12: that is the wire default, and the other
 * markers converters stamp (draft-07, 2019-09) describe output that reads the same under 2020-12.
 */
function keepOnly2020Marker(json: JsonSchema): JsonSchema {
  if (json.$schema === undefined || String(json.$schema).replace(/#$/, '') === DRAFT_2020_12) return json;
  const { $schema: _drop, ...rest } = json;
  return rest;
}

type Io = 'input' | 'output';

/**
 * The schema's own JSON Schema at draft 2020-12 when it can produce one (zod 4, Standard JSON
 * Schema, JSON Schema wrapped by Mastra: returned as declared); Mastra's converter otherwise,
 * which also copes with types JSON Schema cannot express (dates).
 */
function standardJson(standard: StandardLike, io: Io): JsonSchema {
  const convert = standard['~standard'].jsonSchema?.[io];
  if (convert) {
    try {
      return keepOnly2020Marker(convert({ target: 'draft-2020-12' }));
    } catch {
      // Fall through to the converter that handles unrepresentable types.
    }
  }
  return keepOnly2020Marker(standardSchemaToJSONSchema(standard as never, { io }) as JsonSchema);
}

export function normalizeSchema(schema: unknown): NormalizedSchema {
  if (isAiSdkSchema(schema)) {
    const json = schema.jsonSchema;
    const check = schema.validate;
    if (!check) return fromPlainJsonSchema(json);
    return {
      json,
      validate: async (value) => {
        const outcome = check(value);
        return outcome.success ? { value: outcome.value } : { issues: [outcome.error.message] };
      },
    };
  }
  if (isStandard(schema) || isZod3(schema)) {
    checkWrappedJson(schema);
    const standard = toStandardSchema(schema as Parameters<typeof toStandardSchema>[0]) as StandardLike;
    return { json: standardJson(standard, 'input'), validate: (value) => runStandard(standard, value) };
  }
  if (isObject(schema)) return fromPlainJsonSchema(schema as JsonSchema);
  throw new TypeError('expected a zod, Standard Schema, JSON Schema or AI SDK schema');
}

/**
 * `build()`'s schema, normalised on the first call: a fixed schema of a kind of tool a server may
 * never publish (an agent's, a workflow's resume) is not built and converted at import.
 */
export function normalizedOnFirstUse(build: () => unknown): () => NormalizedSchema {
  let normalized: NormalizedSchema | undefined;
  return () => (normalized ??= normalizeSchema(build()));
}

/** Output schemas are advertised for `io: 'output'` (what the tool returns, after transforms). */
export function outputJsonSchema(schema: unknown): JsonSchema {
  if (isAiSdkSchema(schema)) return schema.jsonSchema as JsonSchema;
  if (isStandard(schema) || isZod3(schema)) {
    checkWrappedJson(schema);
    return standardJson(
      toStandardSchema(schema as Parameters<typeof toStandardSchema>[0]) as StandardLike,
      'output',
    );
  }
  return isObject(schema) ? checkedJsonSchema(schema as JsonSchema) : (schema as JsonSchema);
}

/** Any object: what a workflow, a suspended step or an event type takes when it declares no schema. */
export const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {} };

/**
 * The input of a tool declared without an input schema: it takes no arguments, and says so.
 * Strict-mode clients (OpenAI's strict function calling) read an empty object without
 * `additionalProperties: false` as "any object", which strict mode cannot express, and refuse it.
 * A declared schema is advertised as its converter writes it (see docs/tools.md).
 */
export const NO_INPUT_SCHEMA: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };
