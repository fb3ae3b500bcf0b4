/**
 * Time to the first tool result in a fresh process, measured on the built package (run `npm run
 * build` first): import the client, connect one stdio server (bench/fixtures/echo-server.mjs, the
 * raw SDK's McpServer), list its tools and call one. Each sample is a new `node` process and the
 * figure is `performance.now()` at the result (milliseconds since the process started), with the
 * RSS then; rounds interleave the clients, medians reported:
 *   - mastra-mcp: `new MCPClient(...)`, `listTools()`, the tool's `execute()`;
 *   - `@mastra/mcp` (the peer library, installed from the registry into a temporary app for the
 *     run, never a dependency of this project): the same code;
 *   - the raw SDK: `Client.connect()` over `StdioClientTransport`, `listTools()`, `callTool()`.
 *
 *   npm run build && npx tsx bench/startup.ts   (flags: --runs <n> (7), --peer <version> (2.0.0))
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, ratio } from './support.js';

const { values: flags } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, peer: { type: 'string', default: '2.0.0' } },
});
const RUNS = Number(flags.runs);
const repo = fileURLToPath(new URL('..', import.meta.url));
const ECHO = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));
const server = JSON.stringify({ command: process.execPath, args: [ECHO, '--stdio'] });

/** The program each client runs; it prints `{ ms, rssMb }` at its first tool result. */
const mastraProgram = (specifier: string) => `
const { MCPClient } = await import('${specifier}');
const mcp = new MCPClient({ servers: { echo: ${server} } });
const tools = await mcp.listTools();
await tools.echo_echo.execute({ text: 'hello' }, {});
console.log(JSON.stringify({ ms: performance.now(), rssMb: process.memoryUsage().rss / 2 ** 20 }));
await mcp.disconnect();`;
const sdkProgram = `
const { Client } = await import('@modelcontextprotocol/client');
const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(new StdioClientTransport(${server}));
await client.listTools();
await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
console.log(JSON.stringify({ ms: performance.now(), rssMb: process.memoryUsage().rss / 2 ** 20 }));
await client.close();`;

function sample(program: string, cwd: string): { ms: number; rssMb: number } {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

const peerApp = mkdtempSync(join(tmpdir(), 'mastra-mcp-startup-'));
try {
  writeFileSync(
    join(peerApp, 'package.json'),
    JSON.stringify({ name: 'peer-app', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `@mastra/mcp@${flags.peer}`,
      '@mastra/core@1.71.0',
      'zod@^4',
    ],
    { cwd: peerApp, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const clients: [string, string, string][] = [
    ['mastra-mcp', mastraProgram('mastra-mcp'), repo],
    [`@mastra/mcp ${flags.peer}`, mastraProgram('@mastra/mcp'), peerApp],
    ['raw SDK Client', sdkProgram, repo],
  ];
  console.log(
    `time to the first tool result in a fresh process, median of ${RUNS} (rounds interleaved), node ${process.version}, load average ${loadavg()[0]?.toFixed(2)}`,
  );
  const samples = clients.map(() => ({ ms: [] as number[], rss: [] as number[] }));
  for (let round = 0; round < RUNS; round++) {
    for (const [index, [, program, cwd]] of clients.entries()) {
      const { ms, rssMb } = sample(program, cwd);
      samples[index]?.ms.push(ms);
      samples[index]?.rss.push(rssMb);
    }
  }
  const ours = median(samples[0]?.ms ?? []);
  console.log('\n| client | first tool result | RSS then | mastra-mcp / this |\n|---|---:|---:|---:|');
  for (const [index, [label]] of clients.entries()) {
    const { ms = [], rss = [] } = samples[index] ?? {};
    const mine = median(ms);
    console.log(
      `| ${label} | ${mine.toFixed(0)} ms | ${median(rss).toFixed(1)} MB | ${index === 0 ? '' : ratio(ours / mine)} |`,
    );
  }
  console.log(`\nload average at the end: ${loadavg()[0]?.toFixed(2)}`);
} finally {
  rmSync(peerApp, { recursive: true, force: true });
}
