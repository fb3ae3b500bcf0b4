/**
 * The client's default JSON Schema validator: Ajv engines as the SDK's Ajv validator builds them,
 * whose regular expressions are RE2's (safe-pattern.ts), so no schema a server sends can make a
 * check backtrack. MCPClient validates tool arguments with it (schema-cache.ts; a failure carries
 * its issues, argument-issues.ts) and gives it to every SDK Client, which validates structured
 * output with it; a server's `jsonSchemaValidator` option replaces it for that server.
 *
 * Dialects as the SDK's default validator has them: no `$schema` or 2020-12, 2019-09, draft-07
 * and draft-06; any other `$schema` is an error. Engines are built with the SDK's default options
 * plus the RE2 engine and `addUsedSchema: false` (a schema's `$id` is never registered, so one
 * tool's `$id` cannot stand in for another's schema). Ajv keeps every schema it compiled, so the
 * engines are replaced after MAX_COMPILATIONS distinct schemas: what they retain is then bounded
 * by the tools still alive.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { addFormats } from '@modelcontextprotocol/client/validators/ajv';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { type ArgumentIssue, issuesFromAjv } from './argument-issues.js';
import { safeRegExp } from './safe-pattern.js';

const MAX_COMPILATIONS = 500;

const DIALECTS = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'https://json-schema.org/draft-07/schema',
} as const;
type Dialect = keyof typeof DIALECTS;
const DRAFT_06 = 'https://json-schema.org/draft-06/schema';

/** The Ajv class of each dialect (ajv's own builds: the SDK bundles Ajv but exports only draft-07). */
const ENGINES = { '2020-12': Ajv2020, '2019-09': Ajv2019, 'draft-07': Ajv } as const;

function dialectOf(schema: JsonSchemaType): Dialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return '2020-12';
  const uri = declared.replace(/#$/, '').replace(/^http:/, 'https:');
  for (const [dialect, known] of Object.entries(DIALECTS)) if (uri === known) return dialect as Dialect;
  if (uri === DRAFT_06) return 'draft-07';
  throw mcpError(
    MCPErrorCode.CLIENT_UNSUPPORTED_SCHEMA_DIALECT,
    `the schema declares an unsupported dialect ('$schema': '${declared.slice(0, 200)}'); JSON Schema 2020-12, 2019-09, draft-07 and draft-06 are supported`,
    { dialect: declared.slice(0, 200) },
  );
}

type Engine = InstanceType<(typeof ENGINES)[Dialect]>;

/** A check's result; a failure also carries its issues (field path, what was expected) for arguments. */
export type CheckResult<T> = ReturnType<JsonSchemaValidator<T>> & { issues?: ArgumentIssue[] };

export class SafeJsonSchemaValidator implements jsonSchemaValidator {
  private engines = new Map<Dialect, Engine>();
  private compiled = new WeakSet<object>();
  private compilations = 0;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (!this.compiled.has(schema)) {
      if (++this.compilations > MAX_COMPILATIONS) {
        this.engines.clear();
        this.compiled = new WeakSet();
        this.compilations = 1;
      }
      this.compiled.add(schema);
    }
    const dialect = dialectOf(schema);
    let engine = this.engines.get(dialect);
    if (!engine) {
      engine = new ENGINES[dialect]({
        strict: false,
        validateFormats: true,
        validateSchema: false,
        allErrors: true,
        addUsedSchema: false,
        code: { regExp: safeRegExp },
      });
      // The SDK's format plugin types against its bundled copy of the same Ajv major.
      addFormats(engine as never);
      this.engines.set(dialect, engine);
    }
    // Compiled here rather than through the SDK's AjvJsonSchemaValidator, whose results keep only
    // Ajv's text: the issues need each error's path and parameters.
    const check = engine.compile(schema);
    const errorsText = engine.errorsText.bind(engine);
    return (input: unknown): CheckResult<T> =>
      check(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : {
            valid: false,
            data: undefined,
            errorMessage: errorsText(check.errors),
            issues: issuesFromAjv(check.errors ?? [], input),
          };
  }
}

/** One instance for every server without its own validator: a schema compiles once for all of them. */
export const defaultJsonSchemaValidator = new SafeJsonSchemaValidator();
