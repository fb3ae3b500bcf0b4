/** `server.fetch` on Bun (the npm package `bun`): `Bun.serve({ fetch: server.fetch })`, TypeScript run as it is. */
import { describeRuntime, runtimeBinary, startProcess } from './runtime-checks.js';

const bun = runtimeBinary('bun');

describeRuntime('bun', bun !== undefined, () =>
  startProcess(bun as string, ['run', 'test/runtimes/fixtures/bun-server.ts'], { DO_NOT_TRACK: '1' }),
);
