/**
 * What the generator says about a schema. A diagnostic carries a position (a JSON Pointer) and a
 * reason the generator wrote itself; it never carries schema content (descriptions, defaults,
 * enum values, `$ref` targets), so a server cannot smuggle text into the command's output.
 * Names and pointers come from the server too, so they are escaped and shortened when printed.
 */

export type SchemaSide = 'input' | 'output';

export interface SchemaSubject {
  server: string;
  tool: string;
  side: SchemaSide;
}

export interface SchemaDiagnostic {
  subject: SchemaSubject;
  /** Where in the schema: `#`, `#/properties/a`. */
  pointer: string;
  /** Fixed text written by the generator (keyword names at most). */
  reason: string;
}

const MAX_SHOWN = 120;

/** Control and line-breaking characters escaped, long text cut: safe on one terminal line. */
export function printable(text: string, max = MAX_SHOWN): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  // JSON escaping covers C0 controls, quotes and lone surrogates; the rest are escaped by hand.
  return JSON.stringify(cut)
    .slice(1, -1)
    .replace(
      /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}

export function describeSubject({ server, tool, side }: SchemaSubject): string {
  return `server '${printable(server)}', tool '${printable(tool)}', ${side} schema`;
}

export function describeDiagnostic({ subject, pointer, reason }: SchemaDiagnostic): string {
  return `${describeSubject(subject)} at ${printable(pointer, 200)}: ${reason}`;
}
