/**
 * Where MCPServer's skills come from besides createSkill() and folders: an agent's skills, a
 * Mastra SkillSource (LocalSkillSource, and one of our own that changes), a source marked
 * `dynamic`, and `prefix`. Over HTTP, read with the SDK v2 SkillsClient.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { LocalSkillSource, type SkillSource } from '@mastra/core/workspace';
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MCPErrorCode, MCPServer, type MCPServerSkills } from '../../src/index.js';
import { REFUNDS_FILES, rawRequest, reviewSkill, serveSkills, writeSkillFiles } from '../fixtures/skills.js';
import { RecordingLogger } from '../support/logger.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const folder = writeSkillFiles(REFUNDS_FILES);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const serve = (skills: MCPServerSkills) => serveSkills({ skills }, cleanups);

/** A Mastra SkillSource over a record the test changes; every path it is asked for is kept. */
function recordSource(files: Record<string, string | (() => string)>) {
  const asked: string[] = [];
  const content = (path: string) => {
    const value = files[path];
    return typeof value === 'function' ? value() : value;
  };
  const children = (dir: string) => {
    const names = new Map<string, 'file' | 'directory'>();
    for (const path of Object.keys(files)) {
      if (!path.startsWith(`${dir}/`)) continue;
      const [name, ...rest] = path.slice(dir.length + 1).split('/');
      names.set(name as string, rest.length ? 'directory' : 'file');
    }
    return names;
  };
  const source: SkillSource = {
    exists: async (path) => content(path) !== undefined || children(path).size > 0,
    stat: async (path) => {
      asked.push(path);
      const text = content(path);
      const now = new Date();
      return text === undefined
        ? { name: path, type: 'directory', size: 0, createdAt: now, modifiedAt: now }
        : { name: path, type: 'file', size: Buffer.byteLength(text), createdAt: now, modifiedAt: now };
    },
    readFile: async (path) => {
      asked.push(path);
      const text = content(path);
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    },
    readdir: async (path) => {
      asked.push(path);
      return [...children(path)].map(([name, type]) => ({ name, type }));
    },
  };
  return { source, asked };
}

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`;

describe('MCPServer skills from agents and sources', () => {
  it("publishes an agent's skills: its folder from disk, its inline skill once with skills", async () => {
    const agent = new Agent({
      id: 'support',
      name: 'support',
      instructions: 'Help customers.',
      model: 'openai/gpt-4o',
      skills: [reviewSkill, join(folder, 'refunds')],
    });
    const { skills } = await serve({ skills: [reviewSkill], agents: [agent] });
    const { skills: entries } = await skills.list();
    expect(entries.map((skill) => skill.uri)).toEqual([
      'skill://code-review/SKILL.md',
      'skill://refunds/SKILL.md',
      'skill://refunds/escalation/SKILL.md',
    ]);
    // The same folder reached through the agent and through `skills` is one skill.
    const both = await serve({ skills: [reviewSkill, folder], agents: [agent] });
    expect((await both.skills.list()).skills.map((skill) => skill.uri)).toEqual(
      entries.map((skill) => skill.uri),
    );

    const alone = new MCPServer({
      name: 'x',
      version: '1',
      tools: {},
      skills: { skills: [folder], agents: [agent] },
    });
    alone.__setLogger(new RecordingLogger());
    const error = await rejectionOf(alone.skills.ready());
    expect(error).toMatchObject({ id: MCPErrorCode.SERVER_SKILL_INVALID });
    expect(String((error as Error).message)).toMatch(
      /skill 'code-review' \(agent 'support'\).*createSkill\(\) value in `skills.skills`/,
    );
    await alone.close();
  });

  it("reads through a Mastra SkillSource, with the source's MIME types, under a prefix", async () => {
    const { skills } = await serve({
      sources: [{ source: new LocalSkillSource(), paths: [folder] }],
      prefix: 'acme/support',
    });
    const { skills: entries } = await skills.list();
    expect(entries.map((skill) => skill.uri)).toEqual([
      'skill://acme/support/refunds/SKILL.md',
      'skill://acme/support/refunds/escalation/SKILL.md',
    ]);
    const policy = await skills.read(entries[0] as never, 'references/policy.md');
    expect([policy.verified, policy.mimeType, policy.text]).toEqual([
      true,
      'text/markdown',
      REFUNDS_FILES['refunds/references/policy.md'],
    ]);
  });

  it('publishes a changed source again on read and on refresh(), telling clients', async () => {
    const files: Record<string, string> = {
      'kb/faq/SKILL.md': skillMd('faq', 'Answer frequent questions'),
      'kb/faq/answers.md': 'v1',
    };
    const { source } = recordSource(files);
    const { server, client, skills } = await serve({ sources: [{ source, paths: ['kb'] }] });
    const listChanged: unknown[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', (notification) => {
      listChanged.push(notification);
    });
    const before = (await skills.get('skill://faq/SKILL.md')).skill;

    files['kb/faq/answers.md'] = 'v2, longer';
    // The bytes no longer match what was published: the skill is published again, then served.
    const read = await client.readResource({ uri: 'skill://faq/answers.md' });
    expect(read.contents[0]).toMatchObject({ text: 'v2, longer' });
    const after = (await skills.get('skill://faq/SKILL.md')).skill;
    expect(after.resources).not.toEqual(before.resources);
    expect((await skills.read(after, 'answers.md')).verified).toBe(true);
    const stale = await rejectionOf(skills.read(before, 'answers.md'));
    expect(stale).toMatchObject({ reason: 'size' });

    files['kb/howto/SKILL.md'] = skillMd('howto', 'Step-by-step guides');
    await server.skills.refresh();
    expect((await server.skills.list()).map((skill) => skill.uri)).toEqual([
      'skill://faq/SKILL.md',
      'skill://howto/SKILL.md',
    ]);
    await eventually('resources/list_changed', () => listChanged.length === 1);
  });

  it('serves a dynamic source live, without digests, and never asks it for a path outside a skill', async () => {
    let generation = 0;
    const { source, asked } = recordSource({
      'reports/daily/SKILL.md': skillMd('daily', "Assemble today's report from live data"),
      'reports/daily/data/today.txt': () => `generation ${++generation}`,
      'reports/secret.txt': 'not a skill file',
    });
    const { client, skills } = await serve({ sources: [{ source, paths: ['reports'], dynamic: true }] });
    const [daily] = (await skills.list()).skills;
    expect(daily).toMatchObject({ uri: 'skill://daily/SKILL.md', resources: 'dynamic' });
    const first = await skills.read(daily as never, 'data/today.txt');
    const second = await skills.read(daily as never, 'data/today.txt');
    expect([first.verified, first.text === second.text]).toEqual([false, false]);
    expect((await skills.readDirectory('skill://daily/data')).resources.map((child) => child.name)).toEqual([
      'today.txt',
    ]);

    asked.length = 0;
    for (const uri of [
      'skill://daily/%2E%2E/secret.txt',
      'skill://daily/data%2F..%2F..%2Fsecret.txt',
      'skill://daily/./x/../../secret.txt',
      'skill://daily/%ZZ',
    ]) {
      const refused = await rejectionOf(client.readResource({ uri }), ProtocolError);
      expect([uri, refused.code]).toEqual([uri, -32602]);
    }
    expect(
      (
        await rejectionOf(
          rawRequest(client, 'resources/directory/read', { uri: 'skill://daily/data%2F..%2F..' }),
          ProtocolError,
        )
      ).code,
    ).toBe(-32602);
    expect(asked.filter((path) => !path.startsWith('reports/daily'))).toEqual([]);
  });
});
