/**
 * A Mastra `SkillSource` (a workspace filesystem, `LocalSkillSource`, ...) below one of its paths
 * as a SkillTree. The interface has no bounded read, so a file's `stat()` size is checked before
 * it is read and its length after; a symlink the source reports, or a name holding a `/`, is
 * `unsupported` (never followed).
 */
import type { SkillSource } from '@mastra/core/workspace';
import { checkedPath, type SkillTree, tooLarge } from './trees.js';

export function sourceTree(source: SkillSource, base: string): SkillTree {
  const root = base.replace(/\/+$/, '');
  const full = (path: string) => {
    checkedPath(path);
    if (path === '') return root;
    return root === '' ? path : `${root}/${path}`;
  };
  return {
    async list(dir) {
      const entries = await source.readdir(full(dir));
      return Promise.all(
        entries.map(async (entry) => {
          if (entry.isSymlink || entry.name.includes('/')) {
            return { name: entry.name, kind: 'unsupported' as const, size: 0 };
          }
          if (entry.type === 'directory') return { name: entry.name, kind: 'directory' as const, size: 0 };
          const stat = await source.stat(full(dir === '' ? entry.name : `${dir}/${entry.name}`));
          return { name: entry.name, kind: 'file' as const, size: stat.size };
        }),
      );
    },
    async read(path, max) {
      const target = full(path);
      if ((await source.stat(target)).size > max) throw tooLarge(path, max);
      const content = await source.readFile(target);
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
      if (bytes.byteLength > max) throw tooLarge(path, max);
      return bytes;
    },
    async mimeType(path) {
      return (await source.stat(full(path))).mimeType;
    },
  };
}
