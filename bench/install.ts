/**
 * What every install of mastra-mcp pays, measured on the built package (run `npm run build` first):
 *   1. `import()` time and RSS of the package entries next to `@mastra/core/tools` (what any
 *      Mastra app loads anyway) and a process that imports nothing, each in a fresh `node`
 *      child (medians of --runs), and each entry against the SDK entries it stands on (issue 32:
 *      `mastra-mcp` against the tools, SDK client and SDK server entries, `mastra-mcp/server`
 *      against the tools and SDK server entries); `mastra-mcp/redis` and what the main entry leaves to the first
 *      legacy SSE connection (the deprecated SDK package, Hono's streaming helper) on top of it;
 *      and a floor: the main entry with the SDK entries and `@mastra/core`'s logger, observability
 *      and signals replaced by empty modules (bench/fixtures/stub-imports.mjs), which is what
 *      loading every one of them on first use instead could at best reach;
 *   2. the packed tarball installed from the registry into an empty app: without its peers
 *      (`--omit=peer`), with them, and the peers alone (`@mastra/core`, `zod`): disk (`du -sk
 *      node_modules`) and packages (entries of node_modules/.package-lock.json).
 *
 *   npx tsx bench/install.ts   (flags: --runs <n>, --no-install to skip 2)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { installApp, median, packTarball } from './support.js';

const { values: flags } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, 'no-install': { type: 'boolean', default: false } },
});
const RUNS = Number(flags.runs);
const repo = fileURLToPath(new URL('..', import.meta.url));

/** What the floor row replaces with empty modules. */
const STUBBED = [
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/core',
  '@mastra/core/logger',
  '@mastra/core/observability',
  '@mastra/core/signals',
];

/** Each stubbed module's export names, read here so the measured process never loads it. */
async function stubExports(): Promise<string> {
  const names: Record<string, string[]> = {};
  for (const specifier of STUBBED) names[specifier] = Object.keys(await import(specifier));
  return JSON.stringify(names);
}

/**
 * Imports `specifiers` in order in a fresh process started in the repository (so `mastra-mcp` is
 * dist/); with `stubs`, the modules it names load as empty modules.
 */
function importOnce(specifiers: readonly string[], stubs?: string): { ms: number; rssMb: number } {
  const code = `
const start = performance.now();
for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);
const ms = performance.now() - start;
console.log(JSON.stringify({ ms, rssMb: process.memoryUsage().rss / 2 ** 20 }));`;
  const hooks = stubs ? ['--import', './bench/fixtures/stub-imports.mjs'] : [];
  const out = execFileSync(process.execPath, [...hooks, '--input-type=module', '-e', code], {
    cwd: repo,
    encoding: 'utf8',
    env: stubs ? { ...process.env, STUB_EXPORTS: stubs } : process.env,
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

const stubs = await stubExports();
const imports: [string, string[], string?][] = [
  ['nothing (node alone)', []],
  ['@mastra/core/tools', ['@mastra/core/tools']],
  ['mastra-mcp', ['mastra-mcp']],
  ['@mastra/core/tools, then the SDK client entry', ['@mastra/core/tools', '@modelcontextprotocol/client']],
  ['@mastra/core/tools, then the SDK server entry', ['@mastra/core/tools', '@modelcontextprotocol/server']],
  [
    '@mastra/core/tools, then the SDK client and server entries',
    ['@mastra/core/tools', '@modelcontextprotocol/client', '@modelcontextprotocol/server'],
  ],
  ['mastra-mcp/server', ['mastra-mcp/server']],
  ['mastra-mcp, then mastra-mcp/redis', ['mastra-mcp', 'mastra-mcp/redis']],
  [
    'mastra-mcp, then what startSSE/startHonoSSE load',
    ['mastra-mcp', '@modelcontextprotocol/server-legacy/sse', 'hono/streaming'],
  ],
  ['@mastra/core/tools, SDK and logger/observability/signals stubbed', ['@mastra/core/tools'], stubs],
  ['mastra-mcp, SDK and logger/observability/signals stubbed (floor)', ['mastra-mcp'], stubs],
];

console.log(`import() in a fresh process, median of ${RUNS} (rounds interleaved)`);
const samples = imports.map(() => ({ ms: [] as number[], rss: [] as number[] }));
for (let round = 0; round < RUNS; round++) {
  for (const [index, [, specifiers, stubbed]] of imports.entries()) {
    const { ms, rssMb } = importOnce(specifiers, stubbed);
    samples[index]?.ms.push(ms);
    samples[index]?.rss.push(rssMb);
  }
}
const tools = median(samples[1]?.ms ?? []);
for (const [index, [label]] of imports.entries()) {
  const sample = samples[index];
  if (!sample) continue;
  const ms = median(sample.ms);
  // The floor row compares with @mastra/core/tools under the same hooks (they slow every import).
  const base = imports[index]?.[2] ? median(samples[imports.length - 2]?.ms ?? []) : tools;
  const versus = index > 1 ? `  ${(ms / base).toFixed(2)}x @mastra/core/tools` : '';
  console.log(
    `  ${label.padEnd(66)} ${ms.toFixed(0).padStart(5)} ms  RSS ${median(sample.rss).toFixed(1).padStart(6)} MB${versus}`,
  );
}

/** Row `label`'s median against row `base`'s: each entry against the SDK entries it stands on. */
const against = (label: string, base: string) => {
  const of = (name: string) => median(samples[imports.findIndex(([row]) => row === name)]?.ms ?? []);
  console.log(`  ${label} against ${base}: ${(of(label) / of(base)).toFixed(2)}x`);
};
against('mastra-mcp', '@mastra/core/tools, then the SDK client and server entries');
against('mastra-mcp/server', '@mastra/core/tools, then the SDK server entry');

if (!flags['no-install']) {
  const work = mkdtempSync(join(tmpdir(), 'mastra-mcp-install-'));
  try {
    const tarball = packTarball(work);
    console.log(
      `\n${tarball.filename}: ${(tarball.size / 1024).toFixed(0)} kB packed, ${(tarball.unpackedSize / 1024).toFixed(0)} kB unpacked, ${tarball.entryCount} files`,
    );
    const install = (label: string, args: string[]) => {
      const app = installApp(work, label.replace(/\W+/g, '-'), args);
      const kb = Number(
        execFileSync('du', ['-sk', 'node_modules'], { cwd: app, encoding: 'utf8' }).split('\t')[0],
      );
      const lock = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')) as {
        packages: Record<string, unknown>;
      };
      const count = Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/')).length;
      console.log(
        `  ${label.padEnd(40)} ${(kb / 1024).toFixed(1).padStart(6)} MB  ${String(count).padStart(4)} packages`,
      );
    };
    const tgz = tarball.path;
    console.log(
      'installed into an empty app (du -sk node_modules; packages in node_modules/.package-lock.json)',
    );
    install('mastra-mcp, --omit=peer', ['--omit=peer', tgz]);
    install('mastra-mcp with its peers', [tgz, '@mastra/core@1.71.0', 'zod@^4']);
    install('the peers alone (@mastra/core, zod)', ['@mastra/core@1.71.0', 'zod@^4']);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
