/**
 * MCPServer's `skills` option over real transports (HTTP and stdio, both eras): an inline skill, a
 * folder skill with references, a script and a binary asset, and a skill nested in it. Read by the
 * SDK v2 `SkillsClient` (which validates every entry and verifies every file against it), by raw
 * requests for the wire details, and by the SDK v1 client as plain resources.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type Client, ProtocolError } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MCPServerConfig } from '../../src/index.js';
import { CALCULATOR_HTML, CALCULATOR_URI } from '../fixtures/app-resources.js';
import {
  CHECKLIST,
  LOGO,
  REFUNDS_FILES,
  rawRequest,
  reviewSkill,
  serveSkills,
  writeSkillFiles,
} from '../fixtures/skills.js';
import { type Era, newClient } from '../helpers.js';
import { rejectionOf } from '../support/results.js';

const folder = writeSkillFiles(REFUNDS_FILES);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const serve = (config: Partial<MCPServerConfig> = {}, era: Era = 'legacy') =>
  serveSkills({ skills: [reviewSkill, folder], ...config }, cleanups, era);

const digest = (content: string | Uint8Array) =>
  `sha256:${createHash('sha256').update(content).digest('hex')}`;
const bytesOf = (content: string | Uint8Array) =>
  typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;

/** What the entry of the `refunds` folder skill must list: every file below it, nested skill's included. */
function refundsManifest(prefix = 'refunds/') {
  return Object.entries(REFUNDS_FILES)
    .filter(([path]) => path.startsWith(prefix))
    .map(([path, content]) => ({ uri: `skill://${path}`, digest: digest(content), size: bytesOf(content) }))
    .sort((a, b) => (a.uri < b.uri ? -1 : 1));
}

const URIS = [
  'skill://code-review/SKILL.md',
  'skill://refunds/SKILL.md',
  'skill://refunds/escalation/SKILL.md',
];

/** What every transport and era must serve of the fixture's skills. */
async function expectSkillsServed(client: Client, era: Era) {
  expect(client.getServerCapabilities()).toMatchObject({
    resources: {},
    extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
  });
  const skills = new SkillsClient(client);
  const listing = await skills.list();
  expect(listing.skills.map((skill) => skill.uri)).toEqual(URIS);
  expect(listing.invalid).toEqual([]);
  // ttlMs and cacheScope are 2026-07-28 fields.
  expect([listing.ttlMs, listing.cacheScope]).toEqual(
    era === 'modern' ? [0, 'private'] : [undefined, undefined],
  );
  const [review, refunds, escalation] = listing.skills as [Skill, Skill, Skill];
  // Frontmatter verbatim: allowed-tools passes through as written.
  expect(refunds.frontmatter).toEqual({
    name: 'refunds',
    description: 'Process customer refund requests per company policy',
    license: 'Apache-2.0',
    'allowed-tools': 'Bash(git:*) Read',
    metadata: { version: '2.1' },
  });
  expect(review.frontmatter).toEqual({
    name: 'code-review',
    description: 'Review a code change for correctness and style',
    license: 'MIT',
    metadata: { version: '1.2' },
  });
  expect(refunds.resources).toEqual(refundsManifest());
  expect(escalation.resources).toEqual(refundsManifest('refunds/escalation/'));

  // Every file of every skill reads back verified, each with its own MIME type.
  for (const skill of listing.skills) {
    for (const file of skill.resources as Array<{ uri: string }>) {
      const read = await skills.read(skill, file.uri);
      expect(read.verified).toBe(true);
    }
  }
  const checklist = await skills.read(review, 'references/checklist.md');
  expect([checklist.text, checklist.mimeType]).toEqual([CHECKLIST, 'text/markdown']);
  const logo = await skills.read(refunds, 'assets/logo.png');
  expect([Buffer.from(logo.bytes).equals(Buffer.from(LOGO)), logo.text, logo.mimeType]).toEqual([
    true,
    undefined,
    'image/png',
  ]);
  expect((await skills.read(refunds, 'scripts/check.py')).mimeType).toBe('text/x-python');
  const manifest = await skills.read(refunds);
  expect([manifest.mimeType, manifest.frontmatter?.name]).toEqual(['text/markdown', 'refunds']);

  // skills/get: the same entry; anything but a served skill's SKILL.md is -32602.
  expect((await skills.get('skill://refunds/escalation/SKILL.md')).skill).toEqual(escalation);
  for (const uri of [
    'skill://refunds/references/policy.md',
    'skill://refunds',
    'skill://chargebacks/SKILL.md',
    'skill://refunds/../code-review/SKILL.md',
    'not a uri',
  ]) {
    const error = await rejectionOf(rawRequest(client, 'skills/get', { uri }), ProtocolError);
    expect([uri, error.code]).toEqual([uri, -32602]);
  }
  expect((await rejectionOf(rawRequest(client, 'skills/get', {}), ProtocolError)).code).toBe(-32602);

  // Directories: direct children, subdirectories as inode/directory; a file is not one.
  const root = await skills.readDirectory('skill://refunds');
  expect(root.resources.map((child) => [child.name, child.mimeType])).toEqual([
    ['SKILL.md', 'text/markdown'],
    ['assets', 'inode/directory'],
    ['escalation', 'inode/directory'],
    ['references', 'inode/directory'],
    ['scripts', 'inode/directory'],
  ]);
  expect((await skills.readDirectory('skill://refunds/escalation/templates')).resources).toEqual([
    {
      uri: 'skill://refunds/escalation/templates/email.md',
      name: 'email.md',
      mimeType: 'text/markdown',
      size: 14,
    },
  ]);
  for (const uri of ['skill://refunds/SKILL.md', 'skill://nowhere']) {
    const error = await rejectionOf(rawRequest(client, 'resources/directory/read', { uri }), ProtocolError);
    expect([uri, error.code]).toEqual([uri, -32602]);
  }

  // Hosts that predate the extension: every SKILL.md listed with its frontmatter's name and description.
  const { resources } = await client.listResources();
  expect(resources.map(({ uri, name, mimeType }) => [uri, name, mimeType])).toEqual(
    URIS.map((uri) => [uri, uri.split('/').at(-2), 'text/markdown']),
  );
  expect(resources[1]?.description).toBe('Process customer refund requests per company policy');
}

describe('MCPServer skills', () => {
  it.each<Era>(['modern', 'legacy'])(
    'serves inline, folder and nested skills over HTTP (%s)',
    async (era) => {
      const { client } = await serve({}, era);
      await expectSkillsServed(client, era);
    },
  );

  it.each<Era>(['modern', 'legacy'])('serves them over stdio (%s)', async (era) => {
    const client = newClient(era);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'test/fixtures/skills-stdio-server.ts', folder],
        stderr: 'pipe',
      }),
    );
    cleanups.push(() => client.close());
    await expectSkillsServed(client, era);
  });

  it('pages skills/list with whole entries, and refuses a cursor it did not issue', async () => {
    const { client } = await serve(
      {
        skills: {
          skills: [reviewSkill, folder],
          pageSize: 2,
          cacheHint: { ttlMs: 60_000, cacheScope: 'public' },
        },
      },
      'modern',
    );
    const first = await rawRequest(client, 'skills/list', {});
    expect([(first.skills as unknown[]).length, first.ttlMs, first.cacheScope]).toEqual([
      2,
      60_000,
      'public',
    ]);
    const second = await rawRequest(client, 'skills/list', { cursor: first.nextCursor });
    expect([(second.skills as unknown[]).length, second.nextCursor]).toEqual([1, undefined]);
    const uris = [...(first.skills as Array<{ uri: string }>), ...(second.skills as Array<{ uri: string }>)];
    expect(uris.map((skill) => skill.uri)).toEqual(URIS);
    expect((uris[1] as unknown as { resources: unknown }).resources).toEqual(refundsManifest());
    expect(
      (await rejectionOf(rawRequest(client, 'skills/list', { cursor: 'not-ours' }), ProtocolError)).code,
    ).toBe(-32602);
    // Directory children page the same way.
    const page = await rawRequest(client, 'resources/directory/read', { uri: 'skill://refunds' });
    expect([(page.resources as unknown[]).length, typeof page.nextCursor]).toEqual([2, 'string']);
  });

  it('coexists with the resources option and app resources; allowed-tools grants nothing', async () => {
    const { client } = await serve({
      appResources: { [CALCULATOR_URI]: { name: 'Calculator', html: CALCULATOR_HTML } },
      resources: {
        listResources: async () => [{ uri: 'file://notes.txt', name: 'notes', mimeType: 'text/plain' }],
        getResourceContent: async ({ uri }) => ({ text: `content of ${uri}` }),
      },
    });
    expect(client.getServerCapabilities()?.extensions).toEqual({
      'io.modelcontextprotocol/ui': expect.any(Object),
      'io.modelcontextprotocol/skills': { directoryRead: true },
    });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([CALCULATOR_URI, ...URIS, 'file://notes.txt']);
    expect((await client.readResource({ uri: 'file://notes.txt' })).contents[0]).toMatchObject({
      text: 'content of file://notes.txt',
    });
    expect((await client.readResource({ uri: CALCULATOR_URI })).contents[0]?.uri).toBe(CALCULATOR_URI);
    expect(
      (await client.readResource({ uri: 'skill://code-review/references/checklist.md' })).contents[0],
    ).toMatchObject({ text: CHECKLIST });
    expect((await client.listTools()).tools).toEqual([]);
  });

  it('reads every file of every skill for an SDK v1 client, which knows only resources', async () => {
    const { http } = await serve();
    const client = new ClientV1({ name: 'v1-host', version: '1.0.0' });
    await client.connect(new HttpTransportV1(http.mcpUrl));
    cleanups.push(() => client.close());
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(URIS);
    for (const [path, content] of Object.entries(REFUNDS_FILES)) {
      const [item] = (await client.readResource({ uri: `skill://${path}` })).contents;
      const bytes =
        item && 'blob' in item ? Buffer.from(item.blob as string, 'base64') : Buffer.from(String(item?.text));
      expect([path, digest(bytes)]).toEqual([path, digest(content)]);
    }
    const manifest = await client.readResource({ uri: 'skill://code-review/SKILL.md' });
    expect(manifest.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: expect.stringContaining('name: code-review'),
    });
  });
});
