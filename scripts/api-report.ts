/**
 * The public API report: what `mastra-mcp`, `mastra-mcp/redis` and `mastra-mcp/server` export, as the built
 * declarations (`dist/main.d.mts`, `dist/main-redis.d.mts` and the chunks they import) declare it.
 * For each entry, the exported names, then every declaration reachable from them (exported or
 * not: a consumer sees both), sorted by name and printed without comments. What the bundler makes
 * up is left out or normalised (chunk file names and their one-letter aliases, `$1` suffixes on
 * renamed imports), so the report changes only when the surface does.
 *
 * `npm run api:update` builds and writes etc/api/*.d.mts; test/e2e/api-report.test.ts compares a
 * fresh report with the checked-in one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/** Report file (under etc/api/) -> the built entry it describes. */
export const API_ENTRIES = {
  'index.d.mts': 'main.d.mts',
  'redis.d.mts': 'main-redis.d.mts',
  'server.d.mts': 'main-server.d.mts',
} as const;

export type ApiReport = Record<keyof typeof API_ENTRIES, string>;

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The names the bundler renamed to avoid clashes (`LoggingLevel$1`) under their own names. */
const unrenamed = (text: string) => text.replace(/\b([A-Za-z_]\w*)\$\d+\b/g, '$1');

/** The statement that declares `declaration` (a variable's is its `declare const ...`). */
function statementOf(declaration: ts.Declaration): ts.Node {
  return ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
}

/** Code-unit order: the same on every machine, whatever its locale. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Whether an export is `export type` (a class exported so has no value at run time). */
function typeOnly(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some(
    (declaration) =>
      ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly),
  );
}

function entryReport(program: ts.Program, entry: string, distDir: string): string {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`api-report: ${entry} has no module symbol (is it built?)`);
  const resolved = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const local = (node: ts.Node) => resolve(node.getSourceFile().fileName).startsWith(distDir);

  const exported: string[] = [];
  const declarations = new Map<ts.Node, string>();
  const pending: ts.Symbol[] = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = resolved(symbol);
    const named = target.name === symbol.name ? symbol.name : `${target.name} as ${symbol.name}`;
    exported.push(typeOnly(symbol) ? `type ${named}` : named);
    pending.push(target);
  }
  const seen = new Set<ts.Symbol>();
  while (pending.length > 0) {
    const symbol = pending.pop() as ts.Symbol;
    if (seen.has(symbol)) continue;
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      const statement = statementOf(declaration);
      // Members are printed with their interface or class; only top-level statements stand alone.
      if (!local(declaration) || statement.parent !== statement.getSourceFile()) continue;
      declarations.set(statement, symbol.name);
      // Every name the declaration mentions that the bundle declares too belongs in the report.
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node)) {
          const mentioned = checker.getSymbolAtLocation(node);
          if (mentioned) pending.push(resolved(mentioned));
        }
        node.forEachChild(visit);
      };
      statement.forEachChild(visit);
    }
  }
  const printed = [...declarations]
    .map(([node, name]) => ({
      name,
      text: unrenamed(printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile())),
    }))
    .sort((a, b) => byText(a.name, b.name) || byText(a.text, b.text));
  return [
    '// The public API of this entry as its built declarations declare it: scripts/api-report.ts',
    '// wrote this file (npm run api:update); review every change to it.',
    `export {\n${exported
      .sort((a, b) => byText(a.split(' ').at(-1) ?? a, b.split(' ').at(-1) ?? b))
      .map((name) => `  ${name},`)
      .join('\n')}\n};`,
    ...printed.map((entry) => entry.text),
    '',
  ].join('\n');
}

/** The report of the build in `distDir`. */
export function apiReport(distDir: string): ApiReport {
  const dir = resolve(distDir);
  const entries = Object.values(API_ENTRIES).map((file) => join(dir, file));
  const program = ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
  });
  const report = {} as ApiReport;
  for (const [name, file] of Object.entries(API_ENTRIES) as Array<[keyof ApiReport, string]>) {
    report[name] = entryReport(program, join(dir, file), dir);
  }
  return report;
}

export const REPORT_DIR = resolve(import.meta.dirname, '../etc/api');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  mkdirSync(REPORT_DIR, { recursive: true });
  for (const [name, text] of Object.entries(apiReport(resolve(import.meta.dirname, '../dist')))) {
    writeFileSync(join(REPORT_DIR, name), text);
    console.log(`wrote etc/api/${name}`);
  }
}
