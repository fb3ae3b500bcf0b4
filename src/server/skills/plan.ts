/**
 * The `skills` option made into a plan, synchronously in the MCPServer constructor: its two forms
 * made one, `prefix`, `pageSize` and `cacheHint` checked, and every `createSkill()` value checked
 * as far as it can be without reading anything (frontmatter, reference paths), so those mistakes
 * fail `new MCPServer()` naming the skill and the key. The shape of the option (unknown keys,
 * types) is options.ts's to check first.
 */
import type { InlineSkill, SkillInput } from '@mastra/core/skills';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { describeProblems, frontmatterProblems } from './frontmatter.js';
import { safeSegments } from './trees.js';
import type { MCPServerSkills, MCPSkillSourceConfig, MCPSkillsAgent } from './types.js';

export interface SkillsPlan {
  serverId: string;
  inputs: SkillInput[];
  agents: MCPSkillsAgent[];
  sources: MCPSkillSourceConfig[];
  prefix: string[];
  pageSize: number;
  cache: { ttlMs: number; cacheScope: 'public' | 'private' };
}

const DEFAULT_PAGE_SIZE = 100;

/** `MCP server 'x': skill 'y' <problem>`, the skill named in the details too. */
export function skillError(serverId: string, skill: string, problem: string) {
  return mcpError(
    MCPErrorCode.SERVER_SKILL_INVALID,
    `MCP server '${serverId}': skill '${skill}' ${problem}`,
    {
      serverId,
      skill,
    },
  );
}

function optionError(serverId: string, field: string, problem: string) {
  return mcpError(
    MCPErrorCode.SERVER_INVALID_SKILLS_OPTION,
    `MCP server '${serverId}': \`skills.${field}\` ${problem}`,
    { serverId, field: `skills.${field}` },
  );
}

/** What `createSkill()` puts in a skill's `SKILL.md` frontmatter (Mastra's InlineSkillSource). */
function inlineFrontmatter(skill: InlineSkill): Record<string, unknown> {
  const { name, description, license, compatibility, metadata } = skill;
  const invocable = skill['user-invocable'];
  return Object.fromEntries(
    Object.entries({
      name,
      description,
      license,
      compatibility,
      'user-invocable': invocable,
      metadata,
    }).filter(([, value]) => value !== undefined),
  );
}

function checkInline(serverId: string, skill: InlineSkill): void {
  const name = String(skill.name);
  const problems = frontmatterProblems(inlineFrontmatter(skill));
  if (problems.length > 0)
    throw skillError(
      serverId,
      name,
      `has frontmatter the Agent Skills specification does not allow: ${describeProblems(problems)}`,
    );
  for (const path of Object.keys(skill.__referenceContents ?? {})) {
    if (!safeSegments(path)) {
      throw skillError(
        serverId,
        name,
        `has a reference ${JSON.stringify(path)} that leaves its folder: use a relative path without '..'`,
      );
    }
  }
}

export function planSkills(serverId: string, option: MCPServerSkills): SkillsPlan {
  const config = Array.isArray(option) ? { skills: option } : option;
  const prefix = config.prefix === undefined ? [] : safeSegments(config.prefix.replace(/^\/+|\/+$/g, ''));
  if (!prefix || (config.prefix !== undefined && prefix.length === 0)) {
    throw optionError(
      serverId,
      'prefix',
      "must be '/'-separated path segments without '.' or '..' (e.g. 'acme/billing')",
    );
  }
  const pageSize = config.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw optionError(serverId, 'pageSize', 'must be a positive integer');
  const ttlMs = config.cacheHint?.ttlMs ?? 0;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
    throw optionError(serverId, 'cacheHint.ttlMs', 'must be a whole number of milliseconds, 0 or more');
  const inputs = config.skills ?? [];
  for (const input of inputs) if (typeof input !== 'string') checkInline(serverId, input);
  return {
    serverId,
    inputs,
    agents: config.agents ?? [],
    sources: config.sources ?? [],
    prefix,
    pageSize,
    cache: { ttlMs, cacheScope: config.cacheHint?.cacheScope ?? 'private' },
  };
}
