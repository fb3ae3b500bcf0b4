/**
 * Public types of MCPServer's `skills` option: the Agent Skills it publishes over the MCP Skills
 * extension (`io.modelcontextprotocol/skills`, SEP-2640), taken in the forms Mastra users already
 * have them: `createSkill()` values, skill folders on disk (paths as an agent's `skills` option takes
 * them), an agent's skills, and a Mastra `SkillSource`. The wire entry is the SDK's `Skill`.
 */
import type { SkillInput, SkillMetadata } from '@mastra/core/skills';
import type { SkillSource } from '@mastra/core/workspace';
import type { Skill } from '@modelcontextprotocol/core/ext/skills';

/**
 * A skill entry as `skills/list` and `skills/get` carry it: the `SKILL.md` URI, its frontmatter
 * verbatim, and every file with its `sha256:` digest and size (or `"dynamic"`).
 */
export type MCPSkillEntry = Skill;

/** What the `agents` entry needs of an agent: its id (for messages) and its skills. */
export interface MCPSkillsAgent {
  id: string;
  listSkills(): Promise<SkillMetadata[]>;
}

/** A Mastra `SkillSource` (a workspace filesystem, `LocalSkillSource`, ...) and what to publish of it. */
export interface MCPSkillSourceConfig {
  source: SkillSource;
  /**
   * Paths in the source, as a workspace's `skills` option takes them: a skill folder (holding
   * `SKILL.md`) or a folder of skill folders.
   */
  paths: string[];
  /**
   * The source generates its content (it may differ from one read to the next): its skills are
   * published with `resources: "dynamic"` and no digests, and every file is read live. Hosts may
   * decline such skills. Default `false`: files are hashed once and checked on every read.
   */
  dynamic?: boolean;
}

export interface MCPServerSkillsConfig {
  /**
   * `createSkill()` values and paths (relative to the working directory) to skill folders or to
   * folders of skill folders, as an agent's `skills` option takes them. Folders on disk are watched:
   * a changed file is hashed again and clients are told.
   */
  skills?: SkillInput[];
  /**
   * Agents whose skills (`agent.listSkills()`) are published too. A skill folder on disk is served
   * from there; an inline skill must also be given in `skills` (the Agent does not expose its files).
   */
  agents?: MCPSkillsAgent[];
  /** Skills read through Mastra `SkillSource`s. */
  sources?: MCPSkillSourceConfig[];
  /** An organisational prefix: `'acme/billing'` serves `skill://acme/billing/<name>/…`. Default none. */
  prefix?: string;
  /** Entries per `skills/list` page, and children per `resources/directory/read` page. Default 100. */
  pageSize?: number;
  /**
   * `ttlMs` and `cacheScope` of `skills/list`, `skills/get` and directory reads for 2026-07-28
   * clients. Default `{ ttlMs: 0, cacheScope: 'private' }`.
   */
  cacheHint?: { ttlMs?: number; cacheScope?: 'public' | 'private' };
}

/** The `skills` option: an agent-style list of skills, or the full form. */
export type MCPServerSkills = SkillInput[] | MCPServerSkillsConfig;

/** `mcpServer.skills`: the published skills. */
export interface MCPServerSkillsApi {
  /**
   * Resolves once every configured skill is read, checked and hashed; rejects with the
   * `MCP_SERVER_SKILL_INVALID` error naming the skill otherwise (`startStdio()` and `listen()` wait
   * for it too). Nothing of the skills is served before.
   */
  ready(): Promise<void>;
  /** The published entries, sorted by URI: what `skills/list` pages through. */
  list(): Promise<MCPSkillEntry[]>;
  /**
   * Reads every skill again (a `SkillSource` changed; folders on disk are watched) and tells
   * clients what changed. All or nothing: on failure the previous skills stay published.
   */
  refresh(): Promise<void>;
}
