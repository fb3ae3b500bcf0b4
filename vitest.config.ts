import { defineConfig } from 'vitest/config';

/**
 * The fast path for people changing code (`npm run test:unit`): tests of logic with no socket and
 * no child process (no HTTP listener, no stdio server, no redis-server, no Chromium). test/unit/
 * holds the direct and in-process tests (test/support/in-process.ts links client and server in
 * memory); the other entries are older files of the same kind. test/unit/unit-project.unit.test.ts
 * fails when a file here opens a socket or starts a process. `npm test` runs every project.
 */
export const unitFiles = [
  'test/unit/**/*.test.ts',
  'test/server/server-suspended-calls.test.ts',
  'test/client/client-safe-validator.test.ts',
  'test/client/client-schema-cache.test.ts',
  'test/e2e/architecture.test.ts',
  'test/e2e/events-wire.test.ts',
  'test/e2e/readme.test.ts',
  'test/e2e/error-reference.test.ts',
  'test/typegen/typegen-convert.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on child processes and sockets: two files at a time halve the wall time on 2 cores.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: unitFiles } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...unitFiles, 'test/runtimes/**'],
        },
      },
      // server.fetch on Node (Hono), Bun, Deno and workerd: one server process per runtime, binaries
      // from the npm packages of the same names (scripts/provision-tests.sh checks they run).
      { extends: true, test: { name: 'runtimes', include: ['test/runtimes/**/*.test.ts'] } },
    ],
  },
});
