/**
 * Why arguments fail a tool's input schema, one issue per problem: the field's path and what the
 * schema expects there (`city: expected string, got number`, `units: is required`). The default
 * validator (safe-validator.ts) makes them from Ajv's errors; a custom validator's message becomes
 * one issue without a path. The same issues reach Mastra's validation message (what an agent's
 * model reads) and the MastraError a direct call rejects with (mastra-tool.ts).
 */
import type { ErrorObject } from 'ajv';

export interface ArgumentIssue {
  /** Property names and array indexes from the arguments object down to the field. */
  path: string[];
  message: string;
  /** What the schema expects at the path, as the message says it (`string`, `one of "C", "F"`); unknown to a custom validator. */
  expected?: string;
}

const MAX_SHOWN_ISSUES = 3;

function shown(value: unknown): string {
  const json = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return json.length > 60 ? `${json.slice(0, 60)}…` : json;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return value === undefined ? 'nothing' : typeof value;
}

/** A JSON Pointer's segments (`/a/0/b~1c` -> a, 0, b/c). */
const segments = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));

function valueAt(data: unknown, path: string[]): unknown {
  let current = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function issueOf(error: ErrorObject, data: unknown): ArgumentIssue {
  const path = segments(error.instancePath);
  const value = valueAt(data, path);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const expected = ([] as unknown[]).concat(params.type).join(' or ');
      return { path, expected, message: `expected ${expected}, got ${typeOf(value)}` };
    }
    case 'required':
      return { path: [...path, String(params.missingProperty)], expected: 'a value', message: 'is required' };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      return {
        path: [...path, name],
        expected: 'no such property',
        message: 'is not allowed: the schema has no such property',
      };
    }
    case 'enum': {
      const values = (params.allowedValues as unknown[]).map(shown).join(', ');
      const expected = `one of ${values.length > 200 ? `${values.slice(0, 200)}…` : values}`;
      return { path, expected, message: `expected ${expected}, got ${shown(value)}` };
    }
    case 'const': {
      const expected = shown(params.allowedValue);
      return { path, expected, message: `expected ${expected}, got ${shown(value)}` };
    }
    default: {
      const message = error.message ?? `fails '${error.keyword}'`;
      return { path, expected: message.replace(/^must /, ''), message };
    }
  }
}

/** Ajv's errors for `data` as issues, in the order Ajv found them. */
export function issuesFromAjv(errors: readonly ErrorObject[], data: unknown): ArgumentIssue[] {
  return errors.map((error) => issueOf(error, data));
}

/** `city` or `items.0.name`; the arguments object itself when the path is empty. */
export const fieldOf = (issue: ArgumentIssue): string =>
  issue.path.length > 0 ? issue.path.join('.') : '(the arguments)';

/** The first few issues as one line: `city: expected string, got number; units: is required`. */
export function describeIssues(issues: readonly ArgumentIssue[]): string {
  const listed = issues.slice(0, MAX_SHOWN_ISSUES).map((issue) => `${fieldOf(issue)}: ${issue.message}`);
  const more = issues.length - MAX_SHOWN_ISSUES;
  return `${listed.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}
