/**
 * The regular expressions in a server's JSON Schemas (`pattern`, the keys of `patternProperties`,
 * and so `propertyNames` patterns), matched by RE2 (re2js): no backtracking, so `^(a+)+$` costs
 * what `^a+$` does. RE2's promise is time linear in the input, but the factor is the compiled
 * program's size, up to some 80 ns per instruction and character when its DFA gives way to its
 * NFA (`a[ab]{150}[cd]` spends 1.3 s on 100 KB), and compiling costs the program's size too. So:
 * - a pattern is compiled only when its estimated size is within MAX_PATTERN_SIZE instructions;
 * - one match may cost at most MAX_MATCH_WORK (instructions × characters), so a longer input is
 *   not checked against that pattern;
 * - one synchronous run (a validation) spends at most MAX_MATCH_MS matching: later patterns in it
 *   pass unchecked;
 * - one server's patterns compile to at most its budget (pattern-budget.ts), charged while its
 *   schemas compile (`withPatternBudget`). A source compiles once and is shared while anything
 *   holds it (Ajv's engines and compiled schemas do), so identical patterns cost one program.
 *
 * A pattern the client cannot check in linear time (a backreference or lookaround, which RE2 has
 * no linear-time form for, or one over the size bound) is left unchecked: `test` passes and
 * `unchecked` says why. Arguments are checked again by the server that wrote the schema, and
 * structured output is that server's own promise, so an unchecked pattern never protects the
 * client from anything. A pattern that is not a valid ECMAScript expression at all still throws,
 * as it does with a backtracking engine: the schema is broken.
 */
import { RE2JS } from 're2js';
import { type PatternBudget, patternCost } from './pattern-budget.js';
import { subschemasUnder } from './schema-budget.js';

/** Program instructions a pattern may compile to: `[a-z]{1,255}` (511) stays checked, `.{0,500}` (1,002) does not. */
export const MAX_PATTERN_SIZE = 1_000;
/** The cost one match may have, in program instructions × input characters (~160 ms at worst). */
export const MAX_MATCH_WORK = 2_000_000;
/** Matching time one synchronous run may spend before the rest of its patterns pass unchecked. */
export const MAX_MATCH_MS = 100;
/** Beyond this many characters a pattern is not even estimated. */
const MAX_PATTERN_LENGTH = 4 * MAX_PATTERN_SIZE;
const TOO_LARGE = `it compiles to more than ${MAX_PATTERN_SIZE} RE2 instructions`;

export interface SafePattern {
  /** Unanchored search, as JSON Schema's `pattern` means it. */
  test(input: string): boolean;
  /** Distinct per checked source: Ajv's engines key the patterns they hold by it. */
  toString(): string;
  /** Why the client does not check this pattern (`test` then always passes). */
  unchecked?: string;
}

/** Each source's pattern while something holds it; a collected one's entry goes with it. */
const cache = new Map<string, WeakRef<SafePattern>>();
const collected = new FinalizationRegistry<string>((key) => {
  if (cache.get(key)?.deref() === undefined) cache.delete(key);
});
/** Patterns left unchecked for a server's budget: reported once by the budget, not per pattern. */
const overBudget = new WeakSet<SafePattern>();

/** The budget of the server whose schema is compiling now (compiles are synchronous). */
let currentBudget: PatternBudget | undefined;

/** Runs `compile` with the patterns it compiles charged to `budget` (none: unbounded). */
export function withPatternBudget<T>(budget: PatternBudget | undefined, compile: () => T): T {
  const previous = currentBudget;
  currentBudget = budget;
  try {
    return compile();
  } finally {
    currentBudget = previous;
  }
}

/**
 * The pattern for a schema's regular expression (ECMAScript syntax; `flags` as Ajv passes them:
 * `u`), compiled once per source, within the current server's budget.
 */
export function safePattern(source: string, flags = 'u'): SafePattern {
  if (source.length > MAX_PATTERN_LENGTH) {
    // Parsing only (V8 compiles on the first match), so a broken pattern fails as it always did.
    new RegExp(source, flags);
    return unchecked(source, flags, `it is longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  const key = `${flags}/${source}`;
  const hit = cache.get(key)?.deref();
  if (hit) return hit.unchecked || admitted(key, source) ? hit : refused(source, flags);
  new RegExp(source, flags);
  const unsupported = unsupportedSyntax(source);
  if (unsupported)
    return remember(key, unchecked(source, flags, `RE2 has no linear-time form for ${unsupported}`));
  const estimate = estimatedSize(source);
  if (estimate > MAX_PATTERN_SIZE) return remember(key, unchecked(source, flags, TOO_LARGE));
  if (!admitted(key, source, estimate)) return refused(source, flags);
  return remember(key, compile(source, flags));
}

function remember(key: string, pattern: SafePattern): SafePattern {
  cache.set(key, new WeakRef(pattern));
  collected.register(pattern, key);
  return pattern;
}

/** Whether the current server may have this pattern compiled (charged by its estimated size). */
function admitted(key: string, source: string, estimate?: number): boolean {
  const budget = currentBudget;
  return !budget || budget.admit(key, () => patternCost(estimate ?? estimatedSize(source), source), source);
}

function refused(source: string, flags: string): SafePattern {
  const reason = `the server's patterns passed maxPatternInstructions (${currentBudget?.limit} RE2 instructions)`;
  const pattern = unchecked(source, flags, reason);
  overBudget.add(pattern);
  return pattern;
}

/** What Ajv holds for every unchecked pattern: one object, where one per source cost each engine an entry. */
const PASS: SafePattern = { test: () => true, toString: () => 'unchecked' };

/** Ajv's `code.regExp` engine: every pattern an engine compiles goes through `safePattern`. */
export const safeRegExp = Object.assign(
  (source: string, flags?: string): SafePattern => {
    const pattern = safePattern(source, flags);
    return pattern.unchecked ? PASS : pattern;
  },
  { code: 'safePattern' },
);

export interface UncheckedPattern {
  /** JSON Pointer of the subschema holding it. */
  pointer: string;
  keyword: 'pattern' | 'patternProperties';
  source: string;
  reason: string;
}

/**
 * The patterns of a schema the client leaves unchecked, to report when a tool is built (compiled
 * within `budget`; those its budget refused are reported by the budget, once). Only for schemas
 * within the budgets (schema-budget.ts); an invalid pattern is the validator's to report.
 */
export function uncheckedPatterns(schema: unknown, budget?: PatternBudget): UncheckedPattern[] {
  const found: UncheckedPattern[] = [];
  const note = (pointer: string, keyword: UncheckedPattern['keyword'], source: string) => {
    try {
      const pattern = safePattern(source);
      if (pattern.unchecked && !overBudget.has(pattern))
        found.push({ pointer: pointer || '/', keyword, source, reason: pattern.unchecked });
    } catch {
      // Not a valid expression at all: compiling the schema reports it.
    }
  };
  const stack: Array<[string, unknown]> = [['', schema]];
  withPatternBudget(budget, () => {
    while (stack.length > 0) {
      const [pointer, node] = stack.pop() as [string, unknown];
      if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
      for (const [keyword, value] of Object.entries(node)) {
        if (keyword === 'pattern' && typeof value === 'string') note(pointer, keyword, value);
        if (keyword === 'patternProperties' && typeof value === 'object' && value !== null)
          for (const key of Object.keys(value)) note(pointer, keyword, key);
        for (const [token, sub] of subschemasUnder(keyword, value) ?? [])
          stack.push([
            `${pointer}/${pointerToken(keyword)}${token === undefined ? '' : `/${pointerToken(token)}`}`,
            sub,
          ]);
      }
    }
  });
  return found;
}

function pointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** RE2's program for a pattern already screened (syntax, estimated size, budget). */
function compile(source: string, flags: string): SafePattern {
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return unchecked(source, flags, `RE2 cannot parse it (${reason})`);
  }
  const size = re2.programSize();
  if (size > MAX_PATTERN_SIZE) return unchecked(source, flags, TOO_LARGE);
  return {
    test: (input) => !withinBudget(size * input.length) || re2.test(input),
    toString: () => `/${source}/${flags}`,
  };
}

/** When the current synchronous run started matching; cleared once it is over. */
let runStarted: number | undefined;

function withinBudget(work: number): boolean {
  if (work > MAX_MATCH_WORK) return false;
  const now = performance.now();
  if (runStarted === undefined) {
    runStarted = now;
    queueMicrotask(() => {
      runStarted = undefined;
    });
  }
  return now - runStarted < MAX_MATCH_MS;
}

function unchecked(source: string, flags: string, reason: string): SafePattern {
  return { test: () => true, toString: () => `unchecked /${source}/${flags}`, unchecked: reason };
}

/** Backreferences and lookaround, outside character classes (escapes skipped). */
function unsupportedSyntax(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || source.startsWith('k<', i + 1))) return 'a backreference';
      i++;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(' && /^\(\?<?[=!]/.test(source.slice(i, i + 4))) {
      return 'lookaround (lookahead or lookbehind)';
    }
  }
  return undefined;
}

interface Group {
  /** Size of the finished alternatives. */
  alternatives: number;
  /** Size of the current alternative so far. */
  sequence: number;
}

/**
 * An estimate of the RE2 program size, read from the source without compiling, as RE2 expands
 * repetitions: atoms count one, groups their contents plus two, `*` `+` `?` one more, `x{m,n}` is
 * m copies of x and n - m optional ones (one more each), `x{m,}` m copies and `x*`. Stops as soon
 * as the bound is passed; the compiled size is checked again afterwards.
 */
function estimatedSize(source: string): number {
  const groups: Group[] = [{ alternatives: 0, sequence: 0 }];
  let last = 0;
  const top = () => groups[groups.length - 1] as Group;
  const add = (size: number) => {
    top().sequence += size;
    return top().alternatives + top().sequence;
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    let size: number;
    if (char === '\\') {
      // `\p{L}`, `\x{41}`, `\u{1F600}`, `\k<name>`: the braces belong to the escape.
      const braced = /^(?:[pPxu]\{|k<)/.test(source.slice(i + 1, i + 3));
      const close = braced ? source.indexOf(source[i + 2] === '{' ? '}' : '>', i) : -1;
      i = close > 0 ? close : i + 1;
      last = 1;
      size = add(1);
    } else if (char === '[') {
      i = classEnd(source, i);
      last = 1;
      size = add(1);
    } else if (char === '(') {
      groups.push({ alternatives: 0, sequence: 0 });
      last = 0;
      continue;
    } else if (char === ')' && groups.length > 1) {
      const group = groups.pop() as Group;
      last = group.alternatives + group.sequence + 2;
      size = add(last);
    } else if (char === '|') {
      top().alternatives += top().sequence + 1;
      top().sequence = 0;
      last = 0;
      continue;
    } else if (char === '*' || char === '+' || char === '?') {
      if (source[i + 1] === '?') i++;
      last += 1;
      size = add(1);
    } else {
      const repeat = char === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24)) : null;
      if (repeat) {
        const min = Number(repeat[1]);
        const optional = repeat[3] ? Math.max(Number(repeat[3]) - min, 0) : repeat[2] ? 1 : 0;
        i += repeat[0].length - 1;
        const repeated = last * min + (last + 1) * optional;
        size = add(repeated - last);
        last = repeated;
      } else {
        last = 1;
        size = add(1);
      }
    }
    if (size > MAX_PATTERN_SIZE) return Number.POSITIVE_INFINITY;
  }
  return groups.reduce((total, group) => total + group.alternatives + group.sequence, 0);
}

/** The index of the `]` closing the class opened at `start` (in ECMAScript, `[]` is empty). */
function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length;
}
