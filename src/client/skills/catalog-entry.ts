/**
 * How one server's skill appears to a Mastra agent: its name (`<server>/<skill path>`, so skills
 * of two servers, or of a server and the local disk, never share one), its metadata from the
 * entry's frontmatter (no file read), the files of its manifest as Mastra groups them, and the
 * Skill Mastra's tools take once its `SKILL.md` is read.
 */
import type { Skill as MastraSkill, SkillMetadata } from '@mastra/core/skills';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { ServerSkills } from './server-skills.js';
import { canonical } from './server-skills.js';
import type { MCPClientSkillEntry, MCPSkillFile } from './types.js';

export interface CatalogEntry {
  name: string;
  server: ServerSkills;
  entry: MCPClientSkillEntry;
  /** The server's `allowed-tools` is kept (the application selected this skill for it). */
  allowedTools: boolean;
}

/** `support/acme/refunds` for the skill at `skill://acme/refunds/SKILL.md` of server `support`. */
export function catalogName(serverName: string, uri: string): string {
  const path = canonical(uri)
    .replace(/^[a-z][\w+.-]*:\/*/i, '')
    .replace(/\/SKILL\.md$/, '');
  return `${serverName}/${decodeURIComponent(path)}`;
}

/** The skill's folder URI, with its trailing `/`. */
export const rootOf = (skill: Skill) => canonical(skill.uri).slice(0, -'SKILL.md'.length);

/** The files of the manifest by path from the skill's folder (none for a `"dynamic"` skill). */
export function filesOf(skill: Skill): string[] {
  if (skill.resources === 'dynamic') return [];
  const root = rootOf(skill);
  return skill.resources
    .map((file) => canonical(file.uri))
    .filter((uri) => uri.startsWith(root))
    .map((uri) => decodeURIComponent(uri.slice(root.length)));
}

/** The files below `folder/`, by path from it, as Mastra lists references, scripts and assets. */
export function filesIn(skill: Skill, folder: 'references' | 'scripts' | 'assets'): string[] {
  return filesOf(skill)
    .filter((path) => path.startsWith(`${folder}/`))
    .map((path) => path.slice(folder.length + 1));
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** What Mastra's catalog shows, from the entry's frontmatter: the model is told the server. */
export function metadataOf(catalog: CatalogEntry): SkillMetadata {
  const { frontmatter } = catalog.entry.skill;
  const license = text(frontmatter.license);
  const metadata = frontmatter.metadata as Record<string, unknown> | undefined;
  return {
    name: catalog.name,
    path: catalog.name,
    description: `${frontmatter.description} (a skill of MCP server '${catalog.server.name}')`,
    ...(license ? { license } : {}),
    ...(frontmatter.compatibility !== undefined ? { compatibility: frontmatter.compatibility } : {}),
    ...(metadata ? { metadata } : {}),
  };
}

/** The Skill Mastra's `skill` tool shows, from the verified `SKILL.md`; `allowed-tools` only when selected. */
export function mastraSkillOf(catalog: CatalogEntry, manifest: MCPSkillFile): MastraSkill {
  const { skill } = catalog.entry;
  const allowed = text(skill.frontmatter['allowed-tools']);
  return {
    ...metadataOf(catalog),
    ...(catalog.allowedTools && allowed !== undefined ? { 'allowed-tools': allowed } : {}),
    instructions: manifest.body ?? '',
    source: { type: 'external', packagePath: `mcp://${catalog.server.name}` },
    references: filesIn(skill, 'references'),
    scripts: filesIn(skill, 'scripts'),
    assets: filesIn(skill, 'assets'),
  };
}
