/**
 * MCPClient loading servers' skills (the Skills extension) over real transports, HTTP on 127.0.0.1
 * and stdio, both eras: listing keyed by server and URI, verified reads, and an Agent (mock model)
 * that reads a skill and a reference through Mastra's own skill tools, files fetched lazily.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import type { MastraError } from '@mastra/core/error';
import { createSkill } from '@mastra/core/skills';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generatedReports } from '../../examples/docs/skills/generated-source.js';
import { MCPErrorCode, type MCPServerConfig } from '../../src/index.js';
import {
  CHECKLIST,
  REFUNDS_FILES,
  reviewSkill,
  skillsServerOverHttp,
  writeSkillFiles,
} from '../fixtures/skills.js';
import { recordedHttp, scriptedModel, skillsClient, skillsStdio } from '../fixtures/skills-client.js';
import type { Era } from '../helpers.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const folder = writeSkillFiles(REFUNDS_FILES);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function httpServer(skills: MCPServerConfig['skills'] = [reviewSkill, folder]) {
  const { server, http } = await skillsServerOverHttp({ skills }, cleanups);
  await server.skills.ready();
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

/** A copy of the fixture's folder, removed after the test. */
function copiedFolder() {
  const copy = mkdtempSync(join(tmpdir(), 'mcp-skills-client-'));
  cpSync(folder, copy, { recursive: true });
  cleanups.push(async () => rmSync(copy, { recursive: true, force: true }));
  return copy;
}

describe('guarantees', () => {
  it('a file changed after listing: the mismatch refreshes the entry once; a change the server cannot publish is refused', async () => {
    const copy = copiedFolder();
    const { definition, methods } = recordedHttp(await httpServer([copy]), 'legacy');
    const mcp = skillsClient({ support: definition }, cleanups);
    const [refunds] = (await mcp.skills.list()).support ?? [];
    writeFileSync(join(copy, 'refunds/references/policy.md'), '# Policy\n\nRefund within 14 days.\n');
    const policy = await mcp.skills.read('support', 'skill://refunds/references/policy.md');
    expect(policy.text).toContain('14 days');
    expect(methods).toContain('skills/get skill://refunds/SKILL.md');
    const refreshed = await mcp.skills.get('support', 'skill://refunds/SKILL.md');
    expect(refreshed.skill.resources).not.toEqual(refunds?.skill.resources);

    writeFileSync(join(copy, 'refunds/SKILL.md'), 'no frontmatter at all\n');
    const error = (await rejectionOf(mcp.skills.read('support', 'skill://refunds/SKILL.md'))) as MastraError;
    expect(error.id).toBe(MCPErrorCode.CLIENT_READ_SKILL_FAILED);
    expect(error.message).toContain(
      "MCP server 'support': skill 'skill://refunds/SKILL.md': file 'skill://refunds/SKILL.md'",
    );
  });

  it('paths that leave a skill folder are refused, through the API and through skill_read', async () => {
    const mcp = skillsClient({ support: { url: await httpServer() } }, cleanups);
    const workspace = await mcp.skills.toMastraSkills();
    for (const path of [
      '../code-review/SKILL.md',
      'references/../../code-review/SKILL.md',
      '%2e%2e/code-review/SKILL.md',
      '/etc/passwd',
    ]) {
      const error = (await rejectionOf(
        workspace.skills.getReference('support/refunds', path),
      )) as MastraError;
      expect(error.id, path).toBe(MCPErrorCode.CLIENT_READ_SKILL_FAILED);
      expect(error.message).toContain(`skill 'skill://refunds/SKILL.md': path '${path}' refused`);
    }
    const outside = (await rejectionOf(
      mcp.skills.read('support', 'skill://refunds/../../etc/passwd'),
    )) as MastraError;
    // `..` cannot climb out of a URI's authority: this is a file refunds does not list.
    expect(outside.message).toContain("file 'skill://refunds/etc/passwd'");
    expect(outside.message).toContain('is not a file of the skill skill://refunds/SKILL.md');
    // A file the skill does not list is not found, and nothing is requested for it.
    expect(await workspace.skills.getReference('support/refunds', 'references/missing.md')).toBeNull();

    const { model, results } = scriptedModel([
      { tool: 'skill_read', input: { skillName: 'support/refunds', path: '../code-review/SKILL.md' } },
    ]);
    const agent = new Agent({ id: 'reader', name: 'Reader', instructions: 'Read.', model, workspace });
    await agent.generate('Read it.');
    expect(results('skill_read')[0]).toContain('refused');
    expect(results('skill_read')[0]).not.toContain('Code review');
  });

  it('two servers serving skill://refunds/SKILL.md, and a local skill named refunds, are kept apart', async () => {
    const refunds = (description: string, instructions: string) =>
      createSkill({ name: 'refunds', description, instructions });
    const eu = await httpServer([refunds('Refunds in the EU', 'EU: 14 days.')]);
    const us = await httpServer([refunds('Refunds in the US', 'US: 30 days.')]);
    const mcp = skillsClient({ eu: { url: eu }, us: { url: us } }, cleanups);
    const listed = await mcp.skills.list();
    expect([listed.eu?.[0]?.uri, listed.us?.[0]?.uri]).toEqual([
      'skill://refunds/SKILL.md',
      'skill://refunds/SKILL.md',
    ]);
    const workspace = await mcp.skills.toMastraSkills();
    const { model, results, system } = scriptedModel([
      { tool: 'skill', input: { name: 'eu/refunds' } },
      { tool: 'skill', input: { name: 'us/refunds' } },
      { tool: 'skill', input: { name: 'refunds' } },
    ]);
    const agent = new Agent({
      id: 'refunder',
      name: 'Refunder',
      instructions: 'Refund.',
      model,
      workspace,
      skills: [refunds('Refunds here', 'Local: 7 days.')],
    });
    await agent.generate('Refund.');
    expect(results('skill')).toEqual([
      'EU: 14 days.\n',
      'US: 30 days.\n',
      expect.stringContaining('Local: 7 days.'),
    ]);
    for (const name of ['<name>eu/refunds</name>', '<name>us/refunds</name>', '<name>refunds</name>'])
      expect(system()).toContain(name);
  });

  it('"dynamic" skills load only when allowed; allowed-tools is kept only for the skills selected', async () => {
    const url = await httpServer({
      skills: [folder],
      sources: [{ source: generatedReports, paths: ['reports'], dynamic: true }],
    });
    const mcp = skillsClient({ support: { url } }, cleanups);
    const strict = (await mcp.skills.toMastraSkills()).skills;
    expect((await strict.list()).map((skill) => skill.name)).not.toContain('support/daily');
    expect(await strict.get('support/daily')).toBeNull();
    expect(await strict.get('support/refunds')).not.toHaveProperty('allowed-tools');

    const open = (
      await mcp.skills.toMastraSkills({ allowDynamic: ['support/daily'], allowedTools: ['support/refunds'] })
    ).skills;
    expect((await open.get('support/daily'))?.instructions).toContain('today.md');
    expect(await open.getReference('support/daily', 'today.md')).toContain(
      new Date().getFullYear().toString(),
    );
    expect(await open.get('support/refunds')).toMatchObject({ 'allowed-tools': 'Bash(git:*) Read' });
    const chosen = (
      await mcp.skills.toMastraSkills({ allowedTools: (entry) => entry.uri.includes('escalation') })
    ).skills;
    expect(await chosen.get('support/refunds')).not.toHaveProperty('allowed-tools');
  });

  it.each(['legacy', 'modern'] as const)('%s: resources/list_changed refreshes the catalog', async (era) => {
    const copy = copiedFolder();
    const { definition } = recordedHttp(await httpServer([copy]), era);
    const mcp = skillsClient({ support: definition }, cleanups);
    const { skills } = await mcp.skills.toMastraSkills();
    expect(await skills.has('support/returns')).toBe(false);
    writeSkillFiles(
      { 'returns/SKILL.md': '---\nname: returns\ndescription: Take back goods\n---\n\nCheck the box.\n' },
      copy,
    );
    await eventually('the new skill in the catalog', async () => {
      await skills.maybeRefresh();
      return skills.has('support/returns');
    });
    expect((await skills.get('support/returns'))?.instructions).toContain('Check the box.');
  });

  it("a skill the server's instructions name is loaded by URI (skills/get, then read)", async () => {
    const hidden = createSkill({ name: 'hidden', description: 'Not listed', instructions: 'Secret steps.' });
    const url = await httpServer([hidden]);
    const mcp = skillsClient({ support: { url } }, cleanups);
    const entry = await mcp.skills.get('support', 'skill://hidden/SKILL.md');
    expect(entry).toMatchObject({ serverName: 'support', uri: 'skill://hidden/SKILL.md' });
    expect((await mcp.skills.read('support', 'skill://hidden/SKILL.md')).body).toContain('Secret steps.');
    const { skills } = await mcp.skills.toMastraSkills({
      servers: [],
      uris: { support: ['skill://hidden/SKILL.md'] },
    });
    expect((await skills.list()).map((skill) => skill.name)).toEqual(['support/hidden']);
    const misspelt = (await rejectionOf(
      mcp.skills.toMastraSkills({ allowedTool: [] } as never),
    )) as MastraError;
    expect(misspelt.message).toContain('allowedTools');
  });
});
