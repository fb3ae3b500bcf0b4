import { defineConfig } from 'tsdown';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'node',
    target: 'node20',
    clean: true,
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
