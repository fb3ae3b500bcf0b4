/**
 * The shape of src/, checked on every run: no import cycle (type-only and dynamic imports count,
 * since they still fix the order a reader must learn the modules in), no forbidden direction
 * between its parts, and no file too long to read in one sitting. Imports are read with
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
 * Directions between parts that no import may take: a file under `from` importing one under `to`
 * (folders, or single files, relative to src/), unless it is the `door` file of `to`. Add a row when a seam is in
 * place; every row must hold today.
 */
const FORBIDDEN: readonly { from: string; to: string; door?: string; why: string }[] = [
  { from: 'client', to: 'server', why: 'a client hosts no MCP traffic; the proxies in proxy/ do' },
  {
    from: 'proxy',
    to: 'server',
    door: 'server/hosting.ts',
    why: 'the proxy reaches the server only through its hosting door',
  },
  {
    from: 'index.ts',
    to: 'compat',
    door: 'compat/index.ts',
    why: 'the public entry takes the compat shims through their one door',
  },
  // Every part of src/ but the compat room itself and the public entry, which exports from its door.
  ...readdirSync(src)
    .filter((part) => part !== 'compat' && part !== 'index.ts')
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

  it('has no import in a forbidden direction', () => {
    const under = (file: string, part: string) => file === part || file.startsWith(`${part}/`);
    const offenders = FORBIDDEN.flatMap(({ from, to, door, why }) =>
      [...imports]
        .filter(([file]) => under(file, from))
        .flatMap(([file, targets]) =>
          targets
            .filter((target) => under(target, to) && target !== door)
            .map((target) => `${file} -> ${target} (${why})`),
        ),
    );
    expect(offenders).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file, lines: lineCount(texts.get(file) ?? '') }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long, `files over ${MAX_LINES} lines:\n${long.join('\n')}`).toEqual([]);
  });
});
