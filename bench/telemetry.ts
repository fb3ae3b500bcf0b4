/**
 * What OpenTelemetry costs a tool call, as ratios measured in one run: an MCPClient calls an
 * MCPServer's tool over Streamable HTTP (2026-07-28, 127.0.0.1), both in one process so that both
 * ends' instrumentation is in the figure, three ways:
 *   - `off`: `telemetry: { enabled: false }` on both ends (the baseline);
 *   - `no-sdk`: the default, `@opentelemetry/api` loaded but no SDK registered;
 *   - `sdk`: an SDK registered globally (in-memory span exporter, metric reader, AsyncLocalStorage
 *     context manager): two spans and two measurements per call, context in `_meta`.
 * Each variant runs in a fresh process (a registered SDK is global), rounds rotating the order;
 * medians of per-call latency and of process CPU per call are reported against `off`.
 *
 *   npm run build && npx tsx bench/telemetry.ts   (flags: --calls <n> per round, --warmup <n>, --rounds <n>)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createTool } from '@mastra/core/tools';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { median, ms, ratio } from './support.js';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    variant: { type: 'string' },
  },
});
const VARIANTS = ['off', 'no-sdk', 'sdk'] as const;
type Variant = (typeof VARIANTS)[number];
const BUILT = pathToFileURL(fileURLToPath(new URL('../dist/index.mjs', import.meta.url))).href;

class DiscardingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One variant in this process: per-call times (ms) and CPU per call (us), printed as JSON. */
async function measure(variant: Variant): Promise<void> {
  if (variant === 'sdk') {
    const exporter = new InMemorySpanExporter();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new DiscardingReader()] }));
    // Keep the exporter's memory flat over the run.
    setInterval(() => exporter.reset(), 200).unref();
  }
  const { MCPClient, MCPServer } = (await import(BUILT)) as typeof import('../src/index.js');
  const telemetry = variant === 'off' ? { enabled: false } : {};
  const echo = createTool({
    id: 'echo',
    description: 'Echoes',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => text,
  });
  const server = new MCPServer({ name: 'bench', version: '1.0.0', tools: { echo }, telemetry });
  const listener = http.createServer((req, res) => {
    void server.startHTTP({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), httpPath: '/mcp', req, res });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  const client = new MCPClient({
    registerProcessHooks: false,
    telemetry,
    servers: { bench: { url: new URL(`http://127.0.0.1:${port}/mcp`), protocolVersion: '2026-07-28' } },
  });
  const tool = (await client.listTools()).bench_echo as {
    execute: (input: unknown, ctx: unknown) => Promise<unknown>;
  };
  for (let i = 0; i < Number(flags.warmup); i++) await tool.execute({ text: 'hi' }, {});
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < Number(flags.calls); i++) {
    const started = performance.now();
    await tool.execute({ text: 'hi' }, {});
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  await client.disconnect();
  await server.close();
  listener.close();
  console.log(JSON.stringify({ times, cpuUs: (used.user + used.system) / Number(flags.calls) }));
}

async function runVariant(variant: Variant): Promise<{ times: number[]; cpuUs: number }> {
  const self = fileURLToPath(import.meta.url);
  const args = [
    '--import',
    'tsx',
    self,
    '--variant',
    variant,
    '--calls',
    flags.calls,
    '--warmup',
    flags.warmup,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`bench/telemetry.ts --variant ${variant} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

async function main(): Promise<void> {
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(`load average at start: ${load()}`);
  const samples = Object.fromEntries(
    VARIANTS.map((v) => [v, { times: [] as number[], cpu: [] as number[] }]),
  );
  const rounds = Number(flags.rounds);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < VARIANTS.length; i++) {
      const variant = VARIANTS[(round + i) % VARIANTS.length] as Variant;
      const { times, cpuUs } = await runVariant(variant);
      samples[variant]?.times.push(...times);
      samples[variant]?.cpu.push(cpuUs);
    }
  }
  const figure = (variant: Variant) => {
    const { times, cpu } = samples[variant] ?? { times: [], cpu: [] };
    return { p50: median(times), cpu: median(cpu) };
  };
  const base = figure('off');
  console.log(
    `tool call over Streamable HTTP 2026-07-28, client and server in one process; ${rounds} rounds x ${flags.calls} calls`,
  );
  console.log('| telemetry | p50 per call | CPU per call | p50 vs off | CPU vs off |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const variant of VARIANTS) {
    const { p50, cpu } = figure(variant);
    console.log(
      `| ${variant} | ${ms(p50)} | ${cpu.toFixed(0)} us | ${ratio(p50 / base.p50)} | ${ratio(cpu / base.cpu)} |`,
    );
  }
}

if (flags.variant) await measure(flags.variant as Variant);
else await main();
