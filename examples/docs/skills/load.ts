import { Agent } from '@mastra/core/agent';
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: {
    support: { url: new URL('https://support.example.com/mcp') },
    billing: { command: 'npx', args: ['-y', 'billing-mcp'] },
  },
});

// Every server's skills, keyed by server and SKILL.md URI (a server without the extension has none).
const listed = await mcp.skills.list();
console.log(listed.support?.map((entry) => entry.uri)); // ['skill://refunds/SKILL.md', …]

// A Workspace whose skills are the servers': `support/refunds`, `billing/refunds`, …
const workspace = await mcp.skills.toMastraSkills({
  // Generated ("dynamic") skills carry no digests: loaded only when named here.
  allowDynamic: ['billing/daily-report'],
  // `allowed-tools` from a server is dropped unless its skill is named here.
  allowedTools: ['support/refunds'],
});

export const agent = new Agent({
  id: 'support',
  name: 'Support',
  instructions: 'You help customers.',
  model: 'openai/gpt-5',
  workspace, // Mastra's `skill`, `skill_read` and `skill_search` tools, and its catalog
  skills: ['./skills'], // local skills keep their own names: nothing shadows anything
});
