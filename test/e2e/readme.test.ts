/**
 * The user-facing pages (README.md, CONTRIBUTING.md, docs/*.md) keep their promises: every
 * TypeScript or JavaScript block is a copy of a file under examples/ that `npm run typecheck`
 * compiles (the `<!-- snippet: path -->` line above it names the file), every relative link and
 * `#anchor` resolves, every page under docs/ is at most two clicks from the README, and the README
 * stays short.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Languages whose blocks must be compiled files; shell, JSON and config blocks need not be. */
const CODE = new Set(['ts', 'typescript', 'tsx', 'js', 'javascript', 'jsx', 'mjs', 'cjs']);

interface Block {
  lang: string;
  code: string;
  /** The `<!-- snippet: path -->` line right above the block, if any. */
  snippet: string | undefined;
  line: number;
}

interface Page {
  blocks: Block[];
  /** Every line outside code blocks, in order. */
  prose: string[];
  snippetMarkers: number;
}

function parse(text: string): Page {
  const page: Page = { blocks: [], prose: [], snippetMarkers: 0 };
  const lines = text.split('\n');
  let open: { lang: string; start: number; body: string[]; snippet: string | undefined } | undefined;
  for (const [index, line] of lines.entries()) {
    if (open) {
      if (/^\s*```\s*$/.test(line)) {
        page.blocks.push({
          lang: open.lang,
          code: open.body.join('\n'),
          snippet: open.snippet,
          line: open.start,
        });
        open = undefined;
      } else open.body.push(line);
      continue;
    }
    const fence = /^\s*```(\S*)\s*$/.exec(line);
    if (fence) {
      const marker = /^<!-- snippet: (\S+) -->$/.exec(lines[index - 1] ?? '');
      open = { lang: fence[1] as string, start: index + 1, body: [], snippet: marker?.[1] };
      continue;
    }
    if (line.startsWith('<!-- snippet:')) page.snippetMarkers++;
    page.prose.push(line);
  }
  if (open) throw new Error(`a code block opened on line ${open.start} is never closed`);
  return page;
}

const pages = new Map(PAGES.filter(existsSync).map((path) => [path, parse(readFileSync(path, 'utf8'))]));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(page: Page): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of page.prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = (heading[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const line of page.prose)
    for (const [, id] of line.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id as string);
  return anchors;
}

/** Relative links of a page's prose (inline code and HTML comments left out), as [target file, anchor]. */
function linksOf(path: string, page: Page): Array<{ file: string; anchor: string | undefined; raw: string }> {
  const prose = page.prose
    .join('\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/`[^`\n]*`/g, '');
  const links = [];
  for (const [, raw] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = raw as string;
    if (/^[a-z]+:/i.test(target)) continue;
    const [file, anchor] = target.split('#') as [string, string | undefined];
    links.push({ file: file === '' ? path : normalize(join(dirname(path), file)), anchor, raw: target });
  }
  return links;
}

describe('the documentation pages', () => {
  it('are the README, the contributor guide and the guides', () => {
    expect([...pages.keys()]).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md']));
    expect(pages.size).toBeGreaterThan(10);
  });

  describe.each([...pages.entries()])('%s', (path, page) => {
    it('shows TypeScript and JavaScript only as copies of compiled files under examples/', () => {
      const unmarked = page.blocks
        .filter((block) => CODE.has(block.lang) && block.snippet === undefined)
        .map(
          (block) =>
            `line ${block.line}: a \`\`\`${block.lang} block without a <!-- snippet: --> line above it`,
        );
      expect(unmarked).toEqual([]);
      const marked = page.blocks.filter((block) => block.snippet !== undefined);
      expect(marked.every((block) => block.lang === 'ts')).toBe(true);
      // Every marker is followed by its block: none is left dangling.
      expect(page.snippetMarkers).toBe(marked.length);
      for (const block of marked) {
        const file = block.snippet as string;
        expect(file.startsWith('examples/') && !file.startsWith('examples/reference/'), file).toBe(true);
        expect(existsSync(file), `${file} (snippet on line ${block.line})`).toBe(true);
        expect(block.code, `${path} line ${block.line} differs from ${file}`).toBe(
          readFileSync(file, 'utf8').trimEnd(),
        );
      }
    });

    it('links only to files and anchors that exist', () => {
      const broken = linksOf(path, page)
        .filter(({ file, anchor }) => {
          if (!existsSync(file)) return true;
          const target =
            pages.get(file) ?? (file.endsWith('.md') ? parse(readFileSync(file, 'utf8')) : undefined);
          return anchor !== undefined && !(target && anchorsOf(target).has(anchor));
        })
        .map(({ raw }) => raw);
      expect(broken).toEqual([]);
    });
  });

  it('reach every page under docs/ within two clicks from the README', () => {
    const depth = new Map<string, number>([['README.md', 0]]);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const path = queue.shift() as string;
      const page = pages.get(path);
      const next = (depth.get(path) as number) + 1;
      if (!page || next > 2) continue;
      for (const { file } of linksOf(path, page))
        if (!depth.has(file)) {
          depth.set(file, next);
          queue.push(file);
        }
    }
    expect([...pages.keys()].filter((path) => !depth.has(path))).toEqual([]);
  });

  it('keep the README short', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThanOrEqual(260);
  });
});
