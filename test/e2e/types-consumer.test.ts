import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackage, builtPackage, root } from '../support/built-package.js';

/**
 * The package as a TypeScript user depends on it: the built declarations (`dist/*.d.mts`, one
 * bundle, so a type it does not export cannot be named by a consumer) and the package layout
 * (`attw`). The build in `dist/` is used when it is newer than every source file (CI builds just
 * before the tests); otherwise the package is built into a temporary directory first
 * (support/built-package.ts).
 */
const run = promisify(execFile);
const fixture = join(root, 'test/fixtures/consumer/exports.ts');

/** A directory holding `package.json` and a current `dist/`; under node_modules so the build's own imports resolve. */
let packageDir = root;
let scratch: string;
let built: BuiltPackage | undefined;

beforeAll(async () => {
  built = await builtPackage('types-consumer');
  packageDir = built.dir;
  scratch = built.scratch;
}, 120_000);

afterAll(() => built?.dispose());

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
    // A whole TypeScript program: seconds when idle, far more on a loaded machine.
  }, 120_000);

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
