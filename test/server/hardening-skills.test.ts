/**
 * The bounds of MCPServer's `skills` option (docs/SECURITY.md), each flooded past: the per-skill
 * limits (512 files, 16 MiB, 512 folders) refused before a byte is read, frontmatter the Agent
 * Skills specification does not allow refused naming skill and key, paths and symlinks that leave
 * a skill's folder refused at start and at every read, a file grown past the limit after start
 * never read whole, `skills/list` paged. Over HTTP where a client is involved.
 */
import {
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSkill } from '@mastra/core/skills';
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPErrorCode, MCPServer, type MCPServerConfig } from '../../src/index.js';
import { REFUNDS_FILES, rawRequest, serveSkills, writeSkillFiles } from '../fixtures/skills.js';
import { RecordingLogger } from '../support/logger.js';
import { rejectionOf, thrownBy } from '../support/results.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const LIMIT_BYTES = 16 * 1024 * 1024;
const POLICY = 'skill://refunds/references/policy.md';

function tempFolder(files: Record<string, string | Uint8Array> = {}): string {
  const folder = writeSkillFiles(files, mkdtempSync(join(tmpdir(), 'mcp-skills-bounds-')));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function server(skills: MCPServerConfig['skills'], extra: Partial<MCPServerConfig> = {}) {
  const built = new MCPServer({ name: 'bounds', version: '1.0.0', tools: {}, skills, ...extra });
  const logger = new RecordingLogger();
  built.__setLogger(logger);
  cleanups.push(() => built.close());
  return Object.assign(built, { logger });
}

/** Why the server refuses these skills: `ready()` rejects with it, and it is logged once. */
async function refusal(skills: MCPServerConfig['skills']): Promise<string> {
  const built = server(skills);
  const error = await rejectionOf(built.skills.ready());
  expect(error).toMatchObject({ id: MCPErrorCode.SERVER_SKILL_INVALID });
  expect(built.logger.errors).toEqual([(error as Error).message]);
  return (error as Error).message;
}

const serving = (skills: MCPServerConfig['skills'], extra: Partial<MCPServerConfig> = {}) =>
  serveSkills({ skills, ...extra }, cleanups, 'modern');

const manifest = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: A skill\n${extra}---\nBody\n`;

describe('MCPServer skills bounds', () => {
  it('refuses a createSkill() value the specification does not allow when the server is built, naming skill and key', () => {
    const numbers = createSkill({
      name: 'pricing',
      description: 'Prices',
      instructions: 'x',
      metadata: { version: 2, owner: 'ops' },
    });
    const error = thrownBy<Error & { id: string }>(
      () => new MCPServer({ name: 's', version: '1', tools: {}, skills: [numbers] }),
    );
    expect([error.id, error.message]).toEqual([
      MCPErrorCode.SERVER_SKILL_INVALID,
      expect.stringMatching(
        /skill 'pricing' has frontmatter .*: metadata\.version must be a string, got a number$/,
      ),
    ]);
    const escaping = createSkill({
      name: 'notes',
      description: 'Notes',
      instructions: 'x',
      references: { '../../etc/passwd': 'x' },
    });
    expect(
      thrownBy<Error>(() => new MCPServer({ name: 's', version: '1', tools: {}, skills: [escaping] }))
        .message,
    ).toMatch(/skill 'notes' has a reference "\.\.\/\.\.\/etc\/passwd" that leaves its folder/);
  });

  it('refuses a malformed option naming it', () => {
    const misspelt = thrownBy<Error & { id: string }>(() => server({ skill: [] } as never));
    expect([misspelt.id, misspelt.message]).toEqual([
      MCPErrorCode.SERVER_INVALID_SKILLS_OPTION,
      expect.stringContaining('did you mean `skills`'),
    ]);
    const prefix = thrownBy<Error & { id: string }>(() => server({ prefix: 'acme/../x' }));
    expect([prefix.id, prefix.message]).toEqual([
      MCPErrorCode.SERVER_INVALID_SKILLS_OPTION,
      expect.stringContaining('`skills.prefix`'),
    ]);
  });

  it('refuses frontmatter of a folder skill naming skill and key; listen() fails with it', async () => {
    const license = tempFolder({ 'billing/SKILL.md': manifest('billing', 'license: 3\n') });
    expect(await refusal([license])).toMatch(/skill 'billing' .*license must be a string, got a number/);
    const metadata = tempFolder({ 'billing/SKILL.md': manifest('billing', 'metadata:\n  version: 2\n') });
    expect(await refusal([metadata])).toMatch(/skill 'billing' .*metadata/);
    const mismatch = tempFolder({ 'billing/SKILL.md': manifest('invoices') });
    expect(await refusal([mismatch])).toMatch(/skill 'billing' .*must match the last path segment/);
    const listening = await rejectionOf(server([license]).listen({ port: 0 }));
    expect(listening).toMatchObject({ id: MCPErrorCode.SERVER_SKILL_INVALID });
  });

  it('refuses a skill over 512 files, 16 MiB or 512 folders before reading it', async () => {
    const files: Record<string, string> = { 'many/SKILL.md': manifest('many') };
    for (let index = 0; index < 512; index++) files[`many/f/${index}.txt`] = 'x';
    expect(await refusal([tempFolder(files)])).toMatch(/skill 'many' .*more than 512 files/);

    const large = tempFolder({ 'large/SKILL.md': manifest('large') });
    writeFileSync(join(large, 'large/data.bin'), '');
    // Sparse: were it read, 16 MiB of zeros would come back; the walk refuses it by its size.
    truncateSync(join(large, 'large/data.bin'), LIMIT_BYTES);
    expect(await refusal([large])).toMatch(/skill 'large' .*more than 512 files or 16777216 bytes/);

    const folders = tempFolder({ 'deep/SKILL.md': manifest('deep') });
    for (let index = 0; index < 513; index++) mkdirSync(join(folders, `deep/d${index}`));
    expect(await refusal([folders])).toMatch(/skill 'deep' .*more than 512 folders/);

    // Nested skills count in the skill holding them.
    const nested = tempFolder({
      'outer/SKILL.md': manifest('outer'),
      'outer/inner/SKILL.md': manifest('inner'),
    });
    truncateSync(join(nested, 'outer/inner/SKILL.md'), LIMIT_BYTES);
    expect(await refusal([nested])).toMatch(/skill 'outer' .*over the Skills extension's per-skill limits/);
  });

  it('refuses symlinks in a skill folder, and a skill folder that is one', async () => {
    const outside = tempFolder({ 'secret.txt': 'outside' });
    const linked = tempFolder(REFUNDS_FILES);
    symlinkSync(join(outside, 'secret.txt'), join(linked, 'refunds/references/secret.txt'));
    expect(await refusal([linked])).toMatch(
      /skill 'refunds' .*holds references\/secret\.txt, a symlink or special file/,
    );

    const folderLink = tempFolder({});
    symlinkSync(join(tempFolder(REFUNDS_FILES), 'refunds'), join(folderLink, 'refunds'));
    expect(await refusal([folderLink])).toMatch(/holds refunds, a symlink or special file/);

    const twice = await refusal([tempFolder(REFUNDS_FILES), tempFolder(REFUNDS_FILES)]);
    expect(twice).toMatch(
      /skill 'refunds' is published twice at skill:\/\/refunds\/SKILL\.md \(skills\[0\].* and skills\[1\]/,
    );
  });

  it('never reads through a folder swapped for a symlink after start, even to a file with the same bytes', async () => {
    const folder = tempFolder(REFUNDS_FILES);
    const { client } = await serving([folder]);
    const outside = tempFolder({ 'policy.md': REFUNDS_FILES['refunds/references/policy.md'] as string });
    renameSync(join(folder, 'refunds/references'), join(folder, 'refunds/references.moved'));
    symlinkSync(outside, join(folder, 'refunds/references'));
    const refused = await rejectionOf(client.readResource({ uri: POLICY }), ProtocolError);
    expect([refused.code, refused.message]).toEqual([
      -32603,
      expect.stringContaining('could not be published again'),
    ]);
  });

  it('refuses a file grown past 16 MiB after start without reading it whole', async () => {
    const folder = tempFolder(REFUNDS_FILES);
    const { client } = await serving([folder]);
    truncateSync(join(folder, 'refunds/references/policy.md'), LIMIT_BYTES + 1);
    const refused = await rejectionOf(client.readResource({ uri: POLICY }), ProtocolError);
    expect(refused.code).toBe(-32603);
  });

  it('pages 1,000 skills 100 at a time; a failed load refuses skills requests but leaves other resources', async () => {
    const many = Array.from({ length: 1000 }, (_, index) =>
      createSkill({
        name: `skill-${String(index).padStart(4, '0')}`,
        description: 'One of many',
        instructions: 'x',
      }),
    );
    const { client } = await serving(many);
    const page = await rawRequest(client, 'skills/list', {});
    expect([(page.skills as unknown[]).length, typeof page.nextCursor]).toEqual([100, 'string']);

    const broken = tempFolder({ 'billing/SKILL.md': manifest('billing', 'license: 3\n') });
    const failed = await serving([broken], {
      resources: {
        listResources: async () => [{ uri: 'file://notes.txt', name: 'notes' }],
        getResourceContent: async () => ({ text: 'notes' }),
      },
    });
    await rejectionOf(failed.server.skills.ready());
    const list = await rejectionOf(rawRequest(failed.client, 'skills/list', {}), ProtocolError);
    expect([list.code, list.message]).toEqual([
      -32603,
      expect.stringContaining('its skills could not be loaded'),
    ]);
    expect((await failed.client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      'file://notes.txt',
    ]);
  });
});
