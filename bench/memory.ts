/**
 * MCPClient memory, each figure next to a baseline measured in the same run (run with
 * `--expose-gc`, which `npm run bench:memory` passes; every reading follows two full collections):
 *   1. heap retained per connected HTTP server: the heap with N servers connected, minus the heap
 *      after `disconnect()`, over N;
 *   2. heap retained per cached tool: `toolsFromDefinitions()` of a catalog of T tools (the echo
 *      server's definition under T names, each input schema made distinct), the heap while the
 *      tools are held minus before they were built, over T; the same once each has been called
 *      (its input schema compiled); and what is left once they are dropped;
 *   3. heap over a long run of tool calls over stdio: `tool.execute()` of MCPClient and the raw SDK
 *      `Client.callTool()`, each on its own server, read every `--every` calls; growth is the last
 *      reading minus the one after the first block (warm-up), and the slope of a least-squares line
 *      through the readings, in bytes per call.
 * The servers are the raw SDK's McpServer (bench/fixtures/echo-server.mjs) in child processes.
 *
 *   npm run bench:memory    (flags: --calls <n> (100000), --every <n> (10000), --servers <n> (20),
 *                            --tools <n> (1000))
 */
import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type MastraMCPServerDefinition, MCPClient, type MCPToolDefinition } from '../src/index.js';
import { MODERN, spawnHttpServers, stop } from './support.js';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    every: { type: 'string', default: '10000' },
    servers: { type: 'string', default: '20' },
    tools: { type: 'string', default: '1000' },
  },
});
const CALLS = Number(flags.calls);
const EVERY = Number(flags.every);
const SERVERS = Number(flags.servers);
const TOOLS = Number(flags.tools);
const ECHO = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with `node --expose-gc` (npm run bench:memory does)');

/** Heap used after sockets, timers and finalizers of finished work have had their turn. */
async function settledHeap(): Promise<number> {
  await delay(100);
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const stdioEcho: MastraMCPServerDefinition = {
  command: process.execPath,
  args: [ECHO, '--stdio'],
  protocolVersion: MODERN,
};

/** 1. Heap per connected HTTP server (one tool each). */
async function perServer(): Promise<string> {
  const http = await spawnHttpServers(ECHO, ['--http', String(SERVERS)]);
  const servers = Object.fromEntries(
    http.urls.map((url, i): [string, MastraMCPServerDefinition] => [
      `s${i}`,
      { url, protocolVersion: MODERN },
    ]),
  );
  const warm = new MCPClient({ id: 'memory-warmup', registerProcessHooks: false, servers });
  await warm.listTools();
  await warm.disconnect();
  const mcp = new MCPClient({ id: 'memory-servers', registerProcessHooks: false, servers });
  await mcp.listTools();
  const connected = await settledHeap();
  await mcp.disconnect();
  const freed = (connected - (await settledHeap())) / SERVERS;
  await stop(http.child);
  return `| heap per connected HTTP server (freed by \`disconnect()\`, ${SERVERS} servers, one tool each) | ${kib(freed)} |`;
}

/** 2. Heap per cached tool, built and then called once each. */
async function perCachedTool(): Promise<string[]> {
  const mcp = new MCPClient({
    id: 'memory-catalog',
    registerProcessHooks: false,
    servers: { echo: stdioEcho },
  });
  const echo = (await mcp.listToolDefinitions()).echo?.echo as MCPToolDefinition;
  const catalog = JSON.stringify({
    // Each schema distinct (its description), so no tool shares another's compiled validator.
    echo: Object.fromEntries(
      Array.from({ length: TOOLS }, (_, i) => [
        `echo${i}`,
        { ...echo, inputSchema: { ...echo.inputSchema, description: `copy ${i}` } },
      ]),
    ),
  });
  const build = async () => mcp.toolsFromDefinitions({ definitions: JSON.parse(catalog) });
  await build();
  const before = await settledHeap();
  let tools: Awaited<ReturnType<typeof build>> | undefined = await build();
  const built = await settledHeap();
  for (const tool of Object.values(tools)) await tool.execute?.({ text: 'hi' }, {} as never);
  const called = await settledHeap();
  tools = undefined;
  const dropped = await settledHeap();
  await mcp.disconnect();
  return [
    `| heap per cached tool, built (\`toolsFromDefinitions()\`, ${TOOLS} tools) | ${kib((built - before) / TOOLS)} |`,
    `| heap per cached tool, each called once (input schema compiled) | ${kib((called - before) / TOOLS)} |`,
    `| heap left per tool once the ${TOOLS} tools are dropped | ${kib((dropped - before) / TOOLS)} |`,
  ];
}

/** Least-squares slope of `ys` over `xs`. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] ?? 0) - mx) * ((ys[i] ?? 0) - my);
    den += ((xs[i] ?? 0) - mx) ** 2;
  }
  return num / den;
}

/** 3. Heap readings every EVERY calls over CALLS sequential calls. */
async function longRun(label: string, call: () => Promise<unknown>): Promise<string> {
  const xs: number[] = [];
  const ys: number[] = [];
  const started = performance.now();
  for (let done = 0; done < CALLS; ) {
    for (let i = 0; i < EVERY; i++) await call();
    done += EVERY;
    xs.push(done);
    ys.push(await settledHeap());
  }
  const seconds = (performance.now() - started) / 1000;
  const [first = 0, last = 0] = [ys[0], ys.at(-1)];
  const readings = ys.map((y) => (y / 2 ** 20).toFixed(1)).join(' / ');
  return `| ${label} | ${readings} MiB | ${kib(last - first)} | ${slope(xs, ys).toFixed(2)} B | ${seconds.toFixed(0)} s |`;
}

async function longRuns(): Promise<string[]> {
  const mcp = new MCPClient({
    id: 'memory-calls',
    registerProcessHooks: false,
    servers: { echo: stdioEcho },
  });
  const tool = (await mcp.listTools()).echo_echo;
  if (!tool?.execute) throw new Error('echo tool missing');
  const execute = tool.execute;
  const raw = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await raw.connect(new StdioClientTransport({ command: process.execPath, args: [ECHO, '--stdio'] }));
  const rows = [
    await longRun('raw SDK `callTool()`', () => raw.callTool({ name: 'echo', arguments: { text: 'hello' } })),
    await longRun('MCPClient `tool.execute()`', () => execute({ text: 'hello' }, {} as never)),
  ];
  await raw.close();
  await mcp.disconnect();
  return rows;
}

console.log(
  `mastra-mcp memory bench ${new Date().toISOString()}: node ${process.version}, load average ${loadavg()[0]?.toFixed(2)}`,
);
console.log('\n| measurement | heap |\n|---|---|');
console.log(await perServer());
for (const line of await perCachedTool()) console.log(line);
console.log(
  `\n| ${CALLS} calls over stdio | heap after each ${EVERY} calls | growth, first to last reading | slope per call | wall time (one after the other, not a speed figure) |\n|---|---|---|---|---|`,
);
for (const line of await longRuns()) console.log(line);
console.log(`\nload average at the end: ${loadavg()[0]?.toFixed(2)}`);
