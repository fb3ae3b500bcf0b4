/**
 * MCPClient loading servers' skills (the Skills extension) over real transports, HTTP on 127.0.0.1
 * and stdio, both eras: listing keyed by server and URI, verified reads, and an Agent (mock model)
 * that reads a skill and a reference through Mastra's own skill tools, files fetched lazily.
 */
import { rmSync } from 'node:fs';
import { Agent } from '@mastra/core/agent';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { CHECKLIST, REFUNDS_FILES, reviewSkill, writeSkillFiles } from '../fixtures/skills.js';
import { recordedHttp, scriptedModel, skillsClient, skillsStdio } from '../fixtures/skills-client.js';
import { type Era, serveHttp } from '../helpers.js';

const folder = writeSkillFiles(REFUNDS_FILES);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function httpServer() {
  const server = new MCPServer({
    name: 'skills',
    version: '1.0.0',
    tools: {},
    skills: [reviewSkill, folder],
  });
  await server.skills.ready();
  const http = await serveHttp(server);
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  return http.mcpUrl;
}

const URIS = [
  'skill://code-review/SKILL.md',
  'skill://refunds/SKILL.md',
  'skill://refunds/escalation/SKILL.md',
];

describe.each(['legacy', 'modern'] as const)('%s', (era: Era) => {
  it("HTTP: listed by server and URI; an agent reads a skill and a reference through Mastra's skill tools, lazily", async () => {
    const { definition, methods } = recordedHttp(await httpServer(), era);
    const mcp = skillsClient({ support: definition }, cleanups);
    const listed = await mcp.skills.list();
    expect(listed.support?.map((entry) => [entry.serverName, entry.uri])).toEqual(
      URIS.map((uri) => ['support', uri]),
    );
    const workspace = await mcp.skills.toMastraSkills();
    expect(methods.filter((method) => method.startsWith('resources/read'))).toEqual([]);

    const { model, results, system } = scriptedModel([
      { tool: 'skill', input: { name: 'support/refunds' } },
      { tool: 'skill_read', input: { skillName: 'support/refunds', path: 'references/policy.md' } },
    ]);
    const agent = new Agent({ id: 'helper', name: 'Helper', instructions: 'Help.', model, workspace });
    const result = await agent.generate('A customer wants a refund.');
    expect(result.text).toBe('done');
    // The catalog names each skill's server.
    expect(system()).toContain('support/refunds');
    expect(system()).toContain('a skill of MCP server &apos;support&apos;');
    expect(results('skill')[0]).toContain('Read references/policy.md first.');
    expect(results('skill')[0]).toContain('references/policy.md');
    expect(results('skill_read')[0]).toContain('Refund within 30 days.');
    // Read: every SKILL.md (Mastra's catalog asks for each listed skill) and the one reference, once each.
    const reads = methods.filter((method) => method.startsWith('resources/read')).sort();
    expect(reads).toEqual([
      'resources/read skill://code-review/SKILL.md',
      'resources/read skill://refunds/SKILL.md',
      'resources/read skill://refunds/escalation/SKILL.md',
      'resources/read skill://refunds/references/policy.md',
    ]);
    // Verified reads are cached: reading again asks nothing.
    const checklist = await mcp.skills.read('support', 'skill://code-review/references/checklist.md');
    expect(checklist).toMatchObject({ serverName: 'support', text: CHECKLIST, verified: true });
    await mcp.skills.read('support', 'skill://code-review/references/checklist.md');
    expect(methods.filter((method) => method.endsWith('checklist.md'))).toHaveLength(1);
  });

  it('stdio: the same skills, read and verified', async () => {
    const mcp = skillsClient({ local: skillsStdio(folder, era) }, cleanups);
    const workspace = await mcp.skills.toMastraSkills();
    const skills = workspace.skills;
    expect((await skills.list()).map((skill) => skill.name)).toEqual([
      'local/code-review',
      'local/refunds',
      'local/refunds/escalation',
    ]);
    const refunds = await skills.get('local/refunds');
    expect(refunds).toMatchObject({ references: ['policy.md'], scripts: ['check.py'], assets: ['logo.png'] });
    expect(refunds?.instructions).toContain('# Refunds');
    expect(await skills.getReference('local/refunds', 'references/policy.md')).toContain('30 days');
    expect(await skills.getReference('local/refunds/escalation', 'templates/email.md')).toBe(
      'Dear manager,\n',
    );
  });
});
