import { Agent } from '@mastra/core/agent';
import { createSkill } from '@mastra/core/skills';
import { LocalSkillSource } from '@mastra/core/workspace';
import { MCPServer } from 'mastra-mcp';
import { generatedReports } from './generated-source.js';

const codeReview = createSkill({
  name: 'code-review',
  description: 'Use when reviewing code.',
  instructions: '…',
});

const reviewer = new Agent({
  id: 'reviewer',
  name: 'Reviewer',
  instructions: 'You review code changes.',
  model: 'openai/gpt-5',
  skills: [codeReview, './skills/testing'],
});

export const engineering = new MCPServer({
  name: 'Engineering',
  version: '1.0.0',
  tools: {},
  skills: {
    // The agent's inline skill is given here too: an Agent does not expose an inline skill's files.
    skills: [codeReview],
    // './skills/testing' is served from its folder.
    agents: [reviewer],
    sources: [
      // A Mastra SkillSource (a workspace filesystem, LocalSkillSource, ...) and the paths in it.
      { source: new LocalSkillSource({ basePath: '/srv/shared' }), paths: ['skills'] },
      // Content made per read: published as "dynamic" (no digests), every file read live.
      { source: generatedReports, paths: ['reports'], dynamic: true },
    ],
    prefix: 'acme/engineering', // skill://acme/engineering/<name>/…
    pageSize: 50, // entries per skills/list page (default 100)
    cacheHint: { ttlMs: 60_000, cacheScope: 'public' }, // 2026-07-28 results (default 0, 'private')
  },
});
