import { defineConfig } from 'tsdown';
import { entryWrappers } from './scripts/entry-wrappers.ts';

export default defineConfig([
  {
    // main.* is the package; main-redis.* is `mastra-mcp/redis` (src/redis/index.ts): apart so that the
    // main entry loads none of it; main-server.* is `mastra-mcp/server` (src/server-entry.ts), the
    // server side alone. The published index.*, redis.* and server.* are wrappers that check the
    // @mastra/core peer first (scripts/entry-wrappers.ts, src/shared/peer-check.ts).
    entry: { main: 'src/index.ts', 'main-redis': 'src/redis/index.ts', 'main-server': 'src/server-entry.ts' },
    // The bundler's runtime helpers get a chunk of their own: left in main.cjs, every shared chunk
    // required main.cjs, and require('mastra-mcp/redis') met main half-loaded through that cycle.
    outputOptions: { codeSplitting: { groups: [{ name: 'runtime', test: /rolldown[\\/]runtime/ }] } },
    plugins: [entryWrappers({ main: 'index', 'main-redis': 'redis', 'main-server': 'server' })],
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'node',
    target: 'node20',
    clean: true,
  },
  {
    // The peer check alone: built apart so that it shares no chunk with (and loads nothing of) main.
    entry: { 'peer-check': 'src/shared/peer-check.ts' },
    format: ['esm', 'cjs'],
    dts: false,
    platform: 'node',
    target: 'node20',
    clean: false,
  },
  {
    // The `mastra-mcp` bin: ESM only (it needs import.meta.url); the shebang is kept and the file made executable.
    entry: { cli: 'src/typegen/cli.ts' },
    format: ['esm'],
    dts: false,
    platform: 'node',
    target: 'node20',
    clean: false,
  },
]);
