/**
 * `server.fetch` on workerd, Cloudflare's Workers runtime, through Miniflare (the npm package
 * `miniflare`): fixtures/worker-server.ts bundled by esbuild as Wrangler would (Node built-ins
 * left to `nodejs_compat`; `require` of them through `createRequire`, which CommonJS dependencies
 * of @mastra/core need) and served on 127.0.0.1. It bundles the built package, entry point and
 * all, as a user's Worker does: the entry's peer check once stopped a Worker at start-up.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { builtPackage } from '../support/built-package.js';
import { describeRuntime, hasPackage, ROOT } from './runtime-checks.js';

/** The compatibility date and flags a Worker built today would have. */
const COMPATIBILITY = { compatibilityDate: '2026-07-01', compatibilityFlags: ['nodejs_compat'] };

/** Resolves the fixtures' import of the sources to the built package's entry point instead. */
function builtEntry(dir: string): Plugin {
  return {
    name: 'built-mastra-mcp',
    setup(bundle) {
      bundle.onResolve({ filter: /\/src\/index\.js$/ }, () => ({ path: join(dir, 'dist/index.mjs') }));
    },
  };
}

describeRuntime('workerd', hasPackage('miniflare'), async () => {
  const built = await builtPackage('workerd');
  const outdir = join(ROOT, 'node_modules/.cache/runtimes');
  await mkdir(outdir, { recursive: true });
  const outfile = join(outdir, 'worker.mjs');
  await build({
    entryPoints: [join(ROOT, 'test/runtimes/fixtures/worker-server.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: ['worker', 'browser'],
    // The browser builds of dependencies that have one (the OpenTelemetry SDK's), as Worker bundlers pick.
    mainFields: ['browser', 'module', 'main'],
    outfile,
    logLevel: 'silent',
    plugins: [builtEntry(built.dir)],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire('/');",
    },
  });
  const { Miniflare } = await import('miniflare');
  const worker = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: await readFile(outfile, 'utf8') }],
    ...COMPATIBILITY,
  });
  const base = await worker.ready;
  return {
    url: new URL('/mcp', base),
    stop: async () => {
      await worker.dispose();
      built.dispose();
    },
  };
});
