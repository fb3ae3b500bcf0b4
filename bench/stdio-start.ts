/**
 * Spawn to first answer of a stdio server, as a host starts one: the process is spawned, a
 * 2026-07-28 `server/discover` request is written to its stdin at once (the AI SDK's client waits
 * 1 s for this answer), and the time to the answer's line on stdout is taken. Each sample is a
 * fresh `node` process of bench/fixtures/stdio-start-server.mjs; rounds interleave the variants
 * and medians are reported:
 *   - `mcp`: MCPServer (the built package, imported from `mastra-mcp`) with three tools, then with
 *     an Agent, then with an Agent and a workflow;
 *   - `mcp-server`: the same imported from `mastra-mcp/server`, the server side alone;
 *   - `sdk`: the raw SDK's McpServer publishing the same three tools, with the same imports beside
 *     it (@mastra/core/tools, and the agent and workflow modules for those shapes).
 * The package's share is the difference of the two medians for each shape.
 *
 *   npm run build && npx tsx bench/stdio-start.ts   (flags: --runs <n> (9))
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/client';
import { MODERN, median, ratio } from './support.js';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const RUNS = Number(flags.runs);
const SERVER = fileURLToPath(new URL('./fixtures/stdio-start-server.mjs', import.meta.url));
const built = (file: string) =>
  pathToFileURL(fileURLToPath(new URL(`../dist/${file}`, import.meta.url))).href;
/** The package entry each MCPServer variant imports. */
const ENTRIES: Record<string, string> = { mcp: built('index.mjs'), 'mcp-server': built('server.mjs') };
const SHAPES = ['tools', 'agent', 'workflow'] as const;
const SERVERS = ['sdk', 'mcp', 'mcp-server'] as const;

const DISCOVER = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      [PROTOCOL_VERSION_META_KEY]: MODERN,
      [CLIENT_INFO_META_KEY]: { name: 'bench', version: '1.0.0' },
      [CLIENT_CAPABILITIES_META_KEY]: {},
    },
  },
})}\n`;

/** Milliseconds from spawn to the line answering `server/discover`. */
function sample(server: string, shape: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [SERVER, server === 'sdk' ? 'sdk' : 'mcp', shape], {
      env: { ...process.env, MASTRA_MCP_ENTRY: ENTRIES[server] },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.write(DISCOVER);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (!line.includes('"id":1')) return;
      const elapsed = performance.now() - started;
      if (!line.includes('"result"')) reject(new Error(`${server} ${shape}: ${line}`));
      else resolve(elapsed);
      child.kill();
    });
    child.once('exit', (code) => reject(new Error(`${server} ${shape} exited (${code}) before answering`)));
  });
}

const times = new Map<string, number[]>();
console.log(
  `stdio spawn to the server/discover answer, median of ${RUNS} fresh processes per variant (rounds interleaved), node ${process.version}, load average ${loadavg()[0]?.toFixed(2)}`,
);
for (let round = 0; round < RUNS; round++) {
  for (const shape of SHAPES) {
    // The order rotates each round, so that no variant always runs first.
    for (let i = 0; i < SERVERS.length; i++) {
      const server = SERVERS[(round + i) % SERVERS.length] as (typeof SERVERS)[number];
      const key = `${server} ${shape}`;
      times.set(key, [...(times.get(key) ?? []), await sample(server, shape)]);
    }
  }
}
console.log(
  '\n| server | raw SDK, same imports | MCPServer from `mastra-mcp` | its share | MCPServer from `mastra-mcp/server` | its share |\n|---|---:|---:|---:|---:|---:|',
);
for (const shape of SHAPES) {
  const [sdk, mcp, server] = SERVERS.map((name) => median(times.get(`${name} ${shape}`) ?? []));
  const share = (value = 0) => `${(value - (sdk ?? 0)).toFixed(0)} ms (${ratio(value / (sdk ?? 1))})`;
  console.log(
    `| ${shape} | ${sdk?.toFixed(0)} ms | ${mcp?.toFixed(0)} ms | ${share(mcp)} | ${server?.toFixed(0)} ms | ${share(server)} |`,
  );
}
console.log(`\nload average at the end: ${loadavg()[0]?.toFixed(2)}`);
