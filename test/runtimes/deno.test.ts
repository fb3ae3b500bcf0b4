/**
 * `server.fetch` on Deno (the npm package `deno`): `Deno.serve(options, server.fetch)`, the
 * sources run as they are (`--sloppy-imports` maps their `.js` specifiers to the `.ts` files) with
 * packages from node_modules.
 */
import { describeRuntime, runtimeBinary, startProcess } from './runtime-checks.js';

const deno = runtimeBinary('deno');

describeRuntime('deno', deno !== undefined, () =>
  startProcess(
    deno as string,
    ['run', '--allow-all', '--sloppy-imports', 'test/runtimes/fixtures/deno-server.ts'],
    {
      // No network here: no update check.
      DENO_NO_UPDATE_CHECK: '1',
      DENO_NO_PROMPT: '1',
    },
  ),
);
