import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: { support: { url: new URL('https://support.example.com/mcp') } },
  // Bounds on what the client holds (defaults shown).
  skills: { maxSkills: 10_000, maxCachedBytes: 64 * 1024 * 1024 },
});

// A skill the server's instructions name, listed or not: `skills/get`, then its files on demand.
const entry = await mcp.skills.get('support', 'skill://internal/escalation/SKILL.md');
const manifest = await mcp.skills.read('support', entry.uri); // size, digest and frontmatter checked
const template = await mcp.skills.read('support', 'skill://internal/escalation/templates/email.md');
console.log(manifest.frontmatter, manifest.body, template.text);

// Per-server failures instead of a server left out (perServerTimeoutMs bounds each).
const { skills, errors } = await mcp.skills.listWithErrors({ perServerTimeoutMs: 5_000 });
console.log(Object.keys(skills), errors);
