/**
 * The Workspace `toMastraSkills()` resolves to: Mastra's own Workspace, its skills the servers'
 * (mastra-skills.ts) in place of skills discovered on a filesystem. An Agent given it
 * (`new Agent({ workspace })`) gets Mastra's skill tools and catalog on them, beside skills of its
 * own (`skills`), which keep their names.
 */
import type { WorkspaceSkills } from '@mastra/core/skills';
import { Workspace, type WorkspaceFilesystem, type WorkspaceSandbox } from '@mastra/core/workspace';

// Typed as Mastra's `AnyWorkspace` is, so an Agent's `workspace` option takes it.
export class MCPSkillsWorkspace extends Workspace<
  WorkspaceFilesystem | undefined,
  WorkspaceSandbox | undefined,
  // biome-ignore lint/suspicious/noExplicitAny: Mastra's AnyWorkspace has `any` mounts.
  any
> {
  readonly #skills: WorkspaceSkills;

  /** `skills`: the servers' (mastra-skills.ts), typed as Mastra's interface so no internal class is public. */
  constructor(skills: WorkspaceSkills, id: string) {
    // A skills path, so Mastra accepts a workspace without a filesystem; the getter below replaces
    // what Mastra would build from it.
    super({ id, name: 'MCP skills', skills: ['mcp'] });
    this.#skills = skills;
  }

  /** The servers' skills, as Mastra's skill tools and catalog read them. */
  override get skills(): WorkspaceSkills {
    return this.#skills;
  }

  /** Builds the catalog again from every server's `skills/list`. */
  refresh(): Promise<void> {
    return this.#skills.refresh();
  }
}
