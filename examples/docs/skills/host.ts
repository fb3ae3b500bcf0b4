import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';

// What a host sees: the SDK's own SkillsClient, which checks every entry and every file read.
const client = new Client({ name: 'host', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
const skills = new SkillsClient(client);

const { skills: entries } = await skills.list(); // every page walked
const review = entries.find((skill) => skill.frontmatter.name === 'code-review');
if (review) {
  const manifest = await skills.read(review); // SKILL.md: size, digest and frontmatter checked
  const checklist = await skills.read(review, 'references/checklist.md'); // fetched when needed
  console.log(manifest.body, checklist.text);
}
