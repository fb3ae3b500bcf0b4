/**
 * Mastra's `WorkspaceSkills` over servers' skills, so Mastra's own skill tools (`skill`,
 * `skill_read`, `skill_search`) and its catalog work on them. Lazy where Mastra lets it be: the
 * catalog is the entries' frontmatter; a skill's `SKILL.md` is read when Mastra asks for the skill
 * (its `skill` tool, and its catalog processor, which asks for every listed skill once per step:
 * read once, then cached); any other file when it is read. Every file is verified (server-skills.ts).
 */
import type { Skill as MastraSkill, SkillMetadata, WorkspaceSkills } from '@mastra/core/skills';
import type { SkillSearchOptions, SkillSearchResult } from '@mastra/core/workspace';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { messageOf } from '../errors.js';
import {
  type CatalogEntry,
  catalogName,
  filesIn,
  mastraSkillOf,
  metadataOf,
  rootOf,
} from './catalog-entry.js';
import type { ServerSkills } from './server-skills.js';
import type { MCPClientSkillEntry, MCPMastraSkillsOptions, MCPSkillSelector } from './types.js';

const selects = (selector: MCPSkillSelector | undefined, name: string, entry: MCPClientSkillEntry) =>
  typeof selector === 'function' ? selector(entry) : (selector?.includes(name) ?? false);

/** A path inside a skill's folder that names a file, or why it does not. */
function pathProblem(path: string): string | undefined {
  if (path === '' || path.startsWith('/') || /^[a-z][\w+.-]*:/i.test(path) || path.includes('\\'))
    return 'it is not a relative path';
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'it is not a valid path';
    }
    if (decoded === '' || decoded === '.' || decoded === '..' || decoded.includes('/'))
      return "it leaves the skill's folder";
  }
  return undefined;
}

export class MCPWorkspaceSkills implements WorkspaceSkills {
  private catalog = new Map<string, CatalogEntry>();
  private readonly aliases = new Map<string, string>();
  private ready: Promise<void> | undefined;
  /** Each server's count of list changes when the catalog was last built. */
  private builtAt: number[] = [];

  constructor(
    private readonly servers: ServerSkills[],
    private readonly options: MCPMastraSkillsOptions,
  ) {}

  /** Builds the catalog now (toMastraSkills() waits for it, so a failing server is named early). */
  load(): Promise<void> {
    this.ready ??= this.build();
    return this.ready;
  }

  /**
   * Every server's listing plus the skills asked for by URI; a server that fails is left out and
   * logged, the other servers' skills stay. `"dynamic"` skills need `allowDynamic`.
   */
  private async build(): Promise<void> {
    this.builtAt = this.servers.map((server) => server.changes);
    const catalog = new Map<string, CatalogEntry>();
    await Promise.all(
      this.servers.map(async (server) => {
        try {
          const listed = await server.list();
          const extra = await Promise.all(
            (this.options.uris?.[server.name] ?? []).map((uri) => server.get(uri)),
          );
          for (const entry of [...listed, ...extra]) this.admit(catalog, server, entry);
        } catch (error) {
          server.log('error', `its skills are left out of the agent's: ${messageOf(error)}`);
        }
      }),
    );
    this.catalog = catalog;
  }

  private admit(catalog: Map<string, CatalogEntry>, server: ServerSkills, entry: MCPClientSkillEntry): void {
    const name = catalogName(server.name, entry.uri);
    if (entry.skill.resources === 'dynamic' && !selects(this.options.allowDynamic, name, entry)) {
      server.log(
        'info',
        `skill '${entry.uri}' left out of the agent's skills: it is "dynamic" (no digests to verify it against); select '${name}' in toMastraSkills({ allowDynamic }) to load it`,
      );
      return;
    }
    catalog.set(name, { name, server, entry, allowedTools: selects(this.options.allowedTools, name, entry) });
  }

  private async ensure(): Promise<void> {
    await this.load();
  }

  /** The catalog entry for a name, a path, a location (`…/SKILL.md`) or a registered alias. */
  private find(identifier: string): CatalogEntry | undefined {
    const name = this.aliases.get(identifier) ?? identifier.replace(/\/SKILL\.md$/, '');
    return this.catalog.get(name);
  }

  async list(): Promise<SkillMetadata[]> {
    await this.ensure();
    return [...this.catalog.values()].map(metadataOf);
  }

  async has(name: string): Promise<boolean> {
    await this.ensure();
    return this.find(name) !== undefined;
  }

  /**
   * The skill with its instructions: its `SKILL.md` is read (verified, then cached) now. One that
   * cannot be is dropped from the catalog (until it is built again) and the error thrown: the step
   * that asked fails naming the server, the skill and the file; the next goes on without the skill.
   */
  async get(name: string): Promise<MastraSkill | null> {
    await this.ensure();
    const catalog = this.find(name);
    if (!catalog) return null;
    try {
      return mastraSkillOf(catalog, await catalog.server.readFile(catalog.entry.skill));
    } catch (error) {
      this.catalog.delete(catalog.name);
      catalog.server.log(
        'error',
        `skill '${catalog.entry.uri}' left out of the agent's skills: ${messageOf(error)}`,
      );
      throw error;
    }
  }

  registerLocationAlias(location: string, skillPath: string): void {
    this.aliases.set(location, skillPath);
    this.aliases.set(location.replace(/\/SKILL\.md$/, ''), skillPath);
  }

  async refresh(): Promise<void> {
    this.ready = this.build();
    await this.ready;
  }

  /** A server's resources list changed since the catalog was built: it is built again. */
  async maybeRefresh(): Promise<void> {
    await this.ensure();
    if (this.servers.some((server, index) => server.changes !== this.builtAt[index])) await this.refresh();
  }

  /**
   * A file of a skill by its path from the skill's folder: read and verified now (or from the
   * cache); null for a file the skill does not list. A path that would leave the folder is refused.
   */
  private async file(skillName: string, path: string) {
    await this.ensure();
    const catalog = this.find(skillName);
    if (!catalog) return null;
    const { skill } = catalog.entry;
    const problem = pathProblem(path);
    if (problem)
      throw mcpError(
        MCPErrorCode.CLIENT_READ_SKILL_FAILED,
        `MCP server '${catalog.server.name}': skill '${skill.uri}': path '${path}' refused: ${problem}; give a path inside the skill's folder, such as 'references/…'`,
        { server: catalog.server.name, skill: skill.uri, path },
      );
    const uri = new URL(path, rootOf(skill)).href;
    if (skill.resources !== 'dynamic' && !skill.resources.some((listed) => new URL(listed.uri).href === uri))
      return null;
    return catalog.server.readFile(skill, uri);
  }

  async getReference(skillName: string, referencePath: string): Promise<string | null> {
    return (await this.file(skillName, referencePath))?.text ?? null;
  }

  async getScript(skillName: string, scriptPath: string): Promise<string | null> {
    return (await this.file(skillName, scriptPath))?.text ?? null;
  }

  async getAsset(skillName: string, assetPath: string): Promise<Buffer | null> {
    const file = await this.file(skillName, assetPath);
    return file ? Buffer.from(file.bytes) : null;
  }

  private async filesIn(skillName: string, folder: 'references' | 'scripts' | 'assets'): Promise<string[]> {
    await this.ensure();
    const catalog = this.find(skillName);
    return catalog ? filesIn(catalog.entry.skill, folder) : [];
  }

  listReferences(skillName: string): Promise<string[]> {
    return this.filesIn(skillName, 'references');
  }

  listScripts(skillName: string): Promise<string[]> {
    return this.filesIn(skillName, 'scripts');
  }

  listAssets(skillName: string): Promise<string[]> {
    return this.filesIn(skillName, 'assets');
  }

  /**
   * Searches what is known without fetching: every skill's name and description (fetching every
   * file to search it would undo the laziness).
   */
  async search(query: string, options: SkillSearchOptions = {}): Promise<SkillSearchResult[]> {
    await this.ensure();
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    const results: SkillSearchResult[] = [];
    for (const catalog of this.catalog.values()) {
      if (options.skillNames && !options.skillNames.includes(catalog.name)) continue;
      const { description } = metadataOf(catalog);
      const content = `${catalog.name}\n${description}`.toLowerCase();
      const score = terms.filter((term) => content.includes(term)).length;
      if (score > 0)
        results.push({
          skillName: catalog.name,
          skillPath: catalog.name,
          source: 'SKILL.md',
          content: description,
          score,
        });
    }
    return results.sort((a, b) => b.score - a.score).slice(0, options.topK ?? 5);
  }
}
