import { defineConfig } from 'vitest/config';

/**
 * The fast path for people changing code (`npm run test:unit`): every file that needs neither
 * redis-server nor Chromium and runs in a few seconds. `npm test` runs both projects.
 */
const unit = [
  'test/server/server-suspended-calls.test.ts',
  'test/client/client-safe-validator.test.ts',
  'test/client/client-schema-cache.test.ts',
  'test/e2e/architecture.test.ts',
  'test/e2e/events-wire.test.ts',
  'test/e2e/readme.test.ts',
  'test/e2e/error-reference.test.ts',
  'test/client/client-typed.test.ts',
  'test/client/client-catalog.test.ts',
  'test/server/server-mastra.test.ts',
  'test/server/sse.test.ts',
  'test/client/client-agent.test.ts',
  'test/server/server-config.test.ts',
  'test/proxy/proxy-trace.test.ts',
  'test/client/client-allowed-hosts.test.ts',
  'test/e2e/error-messages.test.ts',
  'test/typegen/typegen-convert.test.ts',
  'test/server/http.test.ts',
  'test/client/client-events-signals.test.ts',
  'test/server/hardening-streams.test.ts',
  'test/client/hardening-webhook-replay.test.ts',
  'test/client/client-interop.test.ts',
  'test/client/hardening-client-schemas.test.ts',
  'test/e2e/public-seams.test.ts',
  'test/server/server-options.test.ts',
  'test/client/client-options.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on child processes and sockets: two files at a time halve the wall time on 2 cores.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...unit, 'test/runtimes/**'] },
      },
      // server.fetch on Node (Hono), Bun, Deno and workerd: one server process per runtime, binaries
      // from the npm packages of the same names (scripts/provision-tests.sh checks they run).
      { extends: true, test: { name: 'runtimes', include: ['test/runtimes/**/*.test.ts'] } },
    ],
  },
});
