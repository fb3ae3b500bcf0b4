/**
 * Validation issues (zod's, or any Standard Schema's) as one short line a client can act on:
 * `params.uri: expected string`. Everything here may come from a hostile request, so the text is
 * bounded: at most three issues, keys and messages clipped, and no input value is ever quoted.
 */

type PathKey = string | number;

/** The fields of a zod issue this reads; a Standard Schema issue has only `message` and `path`. */
export interface Issue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  code?: string;
  expected?: unknown;
  values?: unknown[];
  keys?: unknown[];
  errors?: Issue[][];
}

const MAX_ISSUES = 3;
const MAX_KEY = 40;
const MAX_TEXT = 100;

/** `value` cut to `max` characters, marked when cut. */
export function clip(value: string, max = MAX_TEXT): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** A name taken from a request (tool, prompt, URI), quoted and bounded for an error message. */
export function quoted(value: string): string {
  return `'${clip(value)}'`;
}

function isIssue(value: unknown): value is Issue {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Issue).message === 'string' &&
    (!('path' in value) || Array.isArray((value as Issue).path))
  );
}

function isIssueList(value: unknown): value is Issue[] {
  return Array.isArray(value) && value.length > 0 && value.every(isIssue);
}

/**
 * The issues an error carries: a ZodError's own, or the JSON dump the SDK puts in a message when
 * its schemas reject a request (`[...]`, possibly after a prefix such as `Invalid tools/call
 * request: `). `prefix` is the text before the dump.
 */
export function issuesIn(error: unknown): { prefix: string; issues: Issue[] } | undefined {
  const own = (error as { issues?: unknown } | null)?.issues;
  if (isIssueList(own)) return { prefix: '', issues: own };
  if (!(error instanceof Error)) return undefined;
  const start = error.message.indexOf('[');
  if (start < 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(error.message.slice(start));
    return isIssueList(parsed) ? { prefix: error.message.slice(0, start), issues: parsed } : undefined;
  } catch {
    return undefined;
  }
}

function keyOf(segment: PropertyKey | { key: PropertyKey }): PathKey {
  const key = typeof segment === 'object' ? segment.key : segment;
  return typeof key === 'number' ? key : String(key);
}

export function pathOf(issue: Issue): PathKey[] {
  return (issue.path ?? []).map(keyOf);
}

function formatPath(path: PathKey[]): string {
  if (path.length === 0) return 'value';
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      if (/^[A-Za-z_$][\w$-]*$/.test(key)) return index === 0 ? key : `.${clip(key, MAX_KEY)}`;
      return `[${JSON.stringify(clip(key, MAX_KEY))}]`;
    })
    .join('');
}

/** What was wanted, from the schema's side only (zod's own messages say what was received). */
function expectation(issue: Issue): string {
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string')
    return `expected ${issue.expected}`;
  if (issue.code === 'invalid_value' && Array.isArray(issue.values)) {
    return clip(`expected ${issue.values.map((value) => JSON.stringify(value)).join(' | ')}`);
  }
  if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
    const keys = issue.keys.slice(0, MAX_ISSUES).map((key) => JSON.stringify(clip(String(key), MAX_KEY)));
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys.join(', ')}${issue.keys.length > MAX_ISSUES ? ', …' : ''}`;
  }
  return clip(issue.message.replace(/^Invalid (input|option): /, ''));
}

/** One issue; a union failure is described by the branch that came closest (fewest issues). */
function describe(issue: Issue, base: PathKey[]): string {
  const path = [...base, ...pathOf(issue)];
  const closest =
    issue.code === 'invalid_union' ? issue.errors?.filter((branch) => branch.length > 0) : undefined;
  if (closest?.length) {
    const branch = closest.reduce((best, next) => (next.length < best.length ? next : best));
    return describe(branch[0] as Issue, path);
  }
  return `${formatPath(path)}: ${expectation(issue)}`;
}

/** `params.uri: expected string; params.name: ...`, paths under `base`. */
export function describeIssues(issues: Issue[], base: PathKey[] = []): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => describe(issue, base));
  const more = issues.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}
