/**
 * Finds the skills in a root, as Mastra finds an agent's skill paths: the root itself when it
 * holds a `SKILL.md`, else each folder directly in it that does; then every skill folder nested
 * in one of those (any depth) is a skill too, and its files stay in the enclosing skill's list, as
 * the extension asks. Each skill's files are listed with their sizes before a byte is read, so the
 * per-skill limits (512 files, 16 MiB) refuse a skill without reading it, and the walk stops as
 * soon as it is over them. A symlink or special file refuses its skill; names starting with `.`
 * are skipped, as the SDK's catalogs do.
 */
import { SKILL_LIMITS } from '@modelcontextprotocol/core/ext/skills';
import { type SkillsPlan, skillError } from './plan.js';
import type { SkillRoot } from './roots.js';
import type { TreeEntry } from './trees.js';
import { SKILL_FILE } from './uris.js';

/** Folders walked per skill at most: a skill of empty folders is bounded like one of files. */
const MAX_FOLDERS = SKILL_LIMITS.files;

export interface SkillFile {
  /** Relative to the skill's folder. */
  path: string;
  size: number;
}

export interface FoundSkill {
  root: SkillRoot;
  /** The skill's folder in the root's tree (`''`: the root itself). */
  dir: string;
  /** Its skill path below the prefix: the last segment is its name. */
  segments: string[];
  /** Every file below its folder, nested skills' included. */
  files: SkillFile[];
}

const join = (dir: string, name: string) => (dir === '' ? name : name === '' ? dir : `${dir}/${name}`);
const visible = (entry: TreeEntry) => !entry.name.startsWith('.');
const holdsSkill = (entries: TreeEntry[]) =>
  entries.some((entry) => entry.kind === 'file' && entry.name === SKILL_FILE);

/** Files below `dir`, and the folders below it holding a SKILL.md (relative to `dir`). */
async function walk(plan: SkillsPlan, skill: FoundSkill, label: string): Promise<string[]> {
  const nested: string[] = [];
  let folders = 0;
  let bytes = 0;
  const visit = async (relative: string): Promise<void> => {
    const entries = (await skill.root.tree.list(join(skill.dir, relative))).filter(visible);
    if (relative !== '' && holdsSkill(entries)) nested.push(relative);
    for (const entry of entries) {
      const path = join(relative, entry.name);
      if (entry.kind === 'unsupported') throw unsupported(plan, label, skill.root.origin, path);
      if (entry.kind === 'directory') {
        if (++folders > MAX_FOLDERS) throw overLimit(plan, label, skill, `more than ${MAX_FOLDERS} folders`);
        await visit(path);
        continue;
      }
      skill.files.push({ path, size: entry.size });
      bytes += entry.size;
      if (skill.files.length > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes) {
        throw overLimit(
          plan,
          label,
          skill,
          `more than ${SKILL_LIMITS.files} files or ${SKILL_LIMITS.bytes} bytes`,
        );
      }
    }
  };
  await visit('');
  return nested;
}

function unsupported(plan: SkillsPlan, label: string, origin: string, path: string) {
  return skillError(
    plan.serverId,
    label,
    `(${origin}) holds ${path}, a symlink or special file, which is never followed: copy what it points to into the folder instead`,
  );
}

function overLimit(plan: SkillsPlan, label: string, skill: FoundSkill, what: string) {
  return skillError(
    plan.serverId,
    label,
    `(${skill.root.origin}) has ${what}, over the Skills extension's per-skill limits (512 files, 16 MiB, nested skills included): split it or move large files elsewhere`,
  );
}

async function topSkills(plan: SkillsPlan, root: SkillRoot): Promise<FoundSkill[]> {
  const entries = (await root.tree.list('')).filter(visible);
  if (holdsSkill(entries)) return [{ root, dir: '', segments: [root.name], files: [] }];
  const found: FoundSkill[] = [];
  for (const entry of entries) {
    if (entry.kind === 'unsupported') throw unsupported(plan, root.name, root.origin, entry.name);
    if (entry.kind !== 'directory') continue;
    if (holdsSkill(await root.tree.list(entry.name))) {
      found.push({ root, dir: entry.name, segments: [entry.name], files: [] });
    }
  }
  if (found.length === 0) {
    throw skillError(
      plan.serverId,
      root.name,
      `(${root.origin}) holds no skill: a skill is a folder with a ${SKILL_FILE}`,
    );
  }
  return found;
}

/** Every skill in `root`, nested ones after the skill holding them. */
export async function discover(plan: SkillsPlan, root: SkillRoot): Promise<FoundSkill[]> {
  const skills: FoundSkill[] = [];
  for (const top of await topSkills(plan, root)) {
    const label = top.segments.join('/');
    const nested = await walk(plan, top, label);
    skills.push(top);
    for (const dir of nested) {
      skills.push({
        root,
        dir: join(top.dir, dir),
        segments: [...top.segments, ...dir.split('/')],
        files: top.files
          .filter((file) => file.path.startsWith(`${dir}/`))
          .map((file) => ({ path: file.path.slice(dir.length + 1), size: file.size })),
      });
    }
  }
  return skills;
}
