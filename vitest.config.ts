import { defineConfig } from 'vitest/config';

/**
 * The fast path for people changing code (`npm run test:unit`): every file that needs neither
 * redis-server nor Chromium and runs in a few seconds. `npm test` runs both projects.
 */
const unit = [
  'test/server-suspended-calls.test.ts',
  'test/client-safe-validator.test.ts',
  'test/client-schema-cache.test.ts',
  'test/architecture.test.ts',
  'test/events-wire.test.ts',
  'test/readme.test.ts',
  'test/client-typed.test.ts',
  'test/client-catalog.test.ts',
  'test/server-mastra.test.ts',
  'test/sse.test.ts',
  'test/client-agent.test.ts',
  'test/server-config.test.ts',
  'test/proxy-trace.test.ts',
  'test/client-allowed-hosts.test.ts',
  'test/error-messages.test.ts',
  'test/typegen-convert.test.ts',
  'test/http.test.ts',
  'test/client-events-signals.test.ts',
  'test/hardening-streams.test.ts',
  'test/hardening-webhook-replay.test.ts',
  'test/client-interop.test.ts',
  'test/hardening-client-schemas.test.ts',
  'test/public-seams.test.ts',
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
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: unit },
      },
    ],
  },
});
