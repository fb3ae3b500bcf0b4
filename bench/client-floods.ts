/**
 * MCPClient under a hostile server's floods (docs/SECURITY.md, "Client: a hostile server"). The
 * server is test/fixtures/flood-server.ts in a child process, over Streamable HTTP on 127.0.0.1
 * (`--http`, the default) or stdio (`--stdio`); this process is the client, run with
 * `--expose-gc`. Each reading follows two full collections.
 *
 * - `patterns`: `listTools()` of N tools × K distinct `pattern`s (`--plain`: the same arguments
 *   without patterns); time, and RSS / heap after with the tools held (the peak is not sampled:
 *   compiling blocks the event loop).
 * - `result`: one call of a tool answering `--bytes` of text (`--stream`: as an event of an SSE
 *   stream over HTTP); the outcome, RSS after and peak RSS.
 * - `notifications`: one call during which the server sends `--count` notifications of `--kind`
 *   (`message`, `progress`, `updated`) with handlers registered; RSS and heap after.
 *
 *   node --expose-gc --import tsx bench/client-floods.ts patterns [--tools 20000] [--patterns 5] [--stdio]
 *   node --expose-gc --import tsx bench/client-floods.ts result [--bytes 104857600] [--stdio]
 *   node --expose-gc --import tsx bench/client-floods.ts notifications [--count 100000] [--kind message] [--stdio]
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type MastraMCPServerDefinition, MCPClient } from '../src/index.js';
import { spawnHttpServers, stop } from './support.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    stdio: { type: 'boolean', default: false },
    tools: { type: 'string', default: '20000' },
    patterns: { type: 'string', default: '5' },
    plain: { type: 'boolean', default: false },
    bytes: { type: 'string', default: String(100 * 2 ** 20) },
    stream: { type: 'boolean', default: false },
    count: { type: 'string', default: '100000' },
    kind: { type: 'string', default: 'message' },
    pad: { type: 'string', default: '0' },
    options: { type: 'string', default: '{}' },
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MiB = 2 ** 20;
const FIXTURE = fileURLToPath(new URL('../test/fixtures/flood-server.ts', import.meta.url));

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const memory = () => {
  gc();
  gc();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rssMiB: Math.round(rss / MiB), heapExternalMiB: Math.round((heapUsed + external) / MiB) };
};

const mode = positionals[0] ?? 'patterns';
const fixtureArgs =
  mode === 'patterns'
    ? ['--tools', values.tools, '--patterns', values.patterns, ...(values.plain ? ['--plain'] : [])]
    : [];
/** Server options (`--options '{"maxMessageBytes":1024}'`). */
const extra = JSON.parse(values.options) as Record<string, unknown>;
let server: MastraMCPServerDefinition;
let stopServer = async () => {};
if (values.stdio) {
  server = { command: process.execPath, args: ['--import', 'tsx', FIXTURE, ...fixtureArgs], ...extra };
} else {
  const http = await spawnHttpServers(FIXTURE, ['--http', ...fixtureArgs], ['--import', 'tsx']);
  server = { url: http.urls[0] as URL, ...extra } as MastraMCPServerDefinition;
  stopServer = () => stop(http.child);
}
const mcp = new MCPClient({
  id: 'client-floods',
  registerProcessHooks: false,
  timeout: 600_000,
  servers: { flood: server },
});
let warnings = 0;
mcp.logger = {
  ...mcp.logger,
  warn: () => void warnings++,
  info: () => {},
  debug: () => {},
  error: (text: string) => console.error(text.slice(0, 300)),
} as typeof mcp.logger;

// Connected first, so the readings are the flood's alone.
await mcp.reconnectServer('flood');
const before = memory();
peakRss = 0;
const started = performance.now();
const outcome: Record<string, unknown> = {};
if (mode === 'patterns') {
  const tools = await mcp.listTools();
  outcome.tools = Object.keys(tools).length;
  outcome.seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  outcome.warnings = warnings;
  // Held while `after` is read: what the tools keep is the listing's cost.
  (globalThis as { keep?: unknown }).keep = tools;
} else {
  const { toolsets } = await mcp.listToolsetsWithErrors();
  const tool = toolsets.flood?.[mode === 'result' ? 'big' : 'notify'];
  let seen = 0;
  const count = () => void seen++;
  await mcp.progress.onUpdate('flood', count);
  await mcp.resources.onUpdated('flood', count);
  const input =
    mode === 'result'
      ? { bytes: Number(values.bytes), stream: values.stream }
      : { count: Number(values.count), kind: values.kind, pad: Number(values.pad) };
  const result = await tool?.execute?.(input as never, {} as never).catch((error: Error) => error);
  outcome.seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  outcome.result =
    result instanceof Error
      ? `error: ${result.message.slice(0, 400)}`
      : `${JSON.stringify(result).length} characters`;
  outcome.handlersCalled = seen;
  outcome.warnings = warnings;
}
const after = memory();
clearInterval(sampler);
console.log(
  JSON.stringify({
    mode,
    transport: values.stdio ? 'stdio' : 'http',
    ...outcome,
    before,
    after,
    peakRssMiB: Math.round(peakRss / MiB),
  }),
);
await mcp.disconnect();
await stopServer();
