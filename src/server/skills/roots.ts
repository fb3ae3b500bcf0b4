/**
 * The plan's inputs as SkillRoots: where each skill, or folder of skills, is read from. A path is a
 * folder on disk (its real path: a symlinked path names where it points); a `createSkill()` value
 * is held in memory as Mastra lays it out (`SKILL.md` as Mastra writes it, `references/<path>`); an
 * agent's skill is its folder on disk, or the inline skill of that name the plan already holds; a
 * source's path is read through it. Identities tell the same skill reached twice.
 */

import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { type InlineSkill, InlineSkillSource, type SkillMetadata } from '@mastra/core/skills';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { diskTree } from './disk-tree.js';
import { type SkillsPlan, skillError } from './plan.js';
import { sourceTree } from './source-tree.js';
import { memoryTree, type SkillTree } from './trees.js';

export interface SkillRoot {
  tree: SkillTree;
  /** The skill's name when the root is itself a skill folder: the folder's name. */
  name: string;
  /** Where it comes from, for messages: `skills[1] './skills'`, `agent 'support'`. */
  origin: string;
  /** What the skills in it are the same as: the real path of a folder, `inline:<name>`. */
  identity: string;
  dynamic: boolean;
  /** A folder on disk, watched for changes. */
  folder?: string;
}

const encoder = new TextEncoder();

async function inlineRoot(skill: InlineSkill, origin: string): Promise<SkillRoot> {
  const skillMd = await new InlineSkillSource([skill]).readFile(`inline/${skill.name}/SKILL.md`);
  const files = new Map<string, Uint8Array>([
    ['SKILL.md', typeof skillMd === 'string' ? encoder.encode(skillMd) : new Uint8Array(skillMd)],
  ]);
  for (const [path, text] of Object.entries(skill.__referenceContents ?? {})) {
    files.set(`references/${path}`, encoder.encode(text));
  }
  return {
    tree: memoryTree(files),
    name: skill.name,
    origin,
    identity: `inline:${skill.name}`,
    dynamic: false,
  };
}

async function diskRoot(plan: SkillsPlan, path: string, origin: string, name: string): Promise<SkillRoot> {
  let folder: string;
  try {
    folder = await realpath(resolve(path));
  } catch (error) {
    throw skillError(plan.serverId, name, `(${origin}) cannot be read: ${(error as Error).message}`);
  }
  return {
    tree: diskTree(folder),
    name: basename(folder),
    origin,
    identity: `disk:${folder}`,
    dynamic: false,
    folder,
  };
}

async function agentRoots(plan: SkillsPlan, held: ReadonlySet<string>): Promise<SkillRoot[]> {
  const roots: SkillRoot[] = [];
  for (const agent of plan.agents) {
    let listed: SkillMetadata[];
    try {
      listed = await agent.listSkills();
    } catch (error) {
      throw mcpError(
        MCPErrorCode.SERVER_SKILL_INVALID,
        `MCP server '${plan.serverId}': the skills of agent '${agent.id}' could not be listed: ${(error as Error).message}`,
        { serverId: plan.serverId, agent: agent.id },
      );
    }
    for (const skill of listed) {
      const origin = `agent '${agent.id}'`;
      if (!skill.path.startsWith('inline/')) {
        roots.push(await diskRoot(plan, skill.path, origin, skill.name));
      } else if (!held.has(`inline:${skill.name}`)) {
        throw skillError(
          plan.serverId,
          skill.name,
          `(${origin}) is an inline skill, whose files the Agent does not expose: give its createSkill() value in \`skills.skills\` too`,
        );
      }
    }
  }
  return roots;
}

export async function rootsOf(plan: SkillsPlan): Promise<SkillRoot[]> {
  const roots: SkillRoot[] = [];
  for (const [index, input] of plan.inputs.entries()) {
    const origin = `skills[${index}]`;
    roots.push(
      typeof input === 'string'
        ? await diskRoot(plan, input, `${origin} '${input}'`, input)
        : await inlineRoot(input, origin),
    );
  }
  roots.push(...(await agentRoots(plan, new Set(roots.map((root) => root.identity)))));
  for (const [index, { source, paths, dynamic }] of plan.sources.entries()) {
    for (const path of paths) {
      roots.push({
        tree: sourceTree(source, path),
        name: path.replace(/\/+$/, '').split('/').at(-1) ?? path,
        origin: `sources[${index}] '${path}'`,
        identity: `source:${index}:${path}`,
        dynamic: dynamic ?? false,
      });
    }
  }
  return roots;
}
