/**
 * TypeScript type text, built bottom-up. Each piece remembers whether it is a union or an
 * intersection, so composing pieces adds parentheses exactly where precedence needs them and
 * flattens, deduplicates and simplifies (`unknown`, `never`) as it goes. Everything that comes
 * from a schema (names, literals, descriptions) enters the text through an escaping function here.
 */

export interface TypeText {
  readonly text: string;
  readonly kind: 'atom' | 'union' | 'intersection';
  readonly parts: readonly TypeText[];
}

export function atom(text: string): TypeText {
  return { text, kind: 'atom', parts: [] };
}

export const UNKNOWN = atom('unknown');
export const NEVER = atom('never');

function distinct(parts: TypeText[]): TypeText[] {
  const seen = new Set<string>();
  return parts.filter((part) => !seen.has(part.text) && seen.add(part.text));
}

/**
 * Unions and intersections alike: nested ones of the same kind are flattened, the absorbing type
 * (`unknown` in a union, `never` in an intersection) wins, the identity type drops out, and
 * duplicates go.
 */
function combine(
  members: readonly TypeText[],
  kind: 'union' | 'intersection',
  absorbing: TypeText,
  identity: TypeText,
  render: (parts: TypeText[]) => string,
): TypeText {
  const flat = members.flatMap((member) => (member.kind === kind ? member.parts : [member]));
  if (flat.some((member) => member.text === absorbing.text)) return absorbing;
  const parts = distinct(flat.filter((member) => member.text !== identity.text));
  if (parts.length === 0) return identity;
  if (parts.length === 1) return parts[0] as TypeText;
  return { text: render(parts), kind, parts };
}

export function unionOf(members: readonly TypeText[]): TypeText {
  return combine(members, 'union', UNKNOWN, NEVER, (parts) => parts.map((part) => part.text).join(' | '));
}

export function intersectionOf(members: readonly TypeText[]): TypeText {
  // `&` binds tighter than `|`: a union inside an intersection needs parentheses.
  return combine(members, 'intersection', NEVER, UNKNOWN, (parts) =>
    parts.map((part) => (part.kind === 'union' ? `(${part.text})` : part.text)).join(' & '),
  );
}

export function arrayOf(item: TypeText): TypeText {
  // `-1[]` would not parse as an array of -1; composite types need parentheses too.
  const bare = item.kind === 'atom' && !item.text.startsWith('-');
  return atom(bare ? `${item.text}[]` : `(${item.text})[]`);
}

/**
 * A single-quoted TypeScript string. JSON escaping handles backslashes, control characters and
 * lone surrogates; in its output every `"` is escaped, so those escapes can be dropped, and `'`
 * escaped instead.
 */
export function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
}

/** A JSON primitive as a literal type. */
export function literal(value: string | number | boolean | null): TypeText {
  return atom(typeof value === 'string' ? quote(value) : JSON.stringify(value));
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as written in a type literal: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quote(name);
}

const MAX_DOC = 2_000;

/**
 * A description as JSDoc lines, or none. Text cannot close the comment early (`*\/`), break out
 * through exotic line terminators, hide behind control and bidirectional-override characters, or
 * pose as a `@ts-…` directive.
 */
export function docComment(description: unknown): string[] {
  if (typeof description !== 'string') return [];
  const text = description.length > MAX_DOC ? `${description.slice(0, MAX_DOC)}…` : description;
  const lines = text
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .replaceAll('*/', '*\\/')
    .split('\n')
    // A line starting `@ts-expect-error` or `@ts-ignore` would be a compiler directive.
    .map((line) => line.trimEnd().replace(/^(\s*)@ts-/i, '$1\\@ts-'));
  while (lines.length > 0 && lines[0]?.trim() === '') lines.shift();
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  if (lines.length === 0) return [];
  if (lines.length === 1) return [`/** ${lines[0]} */`];
  return ['/**', ...lines.map((line) => (line ? ` * ${line}` : ' *')), ' */'];
}

/** Indents every line but the first (the first continues the line it is placed on). */
export function indent(text: string, pad: string): string {
  return text.replaceAll('\n', `\n${pad}`);
}

/** One member of a type literal: JSDoc lines, then `name: type` (no `;`). */
export interface Member {
  doc: readonly string[];
  text: string;
}

/** `{ a: string }` on one line for one plain member, one member per line otherwise. */
export function objectLiteral(members: readonly Member[]): TypeText {
  const [only] = members;
  if (!only) return atom('{}');
  if (members.length === 1 && only.doc.length === 0 && !only.text.includes('\n'))
    return atom(`{ ${only.text} }`);
  const lines = members.flatMap((member) => [...member.doc, `${member.text};`]);
  return atom(`{\n${lines.map((line) => `  ${indent(line, '  ')}`).join('\n')}\n}`);
}

/** Identifier parts joined in PascalCase, for helper type names: `weather`, `get-weather` → `WeatherGetWeather`. */
export function pascalIdentifier(parts: readonly string[]): string {
  const words = parts.flatMap((part) => part.split(/[^A-Za-z0-9]+/)).filter(Boolean);
  const name = words
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('')
    .slice(0, 80);
  return /^[A-Za-z_$]/.test(name) ? name : `T${name}`;
}
