/**
 * The pure parts of MCPClient's skills: the verified-file cache's byte bound and recency, and how a
 * server's skill is named and its files grouped for Mastra.
 */
import { describe, expect, it } from 'vitest';
import { catalogName, filesIn, filesOf } from '../../src/client/skills/catalog-entry.js';
import { SkillFileCache } from '../../src/client/skills/file-cache.js';
import type { MCPSkillFile } from '../../src/client/skills/types.js';

const file = (size: number): MCPSkillFile => ({
  serverName: 's',
  skillUri: 'skill://a/SKILL.md',
  uri: 'skill://a/x',
  bytes: new Uint8Array(size),
  verified: true,
});

describe('SkillFileCache', () => {
  it('never holds more than its bound; the least recently used go first; an oversize file is not kept', () => {
    const cache = new SkillFileCache(100);
    cache.set('a', file(40));
    cache.set('b', file(40));
    cache.get('a'); // a is now the most recent
    cache.set('c', file(40));
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([true, false, true]);
    expect(cache.bytes).toBe(80);
    cache.set('huge', file(101));
    expect(cache.get('huge')).toBeUndefined();
    cache.set('a', file(10)); // replaced, not counted twice
    expect(cache.bytes).toBe(50);
  });

  it('keys by server, URI and digest', () => {
    expect(SkillFileCache.key('s', 'skill://a/x', 'sha256:1')).not.toBe(
      SkillFileCache.key('s', 'skill://a/x', 'sha256:2'),
    );
  });
});

describe('a server skill as Mastra sees it', () => {
  it('is named <server>/<skill path>, whatever the scheme', () => {
    expect(catalogName('support', 'skill://refunds/SKILL.md')).toBe('support/refunds');
    expect(catalogName('support', 'skill://acme/billing/refunds/SKILL.md')).toBe(
      'support/acme/billing/refunds',
    );
    expect(catalogName('docs', 'https://example.com/skills/pdf/SKILL.md')).toBe(
      'docs/example.com/skills/pdf',
    );
  });

  it('groups the manifest as Mastra does: references, scripts, assets, by path below each', () => {
    const skill = {
      uri: 'skill://refunds/SKILL.md',
      frontmatter: { name: 'refunds', description: 'd' },
      resources: [
        'SKILL.md',
        'references/policy.md',
        'references/deep/faq.md',
        'scripts/check.py',
        'assets/logo.png',
        'escalation/SKILL.md',
      ].map((path) => ({ uri: `skill://refunds/${path}`, digest: `sha256:${'0'.repeat(64)}`, size: 1 })),
    };
    expect(filesIn(skill, 'references')).toEqual(['policy.md', 'deep/faq.md']);
    expect(filesIn(skill, 'scripts')).toEqual(['check.py']);
    expect(filesIn(skill, 'assets')).toEqual(['logo.png']);
    expect(filesOf({ ...skill, resources: 'dynamic' })).toEqual([]);
  });
});
