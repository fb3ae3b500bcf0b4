/**
 * MCPClient's skills against servers built only with the SDK (`@modelcontextprotocol/server/ext/skills`):
 * a well-behaved catalog, as the extension text describes it, and hostile sources whose entries and
 * files lie (wrong digest, oversize, bad frontmatter, a huge listing, a read that never ends). Each
 * gets an error naming the server, the skill and the file, or is left out and logged; nothing hangs.
 */
import { Agent } from '@mastra/core/agent';
import type { MastraError } from '@mastra/core/error';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import {
  memorySkillFiles,
  SkillCatalog,
  type SkillReadResult,
  SkillsExtension,
  skillEntry,
} from '@modelcontextprotocol/server/ext/skills';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPErrorCode } from '../../src/index.js';
import { serveSdkHttp } from '../fixtures/client-harness.js';
import { revision, scriptedModel, serveSdkSkills, skillsClient } from '../fixtures/skills-client.js';
import { rejectionOf, thrownBy } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const SKILL_MD = '---\nname: refunds\ndescription: Process refunds\n---\n\nRead references/policy.md.\n';
const POLICY = '# Policy\n\nWithin 30 days.\n';
const FILES = { 'SKILL.md': SKILL_MD, 'references/policy.md': POLICY };

/**
 * A source serving `entries` (as given: nothing checks them) and `files` by URI; `reads` and
 * `gets` count what was asked.
 */
function lyingSource(entries: unknown[], files: Record<string, string | (() => Promise<SkillReadResult>)>) {
  const counts = { reads: [] as string[], gets: 0 };
  const extension = new SkillsExtension({
    onWarning: () => {},
    source: {
      list: async () => ({ skills: entries as Skill[] }),
      get: async (uri) => {
        counts.gets++;
        return (entries as Skill[]).find((entry) => entry.uri === uri);
      },
      read: async (uri) => {
        counts.reads.push(uri);
        const file = files[uri];
        if (typeof file === 'function') return file();
        return file === undefined ? undefined : { text: file };
      },
    },
  });
  return { extension, counts };
}

const honest = () => skillEntry('refunds', FILES);

describe('interoperability: a skills server built only with the SDK', () => {
  it.each(['legacy', 'modern'] as const)(
    '%s: its catalog is listed, read and verified, and loaded into Mastra skills',
    async (era) => {
      const catalog = await SkillCatalog.load(
        memorySkillFiles({ 'refunds/SKILL.md': SKILL_MD, 'refunds/references/policy.md': POLICY }),
        { prefix: 'acme', onWarning: () => {} },
      );
      const mcp = skillsClient(
        { sdk: { url: await serveSdkSkills(catalog, cleanups), protocolVersion: revision(era) } },
        cleanups,
      );
      const listed = await mcp.skills.list();
      expect(listed.sdk?.map((entry) => entry.uri)).toEqual(['skill://acme/refunds/SKILL.md']);
      const { skills } = await mcp.skills.toMastraSkills();
      expect((await skills.list()).map((skill) => skill.name)).toEqual(['sdk/acme/refunds']);
      expect((await skills.get('sdk/acme/refunds'))?.instructions).toContain('Read references/policy.md.');
      expect(await skills.getReference('sdk/acme/refunds', 'references/policy.md')).toBe(POLICY);
    },
  );

  it('a server without the extension has no skills; asking it for one names it', async () => {
    const plain = await serveSdkHttp();
    cleanups.push(() => plain.close());
    const mcp = skillsClient({ plain: { url: plain.url } }, cleanups);
    expect(await mcp.skills.list()).toEqual({ plain: [] });
    const error = (await rejectionOf(mcp.skills.get('plain', 'skill://refunds/SKILL.md'))) as MastraError;
    expect(error.id).toBe(MCPErrorCode.CLIENT_SKILLS_NOT_SUPPORTED);
    expect(error.message).toContain("MCP server 'plain' does not declare the Skills extension");
  });
});

describe('hostile servers', () => {
  it('a file that does not match its digest: the entry is fetched again once, then the read is refused naming server, skill and file', async () => {
    const { extension, counts } = lyingSource([await honest()], {
      'skill://refunds/SKILL.md': SKILL_MD,
      'skill://refunds/references/policy.md': '# Policy\n\nWithin 90 days.\n',
    });
    const mcp = skillsClient({ evil: { url: await serveSdkSkills(extension, cleanups) } }, cleanups);
    const error = (await rejectionOf(
      mcp.skills.read('evil', 'skill://refunds/references/policy.md'),
    )) as MastraError;
    expect(error.id).toBe(MCPErrorCode.CLIENT_READ_SKILL_FAILED);
    expect(error.message).toContain(
      "MCP server 'evil': skill 'skill://refunds/SKILL.md': file 'skill://refunds/references/policy.md' failed verification after its entry was refreshed with skills/get",
    );
    expect(error.message).toContain('digest');
    expect(counts.gets).toBe(1);
    // The agent's tools get the same error; nothing of the file reaches the model.
    const { skills } = await mcp.skills.toMastraSkills();
    expect(
      ((await rejectionOf(skills.getReference('evil/refunds', 'references/policy.md'))) as Error).message,
    ).toContain('failed verification');
  });

  it('a tampered SKILL.md fails the agent step naming server, skill and file; the skill is then left out', async () => {
    const { extension } = lyingSource([await honest()], {
      'skill://refunds/SKILL.md': SKILL_MD.replace('Read', 'Wipe'),
    });
    const mcp = skillsClient({ evil: { url: await serveSdkSkills(extension, cleanups) } }, cleanups);
    const workspace = await mcp.skills.toMastraSkills();
    const agent = (model: ReturnType<typeof scriptedModel>['model']) =>
      new Agent({ id: 'victim', name: 'Victim', instructions: 'Help.', model, workspace });
    const first = scriptedModel([{ tool: 'skill', input: { name: 'evil/refunds' } }]);
    const error = (await rejectionOf(agent(first.model).generate('Refund.'))) as Error;
    expect(error.message).toContain(
      "MCP server 'evil': skill 'skill://refunds/SKILL.md': file 'skill://refunds/SKILL.md' failed verification",
    );
    expect(first.prompts).toEqual([]); // the model never saw a byte of it
    const second = scriptedModel([{ tool: 'skill', input: { name: 'evil/refunds' } }]);
    expect((await agent(second.model).generate('Refund.')).text).toBe('done');
    expect(second.results('skill')[0]).toContain('not found');
    expect(await workspace.skills.list()).toEqual([]);
  });

  it('a SKILL.md whose frontmatter differs from its entry, or a file larger than listed, is refused', async () => {
    const entry = await honest();
    // The digest matches SKILL.md, but its frontmatter is not the entry's.
    entry.frontmatter = { ...entry.frontmatter, description: 'Process refunds quickly' };
    const { extension } = lyingSource([entry], {
      'skill://refunds/SKILL.md': SKILL_MD,
      'skill://refunds/references/policy.md': `${POLICY}${'x'.repeat(10_000)}`,
    });
    const mcp = skillsClient({ evil: { url: await serveSdkSkills(extension, cleanups) } }, cleanups);
    const { skills } = await mcp.skills.toMastraSkills();
    const frontmatter = (await rejectionOf(skills.get('evil/refunds'))) as MastraError;
    expect(frontmatter.message).toContain("file 'skill://refunds/SKILL.md' failed verification");
    expect(frontmatter.message).toContain('description');
    const size = (await rejectionOf(
      mcp.skills.read('evil', 'skill://refunds/references/policy.md'),
    )) as MastraError;
    expect(size.message).toContain(
      `is ${Buffer.byteLength(POLICY) + 10_000} bytes; the skill entry lists ${Buffer.byteLength(POLICY)}`,
    );
  });

  it('entries over the extension limits are left out and logged naming the skill, before any read', async () => {
    // (The SDK's server drops entries its own checks refuse before sending them; the SDK client
    // the MCPClient reads with refuses the same ones, and they are logged like these.)
    const good = await honest();
    const huge = {
      uri: 'skill://huge/SKILL.md',
      frontmatter: { name: 'huge', description: 'Too big' },
      resources: [{ uri: 'skill://huge/SKILL.md', digest: `sha256:${'0'.repeat(64)}`, size: 17 * 2 ** 20 }],
    };
    const { extension, counts } = lyingSource([good, huge], {});
    const logs: string[] = [];
    const mcp = skillsClient(
      {
        evil: { url: await serveSdkSkills(extension, cleanups), logger: (entry) => logs.push(entry.message) },
      },
      cleanups,
    );
    expect((await mcp.skills.list()).evil?.map((entry) => entry.uri)).toEqual(['skill://refunds/SKILL.md']);
    expect(logs.join('\n')).toContain(
      "MCP server 'evil': skill 'skill://huge/SKILL.md' left out: its files total 17825792 bytes, more than the extension's 16777216",
    );
    expect(counts.reads).toEqual([]);
  });

  it('a listing longer than skills.maxSkills is refused, naming the server and the option', async () => {
    const entries = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        skillEntry(`s${index}`, { 'SKILL.md': `---\nname: s${index}\ndescription: Skill ${index}\n---\n` }),
      ),
    );
    const { extension } = lyingSource(entries, {});
    const url = await serveSdkSkills(extension, cleanups);
    const bounded = skillsClient({ flood: { url } }, cleanups, { skills: { maxSkills: 100 } });
    const { skills, errors } = await bounded.skills.listWithErrors();
    expect(skills).toEqual({});
    expect(errors.flood).toContain(
      "MCP server 'flood' listed 300 skills, more than the client holds for one server (the MCPClient option skills.maxSkills, 100)",
    );
    // The catalog leaves the server out, logged, rather than failing the agent.
    expect(await (await bounded.skills.toMastraSkills()).skills.list()).toEqual([]);
    const roomy = skillsClient({ flood: { url } }, cleanups);
    expect((await roomy.skills.list()).flood).toHaveLength(300);
  });

  it('a read the server never answers ends at the client timeout, naming the server and the file', async () => {
    const { extension } = lyingSource([await honest()], {
      'skill://refunds/SKILL.md': () => new Promise<never>(() => {}),
    });
    const mcp = skillsClient({ stuck: { url: await serveSdkSkills(extension, cleanups) } }, cleanups, {
      timeout: 500,
    });
    const error = (await rejectionOf(mcp.skills.read('stuck', 'skill://refunds/SKILL.md'))) as MastraError;
    expect(error.id).toBe(MCPErrorCode.CLIENT_READ_SKILL_FAILED);
    expect(error.message).toContain(
      "MCP server 'stuck': skill 'skill://refunds/SKILL.md': file 'skill://refunds/SKILL.md' could not be read",
    );
  });

  it('the cache holds at most skills.maxCachedBytes: reading past it evicts the oldest files', async () => {
    const files: Record<string, string> = {
      'SKILL.md': SKILL_MD.replace('refunds', 'bulk').replace('refunds', 'bulk'),
    };
    for (let index = 0; index < 6; index++) files[`references/f${index}.md`] = `${index}`.repeat(1000);
    const entry = await skillEntry('bulk', files);
    const served = Object.fromEntries(
      Object.entries(files).map(([path, text]) => [`skill://bulk/${path}`, text]),
    );
    const { extension, counts } = lyingSource([entry], served);
    const mcp = skillsClient({ bulk: { url: await serveSdkSkills(extension, cleanups) } }, cleanups, {
      skills: { maxCachedBytes: 3000 },
    });
    const read = (index: number) => mcp.skills.read('bulk', `skill://bulk/references/f${index}.md`);
    for (let index = 0; index < 6; index++) await read(index);
    await read(5); // still held
    await read(0); // evicted: read again
    const reads = (uri: string) => counts.reads.filter((read) => read === uri).length;
    expect([reads('skill://bulk/references/f5.md'), reads('skill://bulk/references/f0.md')]).toEqual([1, 2]);
    const error = thrownBy<MastraError>(() =>
      skillsClient({ bulk: { url: new URL('http://127.0.0.1:9') } }, cleanups, {
        skills: { maxCachedByte: 1 } as never,
      }),
    );
    expect(error.message).toContain('did you mean `maxCachedBytes`?');
  });
});
