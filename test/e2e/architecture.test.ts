/**
 * The shape of src/, checked on every run: no import cycle (type-only and dynamic imports count,
 * since they still fix the order a reader must learn the modules in), no forbidden direction
 * between its parts, direct or through any chain of imports, and no file too long to read in one sitting. Imports are read with
 * TypeScript's own pre-processor, so comments and strings never count as imports.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const MAX_LINES = 650;

/**
 * Directions between parts that no chain of imports may take: a file under `from` reaching one under `to`
 * (folders, or single files, relative to src/) through any number of imports, unless the chain enters `to`
 * through one of its `doors` (a chain stops there). Add a row when a seam is in place; every row must hold today.
 */
const FORBIDDEN: readonly { from: string; to: string; doors?: readonly string[]; why: string }[] = [
  { from: 'client', to: 'server', why: 'a client hosts no MCP traffic; the proxies in proxy/ do' },
  {
    from: 'client',
    to: 'proxy',
    why: 'the proxies build on the client (client/server-proxies.ts is the seam), never the other way',
  },
  {
    from: 'client',
    to: 'redis',
    why: 'the Redis stores implement client seams; the client knows none of them',
  },
  { from: 'client', to: 'typegen', why: 'the generate command drives clients; clients do not know it' },
  { from: 'server', to: 'client', why: 'a server serves MCP; it holds no client' },
  {
    from: 'server',
    to: 'proxy',
    why: 'the proxies build on the hosting door of the server, never the other way',
  },
  {
    from: 'server',
    to: 'redis',
    why: 'the Redis stores implement server seams; the server knows none of them',
  },
  { from: 'server', to: 'typegen', why: 'the generate command is a client tool' },
  {
    from: 'proxy',
    to: 'server',
    doors: ['server/hosting.ts'],
    why: 'the proxy reaches the server only through its hosting door',
  },
  { from: 'proxy', to: 'redis', why: 'the proxies store nothing of their own' },
  { from: 'proxy', to: 'typegen', why: 'the generate command is a client tool' },
  {
    from: 'redis',
    to: 'server',
    doors: ['server/store-kit.ts'],
    why: 'the Redis stores reach the server only through its store kit',
  },
  {
    from: 'redis',
    to: 'client',
    doors: ['client/auth/storage.ts', 'client/events/cursor-store.ts'],
    why: 'the Redis client stores reach the client only through the two seams they implement',
  },
  { from: 'redis', to: 'proxy', why: 'the Redis stores implement client and server seams only' },
  { from: 'redis', to: 'typegen', why: 'the Redis stores implement client and server seams only' },
  ...['server', 'proxy', 'redis'].map((to) => ({
    from: 'typegen',
    to,
    why: 'the generate command reads servers through MCPClient alone',
  })),
  {
    from: 'index.ts',
    to: 'compat',
    // compat/server.ts through server-entry.ts, which index.ts re-exports.
    doors: ['compat/index.ts', 'compat/server.ts'],
    why: 'the public entry takes the compat shims through their doors',
  },
  {
    from: 'server-entry.ts',
    to: 'compat',
    doors: ['compat/server.ts'],
    why: 'the server entry takes the public MCPServer alone, so it loads nothing of the client side',
  },
  {
    from: 'server-entry.ts',
    to: 'client',
    why: 'the server entry loads nothing of the client side',
  },
  // Every part of src/ but the compat room itself and the public entries, which export from it.
  ...readdirSync(src)
    .filter((part) => part !== 'compat' && part !== 'index.ts' && part !== 'server-entry.ts')
    .map((from) => ({
      from,
      to: 'compat',
      why: 'src/compat wraps the core in the shapes older pages ask for; only src/index.ts exports them',
    })),
  ...['client', 'server', 'proxy', 'redis', 'typegen'].flatMap((to) => [
    { from: 'shared', to, why: 'src/shared holds what the parts share, so it depends on none of them' },
    {
      from: 'errors.ts',
      to,
      why: 'every part raises its errors through src/errors.ts, so it depends on none of them',
    },
  ]),
];

/**
 * The closed error model (src/errors.ts): what the package raises is a `MastraError` with an id
 * from its table. A bare `new Error(` stays only where no caller receives it as it is; per file,
 * how many and why. An entry whose file holds fewer fails too, so the list only shrinks.
 */
const CAUSE_ONLY = 'the cause of a MastraError its module or caller raises (the wrapper carries the id)';
const FOR_THE_SDK =
  "handed to the SDK's transport or handler machinery (an onerror, a rejected send or store call), which logs it or answers over the wire";
const PLAIN_ERRORS: Readonly<Record<string, { count: number; why: string }>> = {
  'shared/peer-check.ts': {
    count: 3,
    why: 'raised before @mastra/core is known to be installed, so MastraError may not be loadable',
  },
  'errors.ts': {
    count: 1,
    why: 'asError(): wraps a non-Error value someone else threw, for an API typed Error',
  },
  'client/tools/validation.ts': { count: 1, why: 'an invariant only a bug in mastra-mcp could reach' },
  'client/sdk-client.ts': { count: 1, why: FOR_THE_SDK },
  'client/actions.ts': { count: 1, why: CAUSE_ONLY },
  'client/prompt-listing.ts': { count: 1, why: CAUSE_ONLY },
  'client/tasks/tool-call.ts': { count: 2, why: CAUSE_ONLY },
  'client/events/event-actions.ts': { count: 3, why: CAUSE_ONLY },
  'client/events/list.ts': { count: 2, why: CAUSE_ONLY },
  'client/events/push-source.ts': { count: 5, why: CAUSE_ONLY },
  'client/events/webhook-hub.ts': { count: 1, why: CAUSE_ONLY },
  'client/transport/bounded-fetch.ts': { count: 1, why: FOR_THE_SDK },
  'server/derived-runs.ts': { count: 2, why: CAUSE_ONLY },
  'server/suspended-calls.ts': {
    count: 1,
    why: 'refuses a parked question inside the tool; the caller gets the ProtocolError thrown beside it',
  },
  'server/tasks/resume.ts': {
    count: 1,
    why: 'thrown inside a tool, which the task turns into its failed result',
  },
  'server/tasks/service.ts': {
    count: 4,
    why: "the abort reason of a task run's signal: the client is told the task's status",
  },
  'server/tasks/task-run.ts': {
    count: 2,
    why: "the abort reason of a task run's signal: the client is told the task's status",
  },
  'server/transports/hono-sse-transport.ts': { count: 1, why: FOR_THE_SDK },
  'server/transports/session-event-store.ts': { count: 2, why: FOR_THE_SDK },
  'server/transports/stream-guard.ts': { count: 3, why: FOR_THE_SDK },
  'server/transports/web-stream-guard.ts': { count: 1, why: FOR_THE_SDK },
  'redis/legacy-event-store.ts': { count: 2, why: `${FOR_THE_SDK}; or ${CAUSE_ONLY}` },
};

/**
 * Classes that extend `Error` or another error class than MastraError (a built-in one, the SDK's):
 * each is internal, and why. A MastraError subclass takes its id and category from src/errors.ts.
 */
const ERROR_CLASSES: Readonly<Record<string, string>> = {
  'typegen/convert.ts ConversionBudgetExceeded': 'control flow: convert() catches it and widens the schema',
  'typegen/convert.ts SchemaFailure': 'control flow: convert() catches it and returns the diagnostic',
  'client/errors.ts AnswerCutError':
    "only ever a cause: every caller wraps it in the operation's MastraError, whose message it becomes (describeCause()); as a MastraError it would pass unwrapped through those that let the package's own errors through",
};

/** Every source file under src/ (tests excluded), relative to src/ with forward slashes. */
const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split('\\').join('/'))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .sort();

const texts = new Map(files.map((file) => [file, readFileSync(join(src, file), 'utf8')]));

/** A relative specifier (`./x.js`, `../dir`) as the src/ file it loads, or undefined when it is none. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = join(src, dirname(from), specifier.replace(/\.js$/, ''));
  const target = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path));
  return target === undefined ? undefined : relative(src, target).split('\\').join('/');
}

/** Per file, the src/ files it imports (static, `export ... from`, type-only, `import()`). */
const imports = new Map(
  files.map((file) => {
    const found = ts.preProcessFile(texts.get(file) ?? '', true, true).importedFiles;
    const relativeOnes = found.map((entry) => entry.fileName).filter((name) => name.startsWith('.'));
    return [file, relativeOnes.map((name) => resolveImport(file, name) ?? `unresolved ${name}`)];
  }),
);

/** Lines as an editor numbers them (a final newline ends the last line, it does not start one). */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** One cycle per back edge met in a depth-first walk, each as its files in import order. */
function findCycles(): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const onPath = path.indexOf(file);
    if (onPath >= 0) {
      cycles.push([...path.slice(onPath), file]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const next of imports.get(file) ?? []) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of files) visit(file);
  return cycles;
}

/** Whether a src/ file is `part` (a file) or lies under it (a folder). */
const under = (file: string, part: string) => file === part || file.startsWith(`${part}/`);

/**
 * The shortest chain of imports from `start` to a file `forbidden` accepts, as its files in import order,
 * never passing through a door; undefined when there is none.
 */
function chainTo(
  start: string,
  forbidden: (file: string) => boolean,
  doors: readonly string[] = [],
): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  for (const file of queue) {
    for (const next of imports.get(file) ?? []) {
      if (doors.includes(next) || next === start || previous.has(next)) continue;
      previous.set(next, file);
      if (!forbidden(next)) {
        queue.push(next);
        continue;
      }
      const chain = [next];
      for (let at = previous.get(next); at !== undefined; at = previous.get(at)) chain.unshift(at);
      return chain;
    }
  }
  return undefined;
}

describe('source architecture', () => {
  it('reads the whole tree and resolves every relative import to a file in src/', () => {
    expect(files).toContain('index.ts');
    const unresolved = [...imports].flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith('unresolved ')).map((target) => `${file}: ${target}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles = findCycles().map((cycle) => cycle.join(' -> '));
    expect(cycles, `import cycles in src/:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('has no chain of imports in a forbidden direction', () => {
    const offenders = FORBIDDEN.flatMap(({ from, to, doors, why }) =>
      files
        .filter((file) => under(file, from))
        .flatMap((file) => {
          const chain = chainTo(file, (target) => under(target, to), doors);
          return chain ? [`${chain.join(' -> ')} (${why})`] : [];
        }),
    );
    expect(offenders, `imports in a forbidden direction:\n${offenders.join('\n')}`).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file, lines: lineCount(texts.get(file) ?? '') }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long, `files over ${MAX_LINES} lines:\n${long.join('\n')}`).toEqual([]);
  });
  const plainErrors = Object.values(PLAIN_ERRORS).reduce((sum, { count }) => sum + count, 0);
  it(`raises no bare new Error( outside its ${plainErrors} allowed in ${Object.keys(PLAIN_ERRORS).length} files`, () => {
    const offenders = files.flatMap((file) => {
      const found = (texts.get(file) ?? '').match(/\bnew Error\(/g)?.length ?? 0;
      const allowed = PLAIN_ERRORS[file]?.count ?? 0;
      return found === allowed ? [] : [`${file}: ${found} new Error( where ${allowed} are allowed`];
    });
    expect(
      offenders,
      `raise a MastraError through mcpError() (src/errors.ts), or list the file in PLAIN_ERRORS with why:\n${offenders.join('\n')}`,
    ).toEqual([]);
  });

  it(`extends Error (or a built-in or SDK error class) only in its ${Object.keys(ERROR_CLASSES).length} allowed classes`, () => {
    const declared = files.flatMap((file) =>
      [...(texts.get(file) ?? '').matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+([\w.]*Error)\b/g)]
        .filter(([, , base]) => base !== 'MastraError')
        .map(([, name, base]) => ({ key: `${file} ${name}`, base })),
    );
    const offenders = declared
      .filter(({ key }) => !(key in ERROR_CLASSES))
      .map(({ key, base }) => `${key} extends ${base}`);
    const stale = Object.keys(ERROR_CLASSES).filter((key) => !declared.some((entry) => entry.key === key));
    expect(
      [...offenders, ...stale.map((key) => `${key}: listed but not declared`)],
      'extend MastraError with an id from src/errors.ts (mcpErrorDefinition()), or list the class in ERROR_CLASSES with why',
    ).toEqual([]);
  });
});
