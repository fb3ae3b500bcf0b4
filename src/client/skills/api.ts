/** `mcpClient.skills`. */
import type { WithErrorsOptions } from '../types.js';
import type {
  MCPClientSkillEntry,
  MCPMastraSkillsOptions,
  MCPSkillFile,
  MCPSkillsWithErrors,
} from './types.js';
import type { MCPSkillsWorkspace } from './workspace.js';

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
