/**
 * One found skill made into what is published: its entry, built by the SDK's `skillEntry()` (which
 * parses the frontmatter with the very reader `SkillsClient` verifies with, hashes every file and
 * checks the extension's structural rules), then the Agent Skills frontmatter rules checked with
 * the key named (frontmatter.ts), and an index of its files for `resources/read`. A dynamic skill
 * (a source marked `dynamic`) is published with `resources: "dynamic"`: only its SKILL.md is read.
 */
import { SKILL_LIMITS, type Skill } from '@modelcontextprotocol/core/ext/skills';
import type { Resource } from '@modelcontextprotocol/server';
import { SkillCatalogError, skillEntry } from '@modelcontextprotocol/server/ext/skills';
import type { FoundSkill } from './discover.js';
import { describeProblems, frontmatterProblems } from './frontmatter.js';
import { mimeTypeOf } from './mime.js';
import { type SkillsPlan, skillError } from './plan.js';
import type { SkillRoot } from './roots.js';
import { SKILL_FILE, SKILL_SCHEME } from './uris.js';

/** One file of a published skill, as `resources/read` finds it. */
export interface PublishedFile {
  uri: string;
  root: SkillRoot;
  /** In the root's tree. */
  path: string;
  digest: string;
  size: number;
  mimeType: string;
}

export interface PublishedSkill {
  entry: Skill;
  root: SkillRoot;
  /** The skill's folder in the root's tree. */
  dir: string;
  /** The same skill reached twice has one identity (a folder's real path, `inline:<name>`). */
  identity: string;
  /** Its files by URI (none for a dynamic skill). */
  files: PublishedFile[];
  /** Its SKILL.md as `resources/list` shows it. */
  listed: Resource;
}

const inTree = (dir: string, path: string) => (dir === '' ? path : `${dir}/${path}`);

/** The path below the skill folder a URI of its entry names (the SDK percent-encodes each segment). */
function pathOf(uri: string, depth: number): string {
  return uri.slice(SKILL_SCHEME.length).split('/').slice(depth).map(decodeURIComponent).join('/');
}

async function entryOf(
  plan: SkillsPlan,
  skill: FoundSkill,
  label: string,
  files: Record<string, Uint8Array>,
) {
  try {
    return await skillEntry([...plan.prefix, ...skill.segments].join('/'), files);
  } catch (error) {
    if (!(error instanceof SkillCatalogError)) throw error;
    const problems = error.problems.map((problem) => problem.message).join('; ');
    throw skillError(plan.serverId, label, `(${skill.root.origin}) cannot be published: ${problems}`);
  }
}

export async function publish(plan: SkillsPlan, skill: FoundSkill): Promise<PublishedSkill> {
  const { root, dir } = skill;
  const label = skill.segments.join('/');
  const read = skill.root.dynamic ? skill.files.filter((file) => file.path === SKILL_FILE) : skill.files;
  const bytes: Record<string, Uint8Array> = {};
  for (const file of read)
    bytes[file.path] = await root.tree.read(inTree(dir, file.path), SKILL_LIMITS.bytes);
  const entry = await entryOf(plan, skill, label, bytes);
  const problems = frontmatterProblems(entry.frontmatter);
  if (problems.length > 0) {
    throw skillError(
      plan.serverId,
      label,
      `(${root.origin}) has frontmatter the Agent Skills specification does not allow: ${describeProblems(problems)}`,
    );
  }
  const depth = plan.prefix.length + skill.segments.length;
  const files: PublishedFile[] = [];
  for (const resource of root.dynamic ? [] : (entry.resources as Exclude<Skill['resources'], 'dynamic'>)) {
    const path = pathOf(resource.uri, depth);
    const mimeType = (await root.tree.mimeType?.(inTree(dir, path))) ?? mimeTypeOf(path);
    files.push({
      uri: resource.uri,
      root,
      path: inTree(dir, path),
      digest: resource.digest,
      size: resource.size,
      mimeType,
    });
  }
  const { name, description } = entry.frontmatter;
  return {
    entry: root.dynamic ? { ...entry, resources: 'dynamic' } : entry,
    root,
    dir,
    identity: dir === '' ? root.identity : `${root.identity}/${dir}`,
    files,
    listed: {
      uri: entry.uri,
      name,
      description,
      mimeType: 'text/markdown',
      // A dynamic SKILL.md may be another size by the time it is read.
      ...(root.dynamic ? {} : { size: (bytes[SKILL_FILE] as Uint8Array).byteLength }),
    },
  };
}
