import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** README snippets are copies of type-checked files; this keeps the copies exact. */
describe('README snippets', () => {
  const readme = readFileSync('README.md', 'utf8');
  const snippets = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];

  it('has snippets', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(7);
  });

  it.each(snippets.map((match) => [match[1] as string, match[2] as string]))(
    '%s matches the file',
    (path, code) => {
      expect(code).toBe(readFileSync(path, 'utf8').trimEnd());
    },
  );
});
