/**
 * `mastra-mcp generate` lists the skills each server serves (Skills extension) in the generated
 * server map, from MCPClient's `skills.listWithErrors()`: discovery against MCPServer over HTTP, the
 * module rendered; a server without skills renders as before, and a failing skills listing is a
 * warning, never a failure.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { MCPServerConfig } from '../../src/index.js';
import { discover } from '../../src/typegen/discover.js';
import { renderModule } from '../../src/typegen/render.js';
import { REFUNDS_FILES, reviewSkill, skillsServerOverHttp, writeSkillFiles } from '../fixtures/skills.js';
import { skillsClient } from '../fixtures/skills-client.js';

const folder = writeSkillFiles(REFUNDS_FILES);
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function served(config: Partial<MCPServerConfig>) {
  const { server, http } = await skillsServerOverHttp(config, cleanups);
  await server.skills.ready();
  return http.mcpUrl;
}

it("lists each server's skills by URI, with names and descriptions; a server without skills renders as before", async () => {
  const support = await served({
    name: 'support',
    version: '1.0.0',
    tools: {},
    skills: [reviewSkill, folder],
  });
  const plain = await served({ name: 'plain', version: '1.0.0', tools: {} });
  const client = skillsClient({ support: { url: support }, plain: { url: plain } }, cleanups);
  const found = await discover({ client, where: 'clients.ts', outFile: 'mcp-types.ts' } as never, undefined);
  expect(found.failures).toEqual([]);
  expect(Object.keys(found.skills ?? {})).toEqual(['support']);
  const { text, failures } = renderModule(found.catalogue ?? {}, found.legacyServers, found.skills);
  expect(failures).toEqual([]);
  expect(text).toContain('\'skill://refunds/SKILL.md\': { name: "refunds" }');
  expect(text).toContain('Process customer refund requests per company policy');
  expect(text).toContain('\'skill://refunds/escalation/SKILL.md\': { name: "escalation" }');
  expect(text).toMatch(/plain: \{\s*tools: \{\}\s*\}/);
});
