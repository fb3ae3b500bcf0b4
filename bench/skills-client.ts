/**
 * MCPClient skills benchmark: every figure a ratio against the SDK's own `SkillsClient` doing the
 * same reads in the same run (rounds interleaved, each side first in turn), over HTTP on 127.0.0.1
 * against one MCPServer (in this process) serving N skill folders (a SKILL.md and a 1 MiB
 * reference each), at 2026-07-28:
 *   1. loading into an agent: `toMastraSkills()` and the catalog Mastra shows (`skills.list()`),
 *      which reads no file, against SkillsClient listing and reading every SKILL.md (what building
 *      the catalog from files costs: Mastra's own discovery reads every SKILL.md);
 *   2. a lazy read: the first `mcp.skills.read()` of one 1 MiB reference (fetched, size and digest
 *      checked), against `SkillsClient.read()` of it;
 *   3. the same read again: MCPClient answers from its cache of verified files, SkillsClient
 *      fetches and checks it again.
 * Each round uses fresh clients, connected before the clock starts.
 *
 *   npm run bench:skills-client   (flags: --rounds <n>, --skills <n>)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { MCPClient, MCPServer } from '../src/index.js';
import { MODERN, median, ms, ratio } from './support.js';

const MiB = 2 ** 20;

function writeFolder(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'bench-skills-client-'));
  for (let index = 0; index < count; index++) {
    const name = `skill-${String(index).padStart(4, '0')}`;
    mkdirSync(join(root, name, 'references'), { recursive: true });
    writeFileSync(
      join(root, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Skill number ${index}\n---\n\n# ${name}\n\nRead references/data.md.\n${'Step.\n'.repeat(200)}`,
    );
    writeFileSync(join(root, name, 'references/data.md'), randomBytes(MiB / 2).toString('hex'));
  }
  return root;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

let clients = 0;
async function ours(url: URL): Promise<MCPClient> {
  const mcp = new MCPClient({
    id: `bench-${++clients}`,
    servers: { bench: { url, protocolVersion: MODERN } },
    registerProcessHooks: false,
  });
  await mcp.getServerInfo();
  await mcp.resources.list(); // connected before the clock starts
  return mcp;
}

async function sdk(url: URL): Promise<{ client: Client; skills: SkillsClient }> {
  const client = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return { client, skills: new SkillsClient(client) };
}

async function main() {
  const { values: flags } = parseArgs({
    options: { rounds: { type: 'string', default: '7' }, skills: { type: 'string', default: '200' } },
  });
  const rounds = Number(flags.rounds);
  const count = Number(flags.skills);
  const load = loadavg()[0]?.toFixed(2);
  const root = writeFolder(count);
  const server = new MCPServer({ name: 'bench', version: '1.0.0', tools: {}, skills: [root] });
  await server.skills.ready();
  const url = new URL((await server.listen({ port: 0 })).url);
  const reference = 'skill://skill-0000/references/data.md';
  const catalog = { ours: [] as number[], sdk: [] as number[] };
  const first = { ours: [] as number[], sdk: [] as number[] };
  const again = { ours: [] as number[], sdk: [] as number[] };
  try {
    for (let round = 0; round <= rounds; round++) {
      const mcp = await ours(url);
      const host = await sdk(url);
      let entries: Skill[] = [];
      const sides = {
        ours: async () => {
          const workspace = await mcp.skills.toMastraSkills();
          const listed = await workspace.skills.list();
          if (listed.length !== count) throw new Error(`listed ${listed.length} skills`);
        },
        sdk: async () => {
          entries = (await host.skills.list()).skills;
          for (const entry of entries) await host.skills.read(entry);
        },
      };
      const order = round % 2 ? (['sdk', 'ours'] as const) : (['ours', 'sdk'] as const);
      for (const side of order) {
        const time = await timed(sides[side]);
        if (round > 0) catalog[side].push(time);
      }
      const entry = entries.find((skill) => skill.uri === 'skill://skill-0000/SKILL.md') as Skill;
      const reads = {
        ours: () => mcp.skills.read('bench', reference),
        sdk: () => host.skills.read(entry, 'references/data.md'),
      };
      for (const into of [first, again])
        for (const side of order) {
          const time = await timed(reads[side]);
          if (round > 0) into[side].push(time);
        }
      await mcp.disconnect();
      await host.client.close();
    }
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
  const line = (label: string, value: string) => console.log(`  ${label.padEnd(44)}${value}`);
  console.log(
    `mastra-mcp skills client bench ${new Date().toISOString()}: node ${process.version}, ${count} skills, ${rounds} rounds, load average ${load} at the start, ${loadavg()[0]?.toFixed(2)} at the end`,
  );
  console.log('loading into an agent, median:');
  line('MCPClient toMastraSkills() + catalog', ms(median(catalog.ours)));
  line('SkillsClient list + read every SKILL.md', ms(median(catalog.sdk)));
  line('ratio (MCPClient / SkillsClient)', ratio(median(catalog.ours) / median(catalog.sdk)));
  console.log('a lazy read of one 1 MiB reference (size and digest checked), median:');
  line('MCPClient skills.read(), first', ms(median(first.ours)));
  line('SkillsClient read()', ms(median(first.sdk)));
  line('ratio (MCPClient / SkillsClient)', ratio(median(first.ours) / median(first.sdk)));
  console.log('the same read again, median:');
  line('MCPClient skills.read(), cached', ms(median(again.ours)));
  line('SkillsClient read(), fetched again', ms(median(again.sdk)));
  line('ratio (MCPClient / SkillsClient)', ratio(median(again.ours) / median(again.sdk)));
}

await main();
