/**
 * The package as a user installs it: what `npm pack` puts in the tarball, and the built entry
 * points (`dist/`, through the package name and its exports map: `.`, `./redis` and `./server`) in both module systems,
 * including the import-time check of the @mastra/core peer against a fake installed 0.x.
 *
 * CI runs `npm run build` before `npm test`; run alone on a fresh checkout, this file builds first
 * (dist/index.mjs missing) rather than checking an empty tarball.
 */

import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSupportedMastraCore, MASTRA_CORE_RANGE } from '../../src/shared/peer-check.js';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  exports: unknown;
  main: string;
  module: string;
  types: string;
  bin: Record<string, string>;
};
const run = promisify(execFile);
const temps: string[] = [];

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.mjs'))) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore', timeout: 300_000 });
  }
}, 300_000);

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Every file path that package.json's entry fields and exports map name. */
function declaredFiles(): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') found.push(value.replace(/^\.\//, ''));
    else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v);
  };
  walk([pkg.exports, pkg.main, pkg.module, pkg.types, pkg.bin]);
  return [...new Set(found)];
}

describe('npm pack', () => {
  it('ships the built entry points, their types, the CLI, LICENSE and README, and nothing else', async () => {
    // --ignore-scripts: prepack would rebuild dist, already built above (or by CI).
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
    const [report] = JSON.parse(stdout) as [{ files: { path: string; mode: number }[] }];
    const files = new Map(report.files.map((file) => [file.path, file]));
    const paths = [...files.keys()];

    for (const path of ['LICENSE', 'README.md', 'package.json', ...declaredFiles()]) {
      expect(paths, `tarball lacks ${path}`).toContain(path);
    }
    for (const path of ['dist/index.mjs', 'dist/index.cjs', 'dist/index.d.mts', 'dist/index.d.cts']) {
      expect(paths).toContain(path);
    }
    const strays = paths.filter(
      (path) =>
        !['LICENSE', 'README.md', 'package.json'].includes(path) &&
        !/^dist\/[\w.-]+\.(mjs|cjs|d\.mts|d\.cts)$/.test(path),
    );
    expect(strays, 'files users do not need (sources, tests, maps, temp files)').toEqual([]);

    const cli = pkg.bin['mastra-mcp']?.replace(/^\.\//, '') ?? '';
    expect(readFileSync(join(root, cli), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect((files.get(cli)?.mode ?? 0) & 0o111, `${cli} is not executable in the tarball`).not.toBe(0);
  });
});

/**
 * A project directory whose node_modules/mastra-mcp is this package: a symlink for the real
 * @mastra/core, or a copy beside a fake @mastra/core of version `core` (none when null).
 */
function project(core: 'real' | string | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'mastra-mcp-install-'));
  temps.push(dir);
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  if (core === 'real') {
    // Node follows the link to the real path, where the dev dependencies (@mastra/core 1.71) resolve.
    symlinkSync(root, join(modules, 'mastra-mcp'), 'dir');
    return dir;
  }
  // A copy, so that @mastra/core resolves from this project only: the fake one, or none at all.
  const copy = join(modules, 'mastra-mcp');
  mkdirSync(copy);
  cpSync(join(root, 'package.json'), join(copy, 'package.json'));
  cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
  if (core !== null) {
    mkdirSync(join(modules, '@mastra/core'), { recursive: true });
    writeFileSync(
      join(modules, '@mastra/core/package.json'),
      JSON.stringify({ name: '@mastra/core', version: core, main: 'dist/index.js' }),
    );
  }
  return dir;
}

/** The public entry points, each with one class it exports. */
const entries = [
  ['mastra-mcp', 'MCPServer'],
  ['mastra-mcp/redis', 'RedisMCPEventStore'],
  ['mastra-mcp/server', 'MCPServer'],
] as const;

/**
 * Loads `specifier` in a child `node` from `cwd`, by import() or require(); resolves with what it
 * printed: the type of the export `name`, or the error message.
 */
async function load(
  cwd: string,
  how: 'import' | 'require',
  [specifier, name]: (typeof entries)[number],
): Promise<{ ok: boolean; out: string }> {
  const fail = '(e) => { console.log(e.message); process.exit(1); }';
  const script =
    how === 'import'
      ? `import('${specifier}').then((m) => console.log(typeof m.${name}), ${fail})`
      : `try { console.log(typeof require('${specifier}').${name}); } catch (e) { (${fail})(e); }`;
  try {
    const { stdout } = await run(process.execPath, ['-e', script], { cwd });
    return { ok: true, out: stdout.trim() };
  } catch (error) {
    return { ok: false, out: String((error as { stdout?: string }).stdout ?? error).trim() };
  }
}

describe('the CJS build', () => {
  it('loads what it defers with require() of its own chunks, never import() of a dependency (one copy of each SDK package)', () => {
    const files = readdirSync(join(root, 'dist')).filter((file) => file.endsWith('.cjs'));
    const deferred = files.flatMap((file) =>
      [...readFileSync(join(root, 'dist', file), 'utf8').matchAll(/\bimport\((["'])([^"']+)\1\)/g)].map(
        (match) => `${file}: import('${match[2]}')`,
      ),
    );
    expect(files.length).toBeGreaterThan(3);
    expect(deferred.filter((line) => !/import\('\.\//.test(line))).toEqual([]);
    // The chunks the lazy loaders name exist and are required, not imported.
    expect(files.some((file) => /^sdk-stdio-server-.*\.cjs$/.test(file))).toBe(true);
  });
});

describe('the built package through its name', () => {
  for (const how of ['import', 'require'] as const) {
    for (const entry of entries) {
      it(`${how}('${entry[0]}') loads with a supported @mastra/core`, async () => {
        expect(await load(project('real'), how, entry)).toEqual({ ok: true, out: 'function' });
      });

      it(`${how}('${entry[0]}') names the installed and the required @mastra/core when it is 0.x`, async () => {
        const { ok, out } = await load(project('0.24.0'), how, entry);
        expect(ok).toBe(false);
        expect(out).toContain(
          `mastra-mcp needs @mastra/core ${MASTRA_CORE_RANGE}, but @mastra/core 0.24.0 is installed`,
        );
        expect(out).toContain('npm install @mastra/core@^1.71.0');
      });
    }

    it(`${how}('mastra-mcp') says to install @mastra/core when it is missing`, async () => {
      const { ok, out } = await load(project(null), how, entries[0]);
      expect(ok).toBe(false);
      expect(out).toContain(
        `needs its peer dependency @mastra/core ${MASTRA_CORE_RANGE}, which is not installed`,
      );
    });
  }
});

describe('the supported @mastra/core range', () => {
  it('is the peerDependencies range', () => {
    expect(MASTRA_CORE_RANGE).toBe(pkg.peerDependencies['@mastra/core']);
  });

  it('accepts 1.68.0 up to any 1.x and refuses older and 2.x', () => {
    for (const version of ['1.68.0', '1.71.0', '1.100.2']) {
      expect(isSupportedMastraCore(version), version).toBe(true);
    }
    for (const version of ['0.24.0', '1.67.9', '1.9.0', '2.0.0', 'latest']) {
      expect(isSupportedMastraCore(version), version).toBe(false);
    }
  });
});

describe('mastra-mcp/server', () => {
  /**
   * The modules a child `node` loads for `script`, in order: an ESM loader hook appends each URL it
   * loads to `loaded.log` before loading it (a synchronous append, so a line `script` appends there
   * itself falls in its place).
   */
  async function loadedBy(script: string, dir = project('real')): Promise<string[]> {
    writeFileSync(
      join(dir, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\n" +
        'export async function load(url, context, next) { appendFileSync("loaded.log", url + "\\n"); return next(url, context); }\n',
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      "import { register } from 'node:module'; register('./hooks.mjs', import.meta.url);\n",
    );
    writeFileSync(join(dir, 'main.mjs'), script);
    await run(process.execPath, ['--import', './register.mjs', 'main.mjs'], { cwd: dir });
    return readFileSync(join(dir, 'loaded.log'), 'utf8').split('\n').filter(Boolean);
  }

  it('exports the package entry’s own MCPServer, and a served tool works through it', async () => {
    const dir = project('real');
    // The app's own dependencies, as an app has them installed beside the package.
    for (const name of ['@mastra', 'zod'])
      symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    const script = `
      import { MCPServer } from 'mastra-mcp/server';
      import * as whole from 'mastra-mcp';
      import { createTool } from '@mastra/core/tools';
      import { z } from 'zod';
      const server = new MCPServer({ name: 's', version: '1.0.0', tools: {
        echo: createTool({ id: 'echo', description: 'Echoes', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }),
      } });
      const result = await server.executeTool('echo', { text: 'hi' });
      console.log(JSON.stringify({ same: MCPServer === whole.MCPServer, result }));
    `;
    writeFileSync(join(dir, 'main.mjs'), script);
    const { stdout } = await run(process.execPath, ['main.mjs'], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({ same: true, result: 'hi' });
  });

  it('loads nothing of the client side: not the SDK’s client, not Mastra’s signals or observability', async () => {
    const loaded = await loadedBy(
      "import { MCPServer } from 'mastra-mcp/server';\nconsole.log(typeof MCPServer);\n",
    );
    expect(loaded.some((url) => url.includes('/dist/main-server.mjs'))).toBe(true);
    const clientSide = loaded.filter((url) =>
      /@modelcontextprotocol\/client\/|@mastra\/core\/dist\/(signals|observability)\/|\/dist\/main\.mjs$/.test(
        url,
      ),
    );
    expect(clientSide).toEqual([]);
  });

  it('the package entry loads the SDK’s client with the first connect, not with the import', async () => {
    const dir = project('real');
    writeFileSync(
      join(dir, 'server.mjs'),
      "import { MCPServer } from 'mastra-mcp/server';\n" +
        "await new MCPServer({ name: 's', version: '1.0.0', tools: {} }).startStdio();\n",
    );
    // A marker line between the import and the connect splits the loaded URLs in two.
    const loaded = await loadedBy(
      `
      import { appendFileSync } from 'node:fs';
      import { MCPClient } from 'mastra-mcp';
      appendFileSync('loaded.log', '--- connect\\n');
      const mcp = new MCPClient({ servers: { s: { command: process.execPath, args: ['server.mjs'] } } });
      if (Object.keys(await mcp.listTools()).length !== 0) throw new Error('expected no tools');
      await mcp.disconnect();
    `,
      dir,
    );
    const marker = loaded.indexOf('--- connect');
    expect(marker).toBeGreaterThan(0);
    const sdkClient = (url: string) => url.includes('@modelcontextprotocol/client/');
    expect(loaded.slice(0, marker).filter(sdkClient)).toEqual([]);
    expect(loaded.slice(marker).some(sdkClient)).toBe(true);
  });
});
