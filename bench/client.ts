/**
 * MCPClient benchmark, every figure a ratio measured in the same run:
 *   1. per-call latency of a Mastra tool's `execute()` against the raw SDK `Client.callTool()` on
 *      the same server, over stdio and Streamable HTTP (2026-07-28), rounds interleaved;
 *   2. cold `listTools()` over 20 HTTP servers against a single one (are they truly concurrent?);
 *   3. cold `listTools()` over 20 stdio servers against the floor of merely starting the same 20
 *      processes concurrently without MCP;
 *   4. client memory (RSS and heap) per connected server.
 * The servers are the raw SDK's McpServer (bench/fixtures/echo-server.mjs) in child processes.
 *
 *   npm run bench:client                 (flags: --calls <n> per round, --rounds <n>, --servers <n>)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type MastraMCPServerDefinition, MCPClient } from '../src/index.js';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '400' },
    rounds: { type: 'string', default: '3' },
    servers: { type: 'string', default: '20' },
  },
});
const CALLS = Number(flags.calls);
const ROUNDS = Number(flags.rounds);
const SERVERS = Number(flags.servers);
const ECHO = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));
const MODERN = '2026-07-28';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(3)} ms`;
const ratio = (value: number) => `${value.toFixed(2)}x`;

async function httpEchoServers(count: number): Promise<{ urls: URL[]; child: ChildProcess }> {
  const child = spawn(process.execPath, [ECHO, '--http', String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const ports = JSON.parse(line.toString()) as number[];
  return { urls: ports.map((port) => new URL(`http://127.0.0.1:${port}/mcp`)), child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.stdin?.end();
  child.kill('SIGTERM');
  await exited;
}

async function timeCalls(call: () => Promise<unknown>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times;
}

/** 1. tool.execute() vs Client.callTool() on the same server, one transport. */
async function latency(transport: 'stdio' | 'http'): Promise<string[]> {
  const http = transport === 'http' ? await httpEchoServers(1) : undefined;
  const url = http?.urls[0] as URL;
  const definition: MastraMCPServerDefinition =
    transport === 'http'
      ? { url, protocolVersion: MODERN }
      : { command: process.execPath, args: [ECHO, '--stdio'], protocolVersion: MODERN };
  const mcp = new MCPClient({
    id: `bench-latency-${transport}`,
    registerProcessHooks: false,
    servers: { echo: definition },
  });
  const raw = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await raw.connect(
    transport === 'http'
      ? new StreamableHTTPClientTransport(url)
      : new StdioClientTransport({ command: process.execPath, args: [ECHO, '--stdio'] }),
  );
  const tool = (await mcp.listTools()).echo_echo;
  if (!tool?.execute) throw new Error('echo tool missing');
  const execute = tool.execute;
  const viaMastra = () => execute({ text: 'hello' }, {} as Parameters<typeof execute>[1]);
  const viaSdk = () => raw.callTool({ name: 'echo', arguments: { text: 'hello' } });
  await timeCalls(viaMastra, 100);
  await timeCalls(viaSdk, 100);
  const mastra: number[] = [];
  const sdk: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    sdk.push(...(await timeCalls(viaSdk, CALLS)));
    mastra.push(...(await timeCalls(viaMastra, CALLS)));
  }
  await mcp.disconnect();
  await raw.close();
  if (http) await stop(http.child);
  const overhead = median(mastra) / median(sdk);
  return [
    `| ${transport} | raw SDK callTool | ${ms(median(sdk))} | ${ms(percentile(sdk, 99))} | |`,
    `| ${transport} | MCPClient tool.execute | ${ms(median(mastra))} | ${ms(percentile(mastra, 99))} | ${ratio(overhead)} (overhead ${((overhead - 1) * 100).toFixed(1)}% at p50) |`,
  ];
}

async function coldListTools(servers: Record<string, MastraMCPServerDefinition>, id: string) {
  const mcp = new MCPClient({ id, registerProcessHooks: false, servers });
  const before = process.memoryUsage();
  const started = performance.now();
  const { tools, errors } = await mcp.listToolsWithErrors();
  const elapsed = performance.now() - started;
  const after = process.memoryUsage();
  if (Object.keys(errors).length > 0) throw new Error(`listTools failed: ${JSON.stringify(errors)}`);
  await mcp.disconnect();
  return {
    elapsed,
    tools: Object.keys(tools).length,
    rss: after.rss - before.rss,
    heap: after.heapUsed - before.heapUsed,
  };
}

/** 2. 20 HTTP servers against one, cold; 4. memory per connected server. */
async function httpFanOut(): Promise<string[]> {
  const http = await httpEchoServers(SERVERS);
  const one: number[] = [];
  const many: number[] = [];
  let perServerRss = 0;
  let perServerHeap = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const first = http.urls[0] as URL;
    one.push(
      (await coldListTools({ s0: { url: first, protocolVersion: MODERN } }, `bench-one-${round}`)).elapsed,
    );
    const servers = Object.fromEntries(
      http.urls.map((url, i) => [`s${i}`, { url, protocolVersion: MODERN } as const]),
    );
    const result = await coldListTools(servers, `bench-many-${round}`);
    many.push(result.elapsed);
    perServerRss = result.rss / SERVERS;
    perServerHeap = result.heap / SERVERS;
  }
  await stop(http.child);
  return [
    `| listTools(), 1 HTTP server, cold | ${ms(median(one))} | |`,
    `| listTools(), ${SERVERS} HTTP servers, cold | ${ms(median(many))} | ${ratio(median(many) / median(one))} of one server (target <= 1.5x) |`,
    `| client memory per connected HTTP server | RSS ${(perServerRss / 1024).toFixed(0)} KiB, heap ${(perServerHeap / 1024).toFixed(0)} KiB | |`,
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
  `mastra-mcp client bench ${started}: node ${process.version}, ${ROUNDS} rounds, ${CALLS} calls per round`,
);
console.log('\n| transport | client | p50 | p99 | MCPClient / raw SDK |\n|---|---|---|---|---|');
for (const line of [...(await latency('stdio')), ...(await latency('http'))]) console.log(line);
console.log('\n| measurement | median | ratio |\n|---|---|---|');
for (const line of [...(await httpFanOut()), ...(await stdioFanOut())]) console.log(line);
