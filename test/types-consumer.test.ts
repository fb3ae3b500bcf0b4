import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a TypeScript user depends on it: the built declarations (`dist/*.d.mts`, one
 * bundle, so a type it does not export cannot be named by a consumer) and the package layout
 * (`attw`). The build in `dist/` is used when it is newer than every source file (CI builds just
 * before the tests); otherwise the package is built into a temporary directory first.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');
const fixture = join(root, 'test/fixtures/consumer/exports.ts');

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestSource(join(path, entry))));
}

function distIsFresh(): boolean {
  const types = join(root, 'dist/index.d.mts');
  if (!existsSync(types)) return false;
  const inputs = ['src', 'package.json', 'tsdown.config.ts'].map((path) => newestSource(join(root, path)));
  return statSync(types).mtimeMs > Math.max(...inputs);
}

/** A directory holding `package.json` and a current `dist/`; under node_modules so the build's own imports resolve. */
let packageDir = root;
let scratch: string;

beforeAll(async () => {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  scratch = mkdtempSync(join(root, 'node_modules/.cache/types-consumer-'));
  if (!distIsFresh()) {
    packageDir = join(scratch, 'package');
    mkdirSync(packageDir);
    copyFileSync(join(root, 'package.json'), join(packageDir, 'package.json'));
    await run('npx', ['tsdown', '--out-dir', join(packageDir, 'dist')], { cwd: root });
  }
}, 120_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Compiles the consumer fixture with declarations on, `mastra-mcp` mapped to the built types. */
function compileConsumer(): { files: string[]; diagnostics: string[]; declarations: string } {
  const program = ts.createProgram([fixture], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    outDir: join(scratch, 'consumer-out'),
    rootDir: join(root, 'test/fixtures/consumer'),
    paths: { 'mastra-mcp': [join(packageDir, 'dist/index.d.mts')] },
  });
  let declarations = '';
  const emitted = program.emit(undefined, (fileName, text) => {
    if (fileName.endsWith('exports.d.ts')) declarations = text;
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((diagnostic) =>
    ts.formatDiagnostic(diagnostic, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    }),
  );
  return { files: program.getSourceFiles().map((file) => file.fileName), diagnostics, declarations };
}

describe('the package as a TypeScript dependency', () => {
  it('lets a consumer export every public MCPClient and MCPServer result with declaration: true', () => {
    const { files, diagnostics, declarations } = compileConsumer();
    // The built declarations were used, not the sources.
    expect(files).toContain(join(packageDir, 'dist/index.d.mts'));
    expect(files.filter((file) => file.startsWith(join(root, 'src/')))).toEqual([]);
    expect(diagnostics).toEqual([]);
    // Results carry their names (what an editor shows on hover), not structural expansions.
    expect(declarations).toContain('resourceRead: Promise<import("mastra-mcp").MCPReadResourceResult>');
    expect(declarations).toContain(
      'resourceListWithErrors: Promise<import("mastra-mcp").MCPResourcesWithErrors>',
    );
    expect(declarations).toContain(
      'toolsWithErrors: Promise<import("mastra-mcp").MCPToolsWithErrors<never>>',
    );
    expect(declarations).toContain(
      'toolDefinitionsWithErrors: Promise<import("mastra-mcp").MCPToolDefinitionsWithErrors>',
    );
    expect(declarations).toContain('prompt: Promise<import("mastra-mcp").MCPGetPromptResult>');
    expect(declarations).toContain('resources: import("mastra-mcp").MCPClientResources');
    expect(declarations).toContain('untypedExecute(context: ToolExecutionContext): Promise<unknown>');
    expect(declarations).toContain(
      'serverInfo: Record<string, import("mastra-mcp").MCPServerImplementation | undefined>',
    );
    expect(declarations).toContain('delivery: import("mastra-mcp").MCPEventDeliveryMode[]');
    // Nothing reaches into the build's hashed chunks, and nothing is `any`.
    expect(declarations).not.toMatch(/import\("\./);
    expect(declarations).not.toMatch(/[:<(,|&]\s*any\b/);
  });

  it('passes arethetypeswrong for Node 16 ESM and CommonJS consumers', async () => {
    const result = await run(
      'npx',
      ['attw', '--pack', packageDir, '--profile', 'node16', '--format', 'json'],
      {
        cwd: root,
        // attw runs `npm pack`, whose prepack would rebuild (and first wipe) the dist/ being checked.
        env: { ...process.env, npm_config_ignore_scripts: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
    const report = JSON.parse(result.stdout || '{}') as {
      analysis?: { problems?: Array<{ resolutionKind?: string }> };
    };
    // The JSON lists every resolution's problems; the node16 profile (the exit code) leaves node10 out.
    const problems = report.analysis?.problems?.filter((problem) => problem.resolutionKind !== 'node10');
    expect(problems, 'stderr' in result ? result.stderr : '').toEqual([]);
    expect('code' in result ? result.code : 0).toBe(0);
  }, 60_000);
});
