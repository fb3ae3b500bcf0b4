/**
 * Skill folders on disk change while MCPServer serves them: a changed file is hashed again and the
 * entry follows (clients told with resources/updated and list_changed), an added or removed skill
 * changes the listing, and a change that makes the skill unpublishable leaves the previous entry
 * without ever serving bytes that do not match it. Over HTTP (legacy sessions, which receive
 * notifications), read with the SDK v2 SkillsClient.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProtocolError } from '@modelcontextprotocol/client';
import { type SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { afterEach, describe, expect, it } from 'vitest';
import { REFUNDS_FILES, serveSkills, writeSkillFiles } from '../fixtures/skills.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const digest = (content: string) => `sha256:${createHash('sha256').update(content).digest('hex')}`;
const POLICY = 'skill://refunds/references/policy.md';

async function serveFolder() {
  const folder = writeSkillFiles(REFUNDS_FILES);
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const served = await serveSkills({ skills: [folder] }, cleanups);
  const { client } = served;
  const notices = { updated: [] as string[], listChanged: 0 };
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    notices.updated.push(notification.params.uri);
  });
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    notices.listChanged++;
  });
  return { ...served, folder, notices };
}

async function policyDigest(skills: SkillsClient): Promise<string | undefined> {
  const { skill } = await skills.get('skill://refunds/SKILL.md');
  return (skill.resources as Array<{ uri: string; digest: string }>).find((file) => file.uri === POLICY)
    ?.digest;
}

describe('MCPServer skills on disk that change', () => {
  it('hashes a changed file again: entries follow, subscribers are told, a stale entry fails verification', async () => {
    const { folder, client, skills, notices } = await serveFolder();
    await client.subscribeResource({ uri: POLICY });
    const before = (await skills.get('skill://refunds/SKILL.md')).skill;

    const changed = '# Policy\n\nRefund within 14 days.\n';
    writeFileSync(join(folder, 'refunds/references/policy.md'), changed);
    await eventually('the new digest', async () => (await policyDigest(skills)) === digest(changed));
    await eventually('resources/updated', () => notices.updated.includes(POLICY));
    // The nested skill's files did not change, and neither did its entry.
    expect(notices.updated).toEqual([POLICY]);
    expect(notices.listChanged).toBe(0);

    const stale = await rejectionOf(skills.read(before, 'references/policy.md'), SkillVerificationError);
    expect(stale.reason).toBe('digest');
    const fresh = await skills.read(
      (await skills.get('skill://refunds/SKILL.md')).skill,
      'references/policy.md',
    );
    expect(fresh.text).toBe(changed);
  });

  it('lists a skill added to a watched folder, and drops one removed', async () => {
    const { folder, server, skills, notices } = await serveFolder();
    mkdirSync(join(folder, 'returns'));
    writeFileSync(
      join(folder, 'returns/SKILL.md'),
      '---\nname: returns\ndescription: Take back goods\n---\nBody\n',
    );
    await eventually('the new skill', async () =>
      (await skills.list()).skills.some((skill) => skill.uri === 'skill://returns/SKILL.md'),
    );
    await eventually('resources/list_changed', () => notices.listChanged > 0);

    rmSync(join(folder, 'returns'), { recursive: true });
    await eventually('the skill gone', async () => (await server.skills.list()).length === 2);
  });

  it('keeps the entry of a skill changed into one it cannot publish, and never serves the new bytes', async () => {
    const { folder, client, skills, logger } = await serveFolder();
    const before = (await skills.list()).skills;
    const unpublishable = '---\nname: refunds\ndescription: Refunds\nlicense: 3\n---\nBody\n';
    writeFileSync(join(folder, 'refunds/SKILL.md'), unpublishable);

    const refused = await rejectionOf(
      client.readResource({ uri: 'skill://refunds/SKILL.md' }),
      ProtocolError,
    );
    expect([refused.code, refused.message]).toEqual([
      -32603,
      expect.stringContaining('could not be published again'),
    ]);
    expect((await skills.list()).skills).toEqual(before);
    expect(logger.errors.at(-1)).toMatch(
      /skill 'refunds' .*license must be a string.*\(the skills published before stay\)$/,
    );
    // Put back, it is served again.
    writeFileSync(join(folder, 'refunds/SKILL.md'), REFUNDS_FILES['refunds/SKILL.md'] as string);
    const read = await skills.read(before[0] as never);
    expect(read.verified).toBe(true);
  });
});
