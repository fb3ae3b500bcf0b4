import type { SkillSource } from '@mastra/core/workspace';

const skillMd = '---\nname: daily\ndescription: Assemble today’s report\n---\n\nRead `today.md`.\n';
const today = () => `# ${new Date().toDateString()}\n`;
const now = new Date();
const stat = (name: string, size: number, type: 'file' | 'directory' = 'file') => ({
  name,
  type,
  size,
  createdAt: now,
  modifiedAt: now,
});

/** A SkillSource whose `reports/daily/today.md` is written at each read. */
export const generatedReports: SkillSource = {
  exists: async (path) =>
    ['reports', 'reports/daily', 'reports/daily/SKILL.md', 'reports/daily/today.md'].includes(path),
  stat: async (path) => {
    if (path.endsWith('SKILL.md')) return stat('SKILL.md', Buffer.byteLength(skillMd));
    if (path.endsWith('today.md')) return stat('today.md', Buffer.byteLength(today()));
    return stat(path, 0, 'directory');
  },
  readFile: async (path) => (path.endsWith('SKILL.md') ? skillMd : today()),
  readdir: async (path) =>
    path === 'reports'
      ? [{ name: 'daily', type: 'directory' }]
      : [
          { name: 'SKILL.md', type: 'file' },
          { name: 'today.md', type: 'file' },
        ],
};
