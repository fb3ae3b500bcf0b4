/**
 * What OpenTelemetry costs a tool call, as ratios measured in one run: an MCPClient calls an
 * MCPServer's tool over Streamable HTTP (2026-07-28, 127.0.0.1), both in this process so that both
 * ends' instrumentation is in the figure, three ways side by side:
 *   - `off`: `telemetry: { enabled: false }` on both ends (the baseline);
 *   - `no-sdk`: the default with `@opentelemetry/api` loaded and no SDK registered;
 *   - `sdk`: an SDK's tracer and meter providers given in the options (in-memory span exporter
 *     through a BatchSpanProcessor, or `--processor simple`; a metric reader): two spans, two measurements and the `_meta`
 *     context per call. Nothing is registered globally, so `no-sdk` stays SDK-free beside it.
 * Calls alternate between the three in blocks, rotating the order, so that a busy machine slows
 * them alike; each block's process CPU is the variant's. Medians are reported against `off`, pooled
 * and as the median over rounds of each block's figure against `off`'s block in the same round.
 * `--sdk-ops` attributes the `sdk` row: a fourth variant, `sdk-ops`, is `off` with the SDK's own
 * operations for one call done around it by the bench (two spans with the same attributes, two
 * histogram records, W3C traceparent out and back in) and the client span's traceparent sent in the
 * call's `_meta` (the server definition's `traceContext`), and the same operations are timed in a
 * bare loop without MCP.
 *
 *   npm run build && npm run bench:telemetry   (flags: --calls <n> per variant, --warmup <n>, --block <n>,
 *                                              --processor batch|simple, --sdk-ops)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createTool } from '@mastra/core/tools';
import { ROOT_CONTEXT, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import type { MCPTelemetryOptions } from '../src/index.js';
import { median, ms, ratio } from './support.js';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '500' },
    block: { type: 'string', default: '50' },
    processor: { type: 'string', default: 'batch' },
    'sdk-ops': { type: 'boolean', default: false },
  },
});
type Variant = 'off' | 'no-sdk' | 'sdk' | 'sdk-ops';
const VARIANTS: Variant[] = flags['sdk-ops'] ? ['off', 'no-sdk', 'sdk', 'sdk-ops'] : ['off', 'no-sdk', 'sdk'];
const BUILT = pathToFileURL(fileURLToPath(new URL('../dist/index.mjs', import.meta.url))).href;
const { MCPClient, MCPServer } = (await import(BUILT)) as typeof import('../src/index.js');

class DiscardingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
// Batch, as production set-ups export; `--processor simple` exports each span as it ends.
const processor =
  flags.processor === 'simple' ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter);
const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
const meterProvider = new MeterProvider({ readers: [new DiscardingReader()] });
const sdk: MCPTelemetryOptions = { tracerProvider, meterProvider };
const OPTIONS: Record<Variant, MCPTelemetryOptions> = {
  off: { enabled: false },
  'no-sdk': {},
  sdk,
  'sdk-ops': { enabled: false },
};

const echo = createTool({
  id: 'echo',
  description: 'Echoes',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});

type Call = () => Promise<unknown>;

const tracer = tracerProvider.getTracer('bench') as Tracer;
const meter = meterProvider.getMeter('bench');
const advice = { explicitBucketBoundaries: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] };
const clientHistogram = meter.createHistogram('bench.client', { unit: 's', advice });
const serverHistogram = meter.createHistogram('bench.server', { unit: 's', advice });
const TOOL = {
  'mcp.method.name': 'tools/call',
  'gen_ai.tool.name': 'echo',
  'gen_ai.operation.name': 'execute_tool',
};
const REVISION = { 'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp' };
const SERVER = { 'server.address': '127.0.0.1', 'server.port': 80 };
const PEER = { 'client.address': '127.0.0.1', 'client.port': 50000 };

/** The traceparent `sdkOps` sends with its call, in `_meta` as the instrumented client does. */
let carried: string | undefined;

/** What the SDK does for one instrumented call, with `call` where the request goes out and is served. */
async function sdkOps(call: Call): Promise<unknown> {
  const started = performance.now();
  const attributes = { ...TOOL, ...REVISION, ...SERVER, 'mastra.mcp.server.name': 'bench' };
  const client = tracer.startSpan('tools/call echo', { kind: SpanKind.CLIENT, attributes }, ROOT_CONTEXT);
  const { traceId, spanId, traceFlags } = client.spanContext();
  const traceparent = `00-${traceId}-${spanId}-0${traceFlags.toString(16)}`;
  carried = traceparent;
  const [, remoteTrace = '', remoteSpan = '', flags = ''] = traceparent.split('-');
  const parent = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: remoteTrace,
    spanId: remoteSpan,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
  });
  const served = performance.now();
  const server = tracer.startSpan(
    'tools/call echo',
    { kind: SpanKind.SERVER, attributes: { ...TOOL, ...REVISION, ...PEER, 'jsonrpc.request.id': '1' } },
    parent,
  );
  const result = await call();
  server.end();
  serverHistogram.record((performance.now() - served) / 1000, { ...TOOL, ...REVISION });
  client.setAttribute('jsonrpc.request.id', '1');
  client.end();
  clientHistogram.record((performance.now() - started) / 1000, { ...TOOL, ...REVISION, ...SERVER });
  return result;
}

/** One MCPServer on its own port and an MCPClient calling its tool, both with `telemetry`. */
async function pair(
  telemetry: MCPTelemetryOptions,
  traceContext?: () => { traceparent: string } | undefined,
): Promise<{ call: Call; close: () => Promise<void> }> {
  const server = new MCPServer({ name: 'bench', version: '1.0.0', tools: { echo }, telemetry });
  const listener = http.createServer((req, res) => {
    void server.startHTTP({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), httpPath: '/mcp', req, res });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  const client = new MCPClient({
    registerProcessHooks: false,
    telemetry,
    servers: {
      bench: {
        url: new URL(`http://127.0.0.1:${port}/mcp`),
        protocolVersion: '2026-07-28',
        ...(traceContext ? { traceContext } : {}),
      },
    },
  });
  const tool = (await client.listTools()).bench_echo as {
    execute: (input: unknown, ctx: unknown) => Promise<unknown>;
  };
  return {
    call: () => tool.execute({ text: 'hi' }, {}),
    close: async () => {
      await client.disconnect();
      await server.close();
      listener.close();
    },
  };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
console.log(`load average at start: ${load()}`);
const pairs = Object.fromEntries(
  await Promise.all(
    VARIANTS.map(async (variant) => {
      // `sdk-ops` carries its traceparent on the wire too: propagation is part of the floor.
      const traceContext =
        variant === 'sdk-ops' ? () => (carried ? { traceparent: carried } : undefined) : undefined;
      return [variant, await pair(OPTIONS[variant], traceContext)] as const;
    }),
  ),
) as Record<Variant, { call: Call; close: () => Promise<void> }>;
if (pairs['sdk-ops']) {
  const { call } = pairs['sdk-ops'];
  pairs['sdk-ops'].call = () => sdkOps(call);
}
for (const variant of VARIANTS) for (let i = 0; i < Number(flags.warmup); i++) await pairs[variant].call();

const samples = Object.fromEntries(
  VARIANTS.map((v) => [v, { times: [] as number[], cpu: [] as number[], blockP50: [] as number[] }]),
);
const block = Number(flags.block);
const blocks = Math.ceil(Number(flags.calls) / block);
for (let b = 0; b < blocks; b++) {
  for (let i = 0; i < VARIANTS.length; i++) {
    const variant = VARIANTS[(b + i) % VARIANTS.length] as Variant;
    const { call } = pairs[variant];
    const cpu = process.cpuUsage();
    const times: number[] = [];
    for (let c = 0; c < block; c++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    const used = process.cpuUsage(cpu);
    samples[variant]?.times.push(...times);
    samples[variant]?.blockP50.push(median(times));
    samples[variant]?.cpu.push((used.user + used.system) / block);
  }
  exporter.reset();
}
for (const variant of VARIANTS) await pairs[variant].close();

const figure = (variant: Variant) => {
  const { times, cpu } = samples[variant] ?? { times: [], cpu: [] };
  return { p50: median(times), cpu: median(cpu) };
};
/** The median over rounds of a block's figure against `off`'s block of the same round. */
const roundRatio = (variant: Variant, of: 'blockP50' | 'cpu') => {
  const mine = samples[variant]?.[of] ?? [];
  const off = samples.off?.[of] ?? [];
  return median(mine.map((value, round) => value / (off[round] ?? value)));
};
const base = figure('off');
console.log(
  `tool call over Streamable HTTP 2026-07-28, client and server in one process; ${blocks * block} calls per variant in blocks of ${block}; ${flags.processor} span processor`,
);
console.log(
  '| telemetry | p50 per call | CPU per call | p50 vs off | CPU vs off | per-round p50 vs off | per-round CPU vs off |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const variant of VARIANTS) {
  const { p50, cpu } = figure(variant);
  console.log(
    `| ${variant} | ${ms(p50)} | ${cpu.toFixed(0)} us | ${ratio(p50 / base.p50)} | ${ratio(cpu / base.cpu)} | ${ratio(roundRatio(variant, 'blockP50'))} | ${ratio(roundRatio(variant, 'cpu'))} |`,
  );
}
if (flags['sdk-ops']) {
  // The same operations with nothing in between: what they cost where caches stay warm.
  const resolved: Call = async () => undefined;
  const loops = blocks * block;
  for (let i = 0; i < loops; i++) await sdkOps(resolved);
  const cpu = process.cpuUsage();
  for (let i = 0; i < loops; i++) {
    await sdkOps(resolved);
    if (i % 150 === 149) exporter.reset();
  }
  const used = process.cpuUsage(cpu);
  const perCall = (used.user + used.system) / loops;
  console.log(
    `bare loop of the SDK operations, no MCP: ${perCall.toFixed(1)} us CPU per call, ${((100 * perCall) / base.cpu).toFixed(1)}% of off's CPU per call`,
  );
}
console.log(`load average at end: ${load()}`);
