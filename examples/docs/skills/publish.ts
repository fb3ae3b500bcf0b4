import { createSkill } from '@mastra/core/skills';
import { MCPServer } from 'mastra-mcp';

const codeReview = createSkill({
  name: 'code-review',
  description: 'Use when reviewing a code change.',
  instructions: '# Code review\n\nWork through `references/checklist.md`, one item at a time.',
  references: { 'checklist.md': '- It does what it says\n- It is tested\n' },
});

export const support = new MCPServer({
  name: 'Support',
  version: '1.0.0',
  tools: {},
  // As an agent's `skills` option takes them: createSkill() values, and skill folders on disk
  // (a folder holding SKILL.md, or a folder of them), relative to the working directory.
  skills: [codeReview, './skills'],
});

// Every skill read, checked and hashed; rejects naming the skill that cannot be published.
await support.skills.ready();
await support.listen({ port: 3000 });
