/**
 * Verified skill files kept for reuse, across servers, bounded in bytes (`skills.maxCachedBytes`):
 * the least recently used go first. Keyed by server, URI and digest, so a file whose entry changed
 * is never answered from a copy of its old content.
 */
import type { MCPSkillFile } from './types.js';

export class SkillFileCache {
  private readonly files = new Map<string, MCPSkillFile>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now (never more than `maxBytes`). */
  get bytes(): number {
    return this.held;
  }

  static key(serverName: string, uri: string, digest: string): string {
    return `${serverName}\n${uri}\n${digest}`;
  }

  get(key: string): MCPSkillFile | undefined {
    const file = this.files.get(key);
    if (file) {
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      this.files.delete(key);
      this.files.set(key, file);
    }
    return file;
  }

  set(key: string, file: MCPSkillFile): void {
    const size = file.bytes.byteLength;
    if (size > this.maxBytes) return;
    const previous = this.files.get(key);
    if (previous) {
      this.files.delete(key);
      this.held -= previous.bytes.byteLength;
    }
    for (const [oldest, evicted] of this.files) {
      if (this.held + size <= this.maxBytes) break;
      this.files.delete(oldest);
      this.held -= evicted.bytes.byteLength;
    }
    this.files.set(key, file);
    this.held += size;
  }
}
