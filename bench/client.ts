/**
 * MCPClient benchmark, every figure a ratio measured in the same run:
 *   1. per-call latency of a Mastra tool's `execute()` against the raw SDK `Client.callTool()` on
 *      the same server, over stdio and Streamable HTTP (2026-07-28), rounds interleaved;
 *   2. cold `listTools()` over 20 HTTP servers against a single one (are they truly concurrent?),
 *      with the raw SDK doing the same beside it, at several simulated round-trip latencies:
 *      on loopback every connection is pure CPU, which one event loop cannot overlap;
 *   3. cold `listTools()` over 20 stdio servers against the floor of merely starting the same 20
 *      processes concurrently without MCP;
 *   4. client heap retained per connected server (needs --expose-gc, which `npm run bench:client` passes).
 * The servers are the raw SDK's McpServer (bench/fixtures/echo-server.mjs) in child processes.
 *
 *   npm run bench:client    (flags: --calls <n> per round, --rounds <n>, --servers <n>,
 *                            --latencies <ms,ms,...> for the HTTP fan-out, default 0,25,50,100)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type MastraMCPServerDefinition, MCPClient } from '../src/index.js';
import { MODERN, median, ms, percentile, ratio, spawnHttpServers, stop } from './support.js';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '400' },
    rounds: { type: 'string', default: '3' },
    servers: { type: 'string', default: '20' },
    latencies: { type: 'string', default: '0,25,50,100' },
  },
});
const CALLS = Number(flags.calls);
const ROUNDS = Number(flags.rounds);
const SERVERS = Number(flags.servers);
const LATENCIES = flags.latencies.split(',').map(Number);
const ECHO = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));

const httpEchoServers = (count: number, latency = 0) =>
  spawnHttpServers(ECHO, ['--http', String(count), String(latency)]);

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
  `mastra-mcp client bench ${started}: node ${process.version}, ${ROUNDS} rounds, ${CALLS} calls per round`,
);
console.log('\n| transport | client | p50 | p99 | MCPClient / raw SDK |\n|---|---|---|---|---|');
for (const line of [...(await latency('stdio')), ...(await latency('http'))]) console.log(line);
for (const line of await httpFanOut()) console.log(line);
console.log('\n| measurement | median | ratio |\n|---|---|---|');
for (const line of await stdioFanOut()) console.log(line);
