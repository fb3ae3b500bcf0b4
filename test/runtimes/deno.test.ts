/**
 * `server.fetch` on Deno (the npm package `deno`): `Deno.serve(options, server.fetch)` run with
 * the network permission (and OTEL_* for the fixture's OpenTelemetry SDK), as docs/runtimes.md
 * runs it. The fixtures run as they are (`--sloppy-imports` maps their `.js` specifiers to the
 * `.ts` files), with an import map that swaps their import of the sources for the built package's
 * entry point, peer check and all.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtPackage } from '../support/built-package.js';
import { describeRuntime, ROOT, runtimeBinary, startProcess } from './runtime-checks.js';

const deno = runtimeBinary('deno');

describeRuntime('deno', deno !== undefined, async () => {
  const built = await builtPackage('deno');
  const importMap = join(built.scratch, 'import-map.json');
  const sources = pathToFileURL(join(ROOT, 'src/index.js')).href;
  writeFileSync(
    importMap,
    JSON.stringify({ imports: { [sources]: pathToFileURL(join(built.dir, 'dist/index.mjs')).href } }),
  );
  const served = await startProcess(
    deno as string,
    [
      'run',
      '--allow-net=127.0.0.1',
      // For the OpenTelemetry SDK the fixture uses, which reads its OTEL_* settings; the package reads none.
      '--allow-env=OTEL_*',
      `--import-map=${importMap}`,
      '--sloppy-imports',
      'test/runtimes/fixtures/deno-server.ts',
    ],
    {
      // No network here: no update check.
      DENO_NO_UPDATE_CHECK: '1',
      DENO_NO_PROMPT: '1',
    },
  );
  return {
    url: served.url,
    stop: async () => {
      await served.stop();
      built.dispose();
    },
  };
});
