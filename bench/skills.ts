/**
 * Skills extension (SEP-2640) benchmark, every figure a ratio against the SDK's own skills server
 * (`SkillsExtension` catalogs from `@modelcontextprotocol/server/ext/skills`, attached to a
 * `McpServer` built per request by `createMcpHandler`) publishing the same skills, measured in the
 * same run (rounds interleaved, each side first in turn), with the load printed beside:
 *   1. `skills/list` over 1,000 skill folders (a SKILL.md and one reference each), every page walked
 *      by an SDK client at 2026-07-28 (pages of 100 on both): time per full walk, and the bytes of
 *      the results;
 *   2. start-up of a 16 MiB skill (16 files: every byte read and hashed), from `new MCPServer()` to
 *      `skills.ready()`, against `loadSkills()`, and against hashing the same bytes with node:crypto
 *      (the floor);
 *   3. a lazy read: `resources/read` of one 1 MiB file of that skill (read from disk and checked
 *      against its digest on every read, by both servers).
 * The four servers (MCPServer and the SDK's, for each folder) run in a child process (this file with
 * --serve) on 127.0.0.1 and ephemeral ports; the folders are written to a temporary directory.
 *
 *   npm run bench:skills   (flags: --rounds <n>, --skills <n>)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { z } from 'zod';
import { MCPServer } from '../src/index.js';
import { MODERN, median, ms, ratio, spawnHttpServers, stop } from './support.js';

const SELF = fileURLToPath(import.meta.url);
const MiB = 2 ** 20;
const BIG_FILES = 16;
const silent = { onWarning: () => {} };

/** Serves both folders with MCPServer and with the SDK's skills server; prints the four ports. */
async function serve(listRoot: string, bigRoot: string): Promise<void> {
  const ports: number[] = [];
  for (const root of [listRoot, bigRoot]) {
    const server = new MCPServer({ name: 'bench-skills', version: '1.0.0', tools: {}, skills: [root] });
    await server.skills.ready();
    ports.push(Number(new URL((await server.listen({ port: 0 })).url).port));
    const catalog = await loadSkills(root, silent);
    const sdk = toNodeHandler(
      createMcpHandler(() => {
        const mcp = new McpServer({ name: 'bench-skills-sdk', version: '1.0.0' });
        catalog.attach(mcp);
        return mcp;
      }),
    );
    const listener = http.createServer((req, res) => void sdk(req, res));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    ports.push((listener.address() as { port: number }).port);
  }
  process.stdout.write(`${JSON.stringify(ports)}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

function writeFolders(count: number) {
  const base = mkdtempSync(join(tmpdir(), 'bench-skills-'));
  const listRoot = join(base, 'many');
  for (let index = 0; index < count; index++) {
    const name = `skill-${String(index).padStart(4, '0')}`;
    mkdirSync(join(listRoot, name, 'references'), { recursive: true });
    writeFileSync(
      join(listRoot, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Skill number ${index}, for the listing benchmark\nlicense: MIT\nmetadata:\n  version: "1.0"\n---\n\n# ${name}\n\nRead references/guide.md.\n`,
    );
    writeFileSync(join(listRoot, name, 'references/guide.md'), `# Guide\n\n${'x'.repeat(1000)}\n`);
  }
  const bigRoot = join(base, 'big');
  mkdirSync(join(bigRoot, 'large', 'data'), { recursive: true });
  const manifest = '---\nname: large\ndescription: A skill at the 16 MiB limit\n---\n\nData in data/.\n';
  writeFileSync(join(bigRoot, 'large/SKILL.md'), manifest);
  // 15 files of 1 MiB and one that fills the skill up to exactly 16 MiB.
  for (let index = 0; index < BIG_FILES - 1; index++) {
    const size = index === BIG_FILES - 2 ? MiB - Buffer.byteLength(manifest) : MiB;
    writeFileSync(join(bigRoot, `large/data/part-${index}.bin`), randomBytes(size));
  }
  return { base, listRoot, bigRoot };
}

async function connect(url: URL): Promise<Client> {
  const client = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

const page = z.looseObject({ skills: z.array(z.unknown()), nextCursor: z.string().optional() });

/** Every page of skills/list: the time it took, the entries and the bytes of the results. */
async function walk(client: Client) {
  const started = performance.now();
  let cursor: string | undefined;
  let entries = 0;
  let bytes = 0;
  do {
    const result = await client.request(
      { method: 'skills/list', params: cursor ? { cursor } : {} } as never,
      page,
    );
    entries += result.skills.length;
    bytes += Buffer.byteLength(JSON.stringify(result));
    cursor = result.nextCursor;
  } while (cursor);
  return { ms: performance.now() - started, entries, bytes };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function main() {
  const { values: flags } = parseArgs({
    options: { rounds: { type: 'string', default: '15' }, skills: { type: 'string', default: '1000' } },
  });
  const rounds = Number(flags.rounds);
  const load = loadavg()[0]?.toFixed(2);
  const { base, listRoot, bigRoot } = writeFolders(Number(flags.skills));
  const fixture = await spawnHttpServers(SELF, ['--serve', listRoot, bigRoot], ['--import', 'tsx']);
  try {
    const [ours, sdk, oursBig, sdkBig] = await Promise.all(fixture.urls.map(connect));
    const clients = { ours: ours as Client, sdk: sdk as Client };

    const listed = { ours: [] as number[], sdk: [] as number[] };
    const bytes = { ours: 0, sdk: 0 };
    let entries = 0;
    for (let round = 0; round <= rounds; round++) {
      for (const side of round % 2 ? (['sdk', 'ours'] as const) : (['ours', 'sdk'] as const)) {
        const result = await walk(clients[side]);
        if (round === 0) continue; // warm-up
        listed[side].push(result.ms);
        bytes[side] = result.bytes;
        entries = result.entries;
      }
    }

    const started = { ours: [] as number[], sdk: [] as number[], floor: [] as number[] };
    const files = Array.from({ length: BIG_FILES - 1 }, (_, index) =>
      join(bigRoot, `large/data/part-${index}.bin`),
    );
    const startups = {
      ours: async () => {
        const server = new MCPServer({ name: 'bench', version: '1.0.0', tools: {}, skills: [bigRoot] });
        await server.skills.ready();
        await server.close();
      },
      sdk: () => loadSkills(bigRoot, silent),
      floor: async () => {
        for (const path of [join(bigRoot, 'large/SKILL.md'), ...files])
          createHash('sha256').update(readFileSync(path)).digest();
      },
    };
    const order = ['ours', 'sdk', 'floor'] as const;
    for (let round = 0; round <= rounds; round++) {
      // Each goes first in turn: the garbage one leaves is collected in the next one's time.
      for (let step = 0; step < order.length; step++) {
        const side = order[(round + step) % order.length] as (typeof order)[number];
        const time = await timed(startups[side]);
        if (round > 0) started[side].push(time);
      }
    }

    const reads = { ours: [] as number[], sdk: [] as number[] };
    const uri = 'skill://large/data/part-0.bin';
    for (let round = 0; round <= rounds; round++) {
      for (const [side, client] of [
        ['ours', oursBig],
        ['sdk', sdkBig],
      ] as const) {
        const time = await timed(() => (client as Client).readResource({ uri }));
        if (round > 0) reads[side].push(time);
      }
    }

    const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)}${value}`);
    console.log(
      `mastra-mcp skills bench ${new Date().toISOString()}: node ${process.version}, ${rounds} rounds, load average ${load} at the start, ${loadavg()[0]?.toFixed(2)} at the end`,
    );
    console.log(`skills/list, ${entries} skills walked (pages of 100), median of ${rounds} walks:`);
    line('MCPServer', `${ms(median(listed.ours))}, ${bytes.ours} bytes`);
    line("SDK's skills server", `${ms(median(listed.sdk))}, ${bytes.sdk} bytes`);
    line(
      'ratio (MCPServer / SDK)',
      `${ratio(median(listed.ours) / median(listed.sdk))} time, ${ratio(bytes.ours / bytes.sdk)} bytes`,
    );
    console.log(
      `start-up of a 16 MiB skill (${BIG_FILES} files read and hashed), median of ${started.ours.length}:`,
    );
    line('MCPServer (new + skills.ready())', ms(median(started.ours)));
    line("SDK's loadSkills()", ms(median(started.sdk)));
    line('read + sha256 alone (floor)', ms(median(started.floor)));
    line(
      'ratio (MCPServer / SDK, / floor)',
      `${ratio(median(started.ours) / median(started.sdk))}, ${ratio(median(started.ours) / median(started.floor))}`,
    );
    console.log(
      `resources/read of one 1 MiB file of it (read and checked on each read), median of ${rounds}:`,
    );
    line('MCPServer', ms(median(reads.ours)));
    line("SDK's skills server", ms(median(reads.sdk)));
    line('ratio (MCPServer / SDK)', ratio(median(reads.ours) / median(reads.sdk)));
    for (const client of [ours, sdk, oursBig, sdkBig]) await client?.close();
  } finally {
    await stop(fixture.child);
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3] as string, process.argv[4] as string);
else await main();
