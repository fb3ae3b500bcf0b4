/** The MCPClient `skills` option (kept apart from types.ts: the client's own types import it). */

/** The `skills` client option: bounds on what the client holds of servers' skills. */
export interface MCPClientSkillsOptions {
  /** The most skills one server may list (default 10,000); a longer listing is refused. */
  maxSkills?: number;
  /** The most bytes of verified skill files kept for reuse, across servers (default 64 MiB). */
  maxCachedBytes?: number;
}

export const DEFAULT_MAX_SKILLS = 10_000;
export const DEFAULT_MAX_CACHED_BYTES = 64 * 1024 * 1024;
