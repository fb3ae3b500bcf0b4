/**
 * Which keywords of one schema object the generator can read. A keyword whose value is outside
 * its allowed shape (`properties: 5`, `type: 'nonsense'`) makes the schema unreadable, and a
 * keyword whose meaning has no TypeScript counterpart here (conditionals, tuples, negation,
 * pattern-keyed members) makes it unrepresentable: either way that schema widens to `unknown`.
 * Ignoring such a keyword instead could produce a type narrower than what the schema accepts.
 */

export type SchemaObject = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

const isSchema = (value: unknown) => typeof value === 'boolean' || isSchemaObject(value);
const isString = (value: unknown) => typeof value === 'string';
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isNumber = (value: unknown) => typeof value === 'number';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isStrings = (value: unknown) => Array.isArray(value) && value.every(isString);
const isSchemaList = (value: unknown) => Array.isArray(value) && value.length > 0;

function isTypeKeyword(value: unknown): boolean {
  if (typeof value === 'string') return JSON_TYPES.has(value);
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((entry) => typeof entry === 'string' && JSON_TYPES.has(entry)) &&
    new Set(value).size === value.length
  );
}

/** Allowed shapes of the keywords the generator reads or that constrain a base type. */
const SHAPES: Record<string, [check: (value: unknown) => boolean, expected: string]> = {
  type: [isTypeKeyword, 'a JSON type name or a list of distinct ones'],
  enum: [Array.isArray, 'an array'],
  required: [isStrings, 'an array of strings'],
  properties: [isSchemaObject, 'an object of schemas'],
  $defs: [isSchemaObject, 'an object of schemas'],
  definitions: [isSchemaObject, 'an object of schemas'],
  additionalProperties: [isSchema, 'a schema'],
  items: [(value) => isSchema(value) || Array.isArray(value), 'a schema or an array of schemas'],
  contains: [isSchema, 'a schema'],
  propertyNames: [isSchema, 'a schema'],
  allOf: [isSchemaList, 'a non-empty array of schemas'],
  anyOf: [isSchemaList, 'a non-empty array of schemas'],
  oneOf: [isSchemaList, 'a non-empty array of schemas'],
  $ref: [isString, 'a string'],
  title: [isString, 'a string'],
  description: [isString, 'a string'],
  format: [isString, 'a string'],
  pattern: [isString, 'a string'],
  minLength: [isCount, 'a non-negative integer'],
  maxLength: [isCount, 'a non-negative integer'],
  minItems: [isCount, 'a non-negative integer'],
  maxItems: [isCount, 'a non-negative integer'],
  minProperties: [isCount, 'a non-negative integer'],
  maxProperties: [isCount, 'a non-negative integer'],
  minimum: [isNumber, 'a number'],
  maximum: [isNumber, 'a number'],
  // Draft-04 spelled these as booleans next to minimum/maximum.
  exclusiveMinimum: [(value) => isNumber(value) || isBoolean(value), 'a number'],
  exclusiveMaximum: [(value) => isNumber(value) || isBoolean(value), 'a number'],
  multipleOf: [(value) => isNumber(value) && (value as number) > 0, 'a positive number'],
  uniqueItems: [isBoolean, 'a boolean'],
};

/** The first keyword whose value is outside its allowed shape, as a message without the value. */
export function shapeProblem(schema: SchemaObject): string | undefined {
  for (const keyword of Object.keys(schema)) {
    const shape = Object.hasOwn(SHAPES, keyword) ? SHAPES[keyword] : undefined;
    if (shape && !shape[0](schema[keyword])) return `'${keyword}' is not ${shape[1]}`;
  }
  return undefined;
}

/** Keywords with no TypeScript counterpart here, whatever their value. */
const UNSUPPORTED = [
  'not',
  'prefixItems',
  'patternProperties',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$recursiveRef',
];

/** Why this schema cannot be represented (a fixed message naming the keyword), or undefined. */
export function unsupportedKeyword(schema: SchemaObject): string | undefined {
  // `then` and `else` without `if` have no effect, so only `if` counts.
  if (Object.hasOwn(schema, 'if')) return "conditional schemas ('if'/'then'/'else') are not supported";
  for (const keyword of UNSUPPORTED) {
    if (Object.hasOwn(schema, keyword)) return `'${keyword}' is not supported`;
  }
  if (Array.isArray(schema.items)) return "tuple 'items' (an array of schemas) are not supported";
  const { dependencies } = schema;
  // Draft-07 `dependencies` holding schemas (not property lists) are conditional schemas too.
  if (isSchemaObject(dependencies) && Object.values(dependencies).some((value) => !Array.isArray(value)))
    return "schema 'dependencies' are not supported";
  return undefined;
}
