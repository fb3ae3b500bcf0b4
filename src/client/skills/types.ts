/** What `mcpClient.skills` gives: servers' Agent Skills (the Skills extension, SEP-2640), keyed by server and URI. */
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { FanOutErrors } from '../types.js';

/** One server's skill: its `skills/list` (or `skills/get`) entry, checked by the SDK. */
export interface MCPClientSkillEntry {
  serverName: string;
  /** The URI of its `SKILL.md`: with `serverName`, what identifies the skill. */
  uri: string;
  /** The entry as the server sent it: verbatim frontmatter, and the manifest or `"dynamic"`. */
  skill: Skill;
}

/** `skills.listWithErrors()`: the skills of the servers that answered, by server. */
export interface MCPSkillsWithErrors extends FanOutErrors {
  skills: Record<string, MCPClientSkillEntry[]>;
}

/** A skill file read by `skills.read()`, verified against its skill's entry. */
export interface MCPSkillFile {
  serverName: string;
  /** The skill the file belongs to (its `SKILL.md` URI). */
  skillUri: string;
  uri: string;
  mimeType?: string;
  /** Exactly the bytes the entry's digest covers. */
  bytes: Uint8Array;
  /** The file as text when it is UTF-8. */
  text?: string;
  /** Size and digest were checked; `false` only for a `"dynamic"` skill. */
  verified: boolean;
  /** A `SKILL.md`: its frontmatter (equal to the entry's) and the markdown after it. */
  frontmatter?: Record<string, unknown>;
  body?: string;
}

/** Which skills an option applies to: names as the agent sees them (`server/refunds`), or a test. */
export type MCPSkillSelector = readonly string[] | ((skill: MCPClientSkillEntry) => boolean);

/** `skills.toMastraSkills()` options. */
export interface MCPMastraSkillsOptions {
  /** The servers whose skills are loaded (default: every configured server). */
  servers?: string[];
  /**
   * Skills to load by URI beside the listed ones, by server (a skill a server's instructions name):
   * each is fetched with `skills/get`.
   */
  uris?: Record<string, string[]>;
  /** `"dynamic"` skills (no digests: nothing verifies them) are left out unless selected here. */
  allowDynamic?: MCPSkillSelector;
  /** A server's `allowed-tools` is dropped unless its skill is selected here. */
  allowedTools?: MCPSkillSelector;
  /** The Workspace's id (default `mcp-skills`). */
  id?: string;
}
