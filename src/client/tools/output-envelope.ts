/**
 * The 2025 output envelope (SEP-2106). A 2026-07-28 tool may declare an output schema of any
 * root; for a 2025-era caller the SDK's server (MCPServer's too) advertises a root other than
 * `type: 'object'` wrapped as `{ type: 'object', properties: { result: <schema> }, required:
 * ['result'] }` (nothing else but the schema's `$schema`), and sends each value as
 * `{ result: <value> }`. On a 2025-era connection MCPClient gives such a tool's value unwrapped,
 * and the type generator its type, so a tool gives the same value and type on both eras.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `schema` is exactly the envelope the SDK advertises around a non-object output schema. */
export function isOutputEnvelope(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const { $schema, type, properties, required, ...rest } = schema;
  if (Object.keys(rest).length > 0 || type !== 'object') return false;
  if ($schema !== undefined && typeof $schema !== 'string') return false;
  if (!isRecord(properties) || Object.keys(properties).join() !== 'result') return false;
  if (!Array.isArray(required) || required.length !== 1 || required[0] !== 'result') return false;
  // The SDK wraps exactly the schemas whose root is an object not typed 'object'.
  return isRecord(properties.result) && properties.result.type !== 'object';
}

/** Where the natural schema sits in an envelope, as JSON Pointer tokens. */
export const ENVELOPED_SCHEMA = ['properties', 'result'] as const;

/** The value inside `{ result }`; anything else (a server that did not wrap) as it is. */
export function unwrapOutput(value: unknown): unknown {
  return isRecord(value) && Object.keys(value).join() === 'result' ? value.result : value;
}
