/**
 * A skill folder on disk as a SkillTree. Listing never follows a symlink (it is reported
 * `unsupported`, so the skill holding one is refused); a read opens the file with `O_NOFOLLOW`
 * after checking that no folder on its way is a symlink, refuses anything but a regular file, and
 * reads at most `max` bytes. The SDK's `nodeSkillFiles` reads a whole file whatever its size and
 * follows symlinked folders on a path given to it, hence this adapter.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { checkedPath, type SkillTree, type TreeEntry, tooLarge } from './trees.js';

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean }): TreeEntry['kind'] {
  if (entry.isFile()) return 'file';
  return entry.isDirectory() ? 'directory' : 'unsupported';
}

/** `root` must be a real path (no symlink in it): `diskTree(await realpath(path))`. */
export function diskTree(root: string): SkillTree {
  const full = (path: string) => (checkedPath(path) === '' ? root : join(root, ...path.split('/')));
  return {
    async list(dir) {
      const entries = await readdir(full(dir), { withFileTypes: true });
      return Promise.all(
        entries.map(async (entry) => {
          const kind = kindOf(entry);
          const size = kind === 'file' ? (await lstat(join(full(dir), entry.name))).size : 0;
          return { name: entry.name, kind, size };
        }),
      );
    },
    async read(path, max) {
      const target = full(path);
      // O_NOFOLLOW guards the last segment only; a folder swapped for a symlink shows here.
      if ((await realpath(target)) !== target) {
        throw mcpError(MCPErrorCode.SERVER_SKILL_INVALID, `${path} is reached through a symlink`);
      }
      const handle = await open(target, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        const stat = await handle.stat();
        if (!stat.isFile())
          throw mcpError(MCPErrorCode.SERVER_SKILL_INVALID, `${path} is not a regular file`);
        if (stat.size > max) throw tooLarge(path, max);
        // One byte more than allowed tells a file that grew since its stat.
        const buffer = Buffer.allocUnsafe(stat.size + 1);
        let length = 0;
        while (length < buffer.byteLength) {
          const { bytesRead } = await handle.read(buffer, length, buffer.byteLength - length, length);
          if (bytesRead === 0) break;
          length += bytesRead;
        }
        if (length > max) throw tooLarge(path, max);
        return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
      } finally {
        await handle.close();
      }
    },
  };
}
