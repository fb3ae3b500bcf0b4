/** `mcpClient.skills`: servers' Agent Skills (the Skills extension, SEP-2640), keyed by server and URI. */
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { FanOutErrors, WithErrorsOptions } from '../types.js';
import type { MCPSkillsWorkspace } from './workspace.js';

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

/** The `skills` client option: bounds on what the client holds of servers' skills. */
export interface MCPClientSkillsOptions {
  /** The most skills one server may list (default 10,000); a longer listing is refused. */
  maxSkills?: number;
  /** The most bytes of verified skill files kept for reuse, across servers (default 64 MiB). */
  maxCachedBytes?: number;
}

export interface MCPClientSkills {
  /** Every server's skills; a server that fails is left out (see `listWithErrors`). */
  list(): Promise<Record<string, MCPClientSkillEntry[]>>;
  listWithErrors(options?: WithErrorsOptions): Promise<MCPSkillsWithErrors>;
  /** One skill by its `SKILL.md` URI, listed or not (`skills/get`). */
  get(serverName: string, uri: string): Promise<MCPClientSkillEntry>;
  /** A file of one of the server's skills, by URI: fetched once, verified, then served from the cache. */
  read(serverName: string, uri: string): Promise<MCPSkillFile>;
  /**
   * The servers' skills as a Mastra Workspace for `new Agent({ workspace })`: Mastra's skill tools
   * and catalog on them, each skill named `<server>/<skill path>`, files fetched when read.
   */
  toMastraSkills(options?: MCPMastraSkillsOptions): Promise<MCPSkillsWorkspace>;
}
