/**
 * A SkillTree is where a skill's files are read from: a folder on disk (disk-tree.ts), a Mastra
 * `SkillSource` (source-tree.ts) or a `createSkill()` value held in memory (here). Paths are
 * relative and `/`-separated (`''` is the tree's root); every adapter refuses one that could leave
 * the tree (`..`, `.`, an empty segment, a backslash or NUL) before touching storage, and every
 * read is bounded: a file over `max` bytes is refused, not read.
 */
import { MCPErrorCode, mcpError } from '../../errors.js';

/** A child of a directory. `unsupported`: a symlink or special file, never followed. */
export interface TreeEntry {
  name: string;
  kind: 'file' | 'directory' | 'unsupported';
  /** Bytes, for files. */
  size: number;
}

export interface SkillTree {
  list(dir: string): Promise<TreeEntry[]>;
  /** A file's bytes; throws for a file over `max` bytes (or one that grows past it while read). */
  read(path: string, max: number): Promise<Uint8Array>;
  /** The MIME type the storage knows for a file, when it keeps one. */
  mimeType?(path: string): Promise<string | undefined>;
}

/** The segments of a relative path, or `undefined` when it could leave the tree. */
export function safeSegments(path: string): string[] | undefined {
  if (path === '') return [];
  const segments = path.split('/');
  const unsafe = segments.some(
    (segment) =>
      segment === '' ||
      segment === '.' ||
      segment === '..' ||
      segment.includes('\\') ||
      segment.includes('\0'),
  );
  return unsafe ? undefined : segments;
}

/** `path` as given, or a throw naming it when it could leave the tree. */
export function checkedPath(path: string): string {
  if (safeSegments(path) === undefined) {
    throw mcpError(MCPErrorCode.SERVER_SKILL_INVALID, `path ${JSON.stringify(path)} leaves its skill folder`);
  }
  return path;
}

export function tooLarge(path: string, max: number) {
  return mcpError(MCPErrorCode.SERVER_SKILL_INVALID, `${path} is larger than ${max} bytes`);
}

/** Files held in memory, keyed by relative path; directories are implied by the paths. */
export function memoryTree(files: ReadonlyMap<string, Uint8Array>): SkillTree {
  const children = new Map<string, Map<string, TreeEntry>>();
  for (const [path, bytes] of files) {
    const segments = safeSegments(checkedPath(path)) as string[];
    let dir = '';
    for (const [index, name] of segments.entries()) {
      const last = index === segments.length - 1;
      const siblings = children.get(dir) ?? new Map<string, TreeEntry>();
      children.set(dir, siblings);
      siblings.set(name, { name, kind: last ? 'file' : 'directory', size: last ? bytes.byteLength : 0 });
      dir = dir === '' ? name : `${dir}/${name}`;
    }
  }
  return {
    async list(dir) {
      return [...(children.get(checkedPath(dir))?.values() ?? [])];
    },
    async read(path, max) {
      const bytes = files.get(checkedPath(path));
      if (!bytes) throw mcpError(MCPErrorCode.SERVER_SKILL_INVALID, `${path} does not exist`);
      if (bytes.byteLength > max) throw tooLarge(path, max);
      return bytes;
    },
  };
}
