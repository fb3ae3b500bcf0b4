/**
 * Option checking for every options object the package takes. Each object is described once: its
 * keys, each with a `Check` of the value it takes (nested options objects described the same way),
 * and `problemOf()` walks a value against it. An unknown key is reported with its path and the
 * nearest known key ("did you mean"), a value of the wrong type with its path and the type
 * expected; the caller raises the problem under its own error id. Descriptions are typed with
 * `OptionsOf<T>` (`satisfies OptionsOf<MCPServerConfig>`), so tsc fails when a key is added to a
 * public interface without a check here. `undefined` is accepted for every key that is not
 * `required`: a config spread from a user object may carry it for an optional one. Values that
 * only pass through to another library (`requestInit`, OAuth client metadata) are checked at their
 * top level only.
 */
import { type MCPErrorCode, type MCPErrorDetails, mcpError } from '../errors.js';

/** What is wrong where: `path` is `servers.weather.timout`, `limits.maxBodyByte`, `tool`. */
export interface OptionProblem {
  path: string;
  /** The whole sentence: the path, what is wrong and what to write instead. */
  message: string;
}

export interface Check {
  /** What the value must be, in words: "a number", "'throw' or 'return'". */
  readonly expected: string;
  /** Whether the value is of that kind (its members are `inner`'s business). */
  readonly accepts: (value: unknown) => boolean;
  /** Problems inside an accepted value: a nested object's keys, an array's items. */
  readonly inner?: (value: unknown, path: string) => OptionProblem | undefined;
  /** Absence is a problem too. */
  readonly required?: boolean;
  /** Literal choices: the value is quoted in the message and the nearest choice suggested. */
  readonly choices?: readonly unknown[];
  /** A key that must stay unset, and why (`url` on a stdio server); never suggested. */
  readonly absent?: string;
}

/** The description of options of type `T`: every key of `T` (tsc fails on a missing or extra one). */
export type OptionsOf<T> = { readonly [K in keyof T]-?: Check };

/** An options object's description. */
export type Shape = Readonly<Record<string, Check>>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `servers.weather`, or `appResources["ui://app/main"]` for a key that does not read as a name. */
export function joinPath(path: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (path === '') return segment;
  return segment.startsWith('[') ? `${path}${segment}` : `${path}.${segment}`;
}

/** The kind of a value as a message names it; never the value itself (it may be a secret). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/** Optimal string alignment distance (a swap of neighbours counts once), case-insensitive. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const row = rows[i] as number[];
      const up = rows[i - 1] as number[];
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (rows[s.length] as number[])[t.length] as number;
}

/** The known name `name` most likely meant, if one is close enough to suggest. */
export function nearest(name: string, known: readonly string[]): string | undefined {
  const allowed = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of known) {
    const prefix =
      Math.min(name.length, candidate.length) >= 3 &&
      (candidate.toLowerCase().startsWith(name.toLowerCase()) ||
        name.toLowerCase().startsWith(candidate.toLowerCase()));
    const score = distance(name, candidate);
    if ((score <= allowed || prefix) && (!best || score < best.score)) best = { candidate, score };
  }
  return best?.candidate;
}

/**
 * The problem with `value` against `check` at `path`. `label` names a value checked as a whole
 * (`the MCPClient options`), which must be there.
 */
export function problemOf(
  check: Check,
  value: unknown,
  path: string,
  label?: string,
): OptionProblem | undefined {
  const subject = label ?? `\`${path}\``;
  if (value === undefined && label === undefined) {
    return check.required ? { path, message: `${subject} is required: ${check.expected}` } : undefined;
  }
  if (check.absent) return { path, message: `${subject} ${check.absent}` };
  if (!check.accepts(value)) {
    const quoted = check.choices?.length && typeof value === 'string';
    const got = quoted ? JSON.stringify(value.slice(0, 40)) : kindOf(value);
    const close = quoted
      ? nearest(
          value,
          (check.choices ?? []).filter((choice): choice is string => typeof choice === 'string'),
        )
      : undefined;
    const hint = close === undefined ? '' : `; did you mean '${close}'?`;
    return { path, message: `${subject} must be ${check.expected}, got ${got}${hint}` };
  }
  return check.inner?.(value, path);
}

/** Unknown keys first (a misspelt required key is reported as a misspelling), then each key. */
export function shapeProblem(shape: Shape, value: Record<string, unknown>, path: string, owner: string) {
  const known = Object.keys(shape).filter((key) => !(shape[key] as Check).absent);
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(shape, key)) continue;
    const at = joinPath(path, key);
    const close = nearest(key, known);
    const fix = close
      ? `did you mean \`${close}\`?`
      : `its options are ${known.map((k) => `\`${k}\``).join(', ')}`;
    return { path: at, message: `\`${at}\` is not an option of ${owner}; ${fix}` };
  }
  for (const [key, check] of Object.entries(shape)) {
    const at = joinPath(path, key);
    const problem = problemOf(check, value[key], at);
    if (problem) return problem;
  }
  return undefined;
}

export function check(expected: string, accepts: (value: unknown) => boolean): Check {
  return { expected, accepts };
}

export const string = check('a string', (value) => typeof value === 'string');
export const number = check('a number', (value) => typeof value === 'number');
export const boolean = check('a boolean', (value) => typeof value === 'boolean');
export const fn = check('a function', (value) => typeof value === 'function');
/** An object the package hands on (to the SDK, `fetch`) or calls methods of: only its kind is checked. */
export const anyObject = check('an object', isRecord);
/** Anything: a schema (zod, Standard Schema, JSON Schema) is checked where it is converted. */
export const anything = check('any value', () => true);
export const nullValue = check('null', (value) => value === null);
export const url = check(
  "a URL object (new URL('https://…'))",
  (value) =>
    value instanceof URL || (isRecord(value) && typeof value.href === 'string' && 'searchParams' in value),
);

/** A key that must stay unset; `why` completes the sentence "`<path>` ...". */
export function absent(why: string): Check {
  return { expected: 'unset', accepts: () => false, absent: why };
}

export function required(of: Check): Check {
  return { ...of, required: true };
}

export function oneOf(...choices: readonly (string | boolean)[]): Check {
  const words = choices.map((choice) => (typeof choice === 'string' ? `'${choice}'` : String(choice)));
  const expected =
    words.length === 1 ? (words[0] as string) : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
  return { expected, accepts: (value) => choices.includes(value as string), choices };
}

/** The first alternative that accepts the value checks its inside. */
export function either(...alternatives: readonly Check[]): Check {
  const find = (value: unknown) => alternatives.find((alternative) => alternative.accepts(value));
  return {
    expected: alternatives.map((alternative) => alternative.expected).join(' or '),
    accepts: (value) => find(value) !== undefined,
    inner: (value, path) => find(value)?.inner?.(value, path),
    choices: alternatives.flatMap((alternative) => alternative.choices ?? []),
  };
}

export function arrayOf(item: Check): Check {
  return {
    expected: `an array (each ${item.expected})`,
    accepts: Array.isArray,
    inner: (value, path) => {
      for (const [index, entry] of (value as unknown[]).entries()) {
        const problem = problemOf(item, entry, `${path}[${index}]`);
        if (problem) return problem;
      }
      return undefined;
    },
  };
}

/** A map of user-chosen names (servers, tools, event types) to values each checked by `entry(name)`. */
export function recordOf(entry: (name: string) => Check, expected = 'an object'): Check {
  return {
    expected,
    accepts: isRecord,
    inner: (value, path) => {
      for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
        const problem = problemOf(required(entry(name)), member, joinPath(path, name));
        if (problem) return problem;
      }
      return undefined;
    },
  };
}

/** A nested options object; `owner` names it in an unknown-key message (default: its path in backticks). */
export function object(shape: Shape, owner?: string): Check {
  return {
    expected: 'an object',
    accepts: isRecord,
    inner: (value, path) =>
      shapeProblem(shape, value as Record<string, unknown>, path, owner ?? `\`${path}\``),
  };
}

/** Where a check runs: how its errors read and which id they carry. */
export interface OptionsSite {
  /** Starts the message: `MCPClient`, `MCP server 'weather'`. */
  where: string;
  /** Names the whole value when it is the problem: `the MCPClient options`. */
  label: string;
  code: MCPErrorCode;
  /** Ids by the option a problem is in (the first segment of its path), over `code`. */
  groups?: Readonly<Record<string, MCPErrorCode>>;
  /** Details besides `field` (the path), from the path. */
  details?: (path: string) => MCPErrorDetails;
}

/** Throws the first problem of `value`, if any, as the site's error naming the path. */
export function assertOptions(check: Check, value: unknown, site: OptionsSite, path = ''): void {
  const problem = problemOf(check, value, path, site.label);
  if (!problem) return;
  const group = /^[^.[]+/.exec(problem.path)?.[0] ?? '';
  throw mcpError(site.groups?.[group] ?? site.code, `${site.where}: ${problem.message}`, {
    ...site.details?.(problem.path),
    field: problem.path,
  });
}
