/**
 * MCPClient benchmark, every figure a ratio measured in the same run:
 *   1. per-call latency and client CPU of a tool call over stdio and Streamable HTTP (2026-07-28):
 *      MCPClient's tool against the raw SDK `Client.callTool()` on the same server, called directly
 *      and through the wrapper a Mastra Agent puts around every tool, each client in its own
 *      process (bench/fixtures/call-latency.ts), rounds rotating the order; ratios are medians
 *      over rounds of each round's figure against the baseline's in the same round; the client's
 *      CPU is its process's and its main thread's alone (V8 compiles and collects on other threads);
 *   2. cold `listTools()` over 20 HTTP servers against a single one (are they truly concurrent?),
 *      with the raw SDK doing the same beside it, at several simulated round-trip latencies:
 *      on loopback every connection is pure CPU, which one event loop cannot overlap;
 *   3. cold `listTools()` over 20 stdio servers against the floor of merely starting the same 20
 *      processes concurrently without MCP;
 *   4. client heap retained per connected server (needs --expose-gc, which `npm run bench:client` passes).
 * The servers are the raw SDK's McpServer (bench/fixtures/echo-server.mjs) in child processes.
 *
 *   npm run bench:client    (flags: --calls <n> per round, --warmup <n>, --rounds <n>, --servers <n>,
 *                            --latencies <ms,ms,...> for the HTTP fan-out, default 0,25,50,100,
 *                            --sections calls,http,stdio: which of 1, 2+4 and 3 to run,
 *                            --transports stdio,http: the transports of 1,
 *                            --revisions 2026-07-28,2025-11-25: the servers' revisions in 1 (default the first),
 *                            --pin <cpu>: each client process of 1 and the stdio server it spawns pinned
 *                            together to that CPU with `taskset`, as a host's one-core container runs them,
 *                            --packed: 1 imports the package and the SDK client from an app that installed
 *                            the packed tarball from the registry, as a consumer's app does)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type MastraMCPServerDefinition, MCPClient } from '../src/index.js';
import {
  installApp,
  MODERN,
  median,
  ms,
  packTarball,
  percentile,
  ratio,
  spawnHttpServers,
  stop,
} from './support.js';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    servers: { type: 'string', default: '20' },
    latencies: { type: 'string', default: '0,25,50,100' },
    sections: { type: 'string', default: 'calls,http,stdio' },
    transports: { type: 'string', default: 'stdio,http' },
    revisions: { type: 'string', default: MODERN },
    pin: { type: 'string' },
    packed: { type: 'boolean', default: false },
  },
});
const CALLS = Number(flags.calls);
const WARMUP = Number(flags.warmup);
const ROUNDS = Number(flags.rounds);
const SERVERS = Number(flags.servers);
const LATENCIES = flags.latencies.split(',').map(Number);
const SECTIONS = new Set(flags.sections.split(','));
const ECHO = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));
const require = createRequire(import.meta.url);

const httpEchoServers = (count: number, latency = 0) =>
  spawnHttpServers(ECHO, ['--http', String(count), String(latency)]);

const CALL_LATENCY = fileURLToPath(new URL('./fixtures/call-latency.ts', import.meta.url));
const VARIANTS = ['sdk', 'sdk-tool', 'mcp', 'sdk-agent', 'mcp-agent'] as const;
type Variant = (typeof VARIANTS)[number];

/**
 * With --packed, an app that installed the packed tarball (and the peers this repository runs) from
 * the registry, and in it bench/fixtures/built-entry.mjs's exports resolved by package name. The
 * module sits in the app's node_modules because tsx maps 'mastra-mcp' through tsconfig's paths for
 * any importer outside node_modules.
 */
function packedConsumer(): { entry: string; work: string } {
  const work = mkdtempSync(join(tmpdir(), 'mastra-mcp-client-bench-'));
  const tarball = packTarball(work);
  const peers = ['@mastra/core', 'zod'].map(
    (name) => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`,
  );
  const app = installApp(work, 'consumer', [tarball.path, ...peers]);
  const dir = join(app, 'node_modules', 'bench-client-entry');
  mkdirSync(dir);
  const entry = join(dir, 'index.mjs');
  writeFileSync(
    entry,
    [
      "export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
      "export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';",
      "export const loadPackage = () => import('mastra-mcp');",
      "export const packageUrl = import.meta.resolve('mastra-mcp');",
    ].join('\n'),
  );
  console.log(`(--packed: ${tarball.filename} and ${peers.join(', ')} installed in ${app})`);
  return { entry: pathToFileURL(entry).href, work };
}

/**
 * One client variant in a fresh process (bench/fixtures/call-latency.ts): its call times and CPU.
 * With `--pin`, `taskset` starts it on that CPU alone, and the stdio server it spawns inherits it.
 */
async function runVariant(
  variant: Variant,
  where: string,
  revision: string,
): Promise<{ times: number[]; cpuUs: number; mainCpuUs: number | null }> {
  const args = ['--import', 'tsx', CALL_LATENCY, variant, where, String(CALLS), String(WARMUP), revision];
  const options = {
    stdio: ['ignore', 'pipe', 'inherit'] as ['ignore', 'pipe', 'inherit'],
    env: consumerEntry ? { ...process.env, BENCH_CLIENT_ENTRY: consumerEntry } : process.env,
  };
  const child =
    flags.pin === undefined
      ? spawn(process.execPath, args, options)
      : spawn('taskset', ['-c', flags.pin, process.execPath, ...args], options);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`call-latency ${variant} ${where} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

/**
 * 1. A tool call five ways on the same server, each client alone in its process, variants in a
 * rotating order each round: the raw SDK `callTool()`, the same inside a `createTool()` (the floor
 * of any Mastra tool making the call), MCPClient's `execute()`, and the first and third behind the
 * tool wrapper a Mastra Agent puts around every tool (`makeCoreTool`).
 */
async function latency(transport: 'stdio' | 'http', revision: string): Promise<string[]> {
  const http = transport === 'http' ? await httpEchoServers(1) : undefined;
  const where = http ? String(http.urls[0]) : 'stdio';
  /** Per variant: every call's time, and each round's p50, p99, CPU and main-thread CPU. */
  const samples = Object.fromEntries(
    VARIANTS.map((v) => [
      v,
      {
        times: [] as number[],
        p50: [] as number[],
        p99: [] as number[],
        cpu: [] as number[],
        main: [] as number[],
      },
    ]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < VARIANTS.length; i++) {
      const variant = VARIANTS[(round + i) % VARIANTS.length] as Variant;
      const { times, cpuUs, mainCpuUs } = await runVariant(variant, where, revision);
      const sample = samples[variant];
      sample?.times.push(...times);
      sample?.p50.push(median(times));
      sample?.p99.push(percentile(times, 99));
      sample?.cpu.push(cpuUs);
      sample?.main.push(mainCpuUs ?? Number.NaN);
    }
  }
  if (http) await stop(http.child);
  const figure = (variant: Variant) => {
    const { times, cpu, main } = samples[variant] ?? { times: [], cpu: [], main: [] };
    return { p50: median(times), p99: percentile(times, 99), cpu: median(cpu), main: median(main) };
  };
  /** The median over rounds of `variant`'s figure against `base`'s in the same round. */
  const versus = (variant: Variant, base: Variant) => {
    const of = (figureName: 'p50' | 'p99' | 'cpu' | 'main') => {
      const mine = samples[variant]?.[figureName] ?? [];
      const theirs = samples[base]?.[figureName] ?? [];
      return ratio(median(mine.map((value, round) => value / (theirs[round] ?? value))));
    };
    return `${of('p50')} / ${of('p99')} / ${of('cpu')} / ${of('main')}`;
  };
  const row = (variant: Variant, label: string, ratios: string) => {
    const { p50, p99, cpu, main } = figure(variant);
    return `| ${transport} ${revision} | ${label} | ${ms(p50)} | ${ms(p99)} | ${cpu.toFixed(0)} us | ${main.toFixed(0)} us | ${ratios} |`;
  };
  return [
    row('sdk', 'raw SDK `callTool()`', ''),
    row(
      'sdk-tool',
      'raw SDK in a `createTool()`, `execute(args, {})` (the floor of a Mastra tool)',
      `${versus('sdk-tool', 'sdk')} of raw SDK`,
    ),
    row(
      'mcp',
      'MCPClient `tool.execute(args, {})`',
      `${versus('mcp', 'sdk')} of raw SDK; ${versus('mcp', 'sdk-tool')} of the floor`,
    ),
    row(
      'sdk-agent',
      'raw SDK in a `createTool()`, as an agent calls it',
      `${versus('sdk-agent', 'sdk')} of raw SDK`,
    ),
    row(
      'mcp-agent',
      'MCPClient tool, as an agent calls it',
      `**${versus('mcp-agent', 'sdk-agent')} of the raw SDK as an agent calls it**; ${versus('mcp-agent', 'sdk')} of raw SDK`,
    ),
  ];
}

async function coldListTools(servers: Record<string, MastraMCPServerDefinition>, id: string) {
  const mcp = new MCPClient({ id, registerProcessHooks: false, servers });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { tools, errors } = await mcp.listToolsWithErrors();
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (Object.keys(errors).length > 0) throw new Error(`listTools failed: ${JSON.stringify(errors)}`);
  await mcp.disconnect();
  return { elapsed, cpu: (used.user + used.system) / 1000, tools: Object.keys(tools).length };
}

/** 4. Heap retained per connected server: collected with the servers connected, then after disconnect. */
async function memoryPerServer(): Promise<string> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return 'client memory per connected HTTP server: run with `node --expose-gc` to measure';
  const http = await httpEchoServers(SERVERS);
  const servers = Object.fromEntries(
    http.urls.map((url, i) => [`s${i}`, { url, protocolVersion: MODERN } as const]),
  );
  await coldListTools(servers, 'bench-memory-warmup');
  // Sockets and timers of the warm-up close asynchronously; collect only once they have.
  const settle = async () => {
    await delay(200);
    gc();
    gc();
  };
  const mcp = new MCPClient({ id: 'bench-memory', registerProcessHooks: false, servers });
  const count = Object.keys(await mcp.listTools()).length;
  await settle();
  const connected = process.memoryUsage().heapUsed;
  await mcp.disconnect();
  await settle();
  // What disconnecting frees: clients, transports, discovered tools (not held here), instructions.
  const retained = (connected - process.memoryUsage().heapUsed) / SERVERS;
  await stop(http.child);
  return `client heap retained per connected HTTP server (one tool each, ${count} in all): ${(retained / 1024).toFixed(0)} KiB`;
}

/** The same cold discovery with the raw SDK: one Client per server, connect, tools/list. */
async function rawColdListTools(urls: URL[]) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const clients = await Promise.all(
    urls.map(async (url) => {
      const client = new Client(
        { name: 'bench', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: MODERN } } },
      );
      await client.connect(new StreamableHTTPClientTransport(url));
      await client.listTools();
      return client;
    }),
  );
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await Promise.all(clients.map((client) => client.close()));
  return { elapsed, cpu: (used.user + used.system) / 1000 };
}

/**
 * 2. N HTTP servers against one, cold, MCPClient and the raw SDK side by side, at each simulated
 * round-trip latency.
 */
async function httpFanOut(): Promise<string[]> {
  const lines: string[] = [];
  let cpuPerServer = { mastra: [] as number[], sdk: [] as number[] };
  for (const latency of LATENCIES) {
    const http = await httpEchoServers(SERVERS, latency);
    const first = http.urls.slice(0, 1);
    const definitions = (urls: URL[]) =>
      Object.fromEntries(urls.map((url, i) => [`s${i}`, { url, protocolVersion: MODERN } as const]));
    const times = {
      mastraOne: [] as number[],
      mastraMany: [] as number[],
      sdkOne: [] as number[],
      sdkMany: [] as number[],
    };
    cpuPerServer = { mastra: [], sdk: [] };
    for (let round = -1; round < ROUNDS; round++) {
      // Round -1 warms both code paths up and is not recorded.
      const tag = `${latency}-${round}`;
      const mastraOne = await coldListTools(definitions(first), `bench-one-${tag}`);
      const mastraMany = await coldListTools(definitions(http.urls), `bench-many-${tag}`);
      const sdkOne = await rawColdListTools(first);
      const sdkMany = await rawColdListTools(http.urls);
      if (round < 0) continue;
      times.mastraOne.push(mastraOne.elapsed);
      times.mastraMany.push(mastraMany.elapsed);
      times.sdkOne.push(sdkOne.elapsed);
      times.sdkMany.push(sdkMany.elapsed);
      cpuPerServer.mastra.push(mastraMany.cpu / SERVERS);
      cpuPerServer.sdk.push(sdkMany.cpu / SERVERS);
    }
    await stop(http.child);
    const mastraRatio = median(times.mastraMany) / median(times.mastraOne);
    const sdkRatio = median(times.sdkMany) / median(times.sdkOne);
    lines.push(
      `| ${latency} ms | ${ms(median(times.mastraOne))} | ${ms(median(times.mastraMany))} | **${ratio(mastraRatio)}** | ${ms(median(times.sdkOne))} | ${ms(median(times.sdkMany))} | ${ratio(sdkRatio)} | ${ratio(median(cpuPerServer.mastra) / median(cpuPerServer.sdk))} (${median(cpuPerServer.mastra).toFixed(2)} / ${median(cpuPerServer.sdk).toFixed(2)} ms) |`,
    );
  }
  return [
    `\n| simulated latency | MCPClient, 1 server | ${SERVERS} servers | ratio (target <= 1.5x) | raw SDK, 1 server | ${SERVERS} servers | ratio | client CPU per server, MCPClient / raw SDK |`,
    '|---|---|---|---|---|---|---|---|',
    ...lines,
    `\n${await memoryPerServer()}`,
  ];
}

/** 3. 20 stdio servers against the floor of starting the same 20 processes. */
async function stdioFanOut(): Promise<string[]> {
  const floor: number[] = [];
  const pinned: number[] = [];
  const probed: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SERVERS }, async () => {
        const child = spawn(process.execPath, [ECHO, '--ready'], { stdio: ['ignore', 'pipe', 'inherit'] });
        await once(child.stdout, 'data');
        await once(child, 'exit');
      }),
    );
    floor.push(performance.now() - started);
    const stdio = (protocolVersion?: typeof MODERN) =>
      Object.fromEntries(
        Array.from({ length: SERVERS }, (_, i) => [
          `s${i}`,
          {
            command: process.execPath,
            args: [ECHO, '--stdio'],
            ...(protocolVersion ? { protocolVersion } : {}),
          },
        ]),
      ) as Record<string, MastraMCPServerDefinition>;
    pinned.push((await coldListTools(stdio(MODERN), `bench-stdio-pinned-${round}`)).elapsed);
    probed.push((await coldListTools(stdio(), `bench-stdio-probed-${round}`)).elapsed);
  }
  return [
    `| start ${SERVERS} processes, no MCP (floor) | ${ms(median(floor))} | |`,
    `| listTools(), ${SERVERS} stdio servers, pinned 2026-07-28 | ${ms(median(pinned))} | ${ratio(median(pinned) / median(floor))} of the floor (target <= 1.3x) |`,
    `| listTools(), ${SERVERS} stdio servers, revision probed | ${ms(median(probed))} | ${ratio(median(probed) / median(floor))} of the floor |`,
  ];
}

const started = new Date().toISOString();
console.log(
  `mastra-mcp client bench ${started}: node ${process.version}, ${ROUNDS} rounds, ${CALLS} calls per round, load average ${loadavg()[0]?.toFixed(2)}`,
);
const consumer = flags.packed && SECTIONS.has('calls') ? packedConsumer() : undefined;
const consumerEntry = consumer?.entry;
if (SECTIONS.has('calls')) {
  console.log(
    '\n| transport | client | p50 | p99 | client CPU per call | its main thread | ratio p50 / p99 / CPU / main thread |\n|---|---|---|---|---|---|---|',
  );
  if (flags.pin !== undefined) console.log(`(each client and its stdio server pinned to CPU ${flags.pin})`);
  for (const transport of flags.transports.split(',') as ('stdio' | 'http')[]) {
    for (const revision of flags.revisions.split(','))
      for (const line of await latency(transport, revision)) console.log(line);
  }
}
if (SECTIONS.has('http')) for (const line of await httpFanOut()) console.log(line);
if (SECTIONS.has('stdio')) {
  console.log('\n| measurement | median | ratio |\n|---|---|---|');
  for (const line of await stdioFanOut()) console.log(line);
}
if (consumer) rmSync(consumer.work, { recursive: true, force: true });
console.log(`\nload average at the end: ${loadavg()[0]?.toFixed(2)}`);
