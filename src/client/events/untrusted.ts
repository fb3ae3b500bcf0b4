/**
 * The `<untrusted-mcp-event-data>` block: how server-controlled text (occurrence data, event
 * names, descriptions, error messages) reaches a model without being able to end the block.
 *
 * Content is rendered so that it contains no `<`, `>` or `&` of its own and no character a reader
 * could take for one:
 * - NFKC first, so fullwidth and other compatibility forms (`＜`, `ｄａｔａ`) become the ASCII they
 *   stand for and are escaped like it;
 * - `&`, `<`, `>` become `&amp;`, `&lt;`, `&gt;`, so the content cannot produce a literal `<` nor
 *   the text `&lt;` (it would read `&amp;lt;`);
 * - angle-bracket lookalikes (`‹`, `〈`, `⟨`, `❮`, `˂`, ...), characters that decompose to `<`/`>`
 *   (`≮`), and invisible format characters (zero-width, bidi controls) become `&#x...;`;
 * - any mention of the tag name itself, in any case and with any separators, is replaced.
 * The only tags in a block are therefore the two this module writes.
 */

export const UNTRUSTED_TAG = 'untrusted-mcp-event-data';

/** Angle-bracket lookalikes that NFKC leaves alone. */
const LOOKALIKES =
  /[\u02c2\u02c3\u1433\u1438\u2039\u203a\u2329\u232a\u276c-\u2771\u27e8-\u27ef\u2989-\u2994\u29fc\u29fd\u3008-\u300b\u3014-\u301b\ufe3d-\ufe44]/u;
const FORMAT = /\p{Cf}/u;
const SEPARATORS = '(?:[^a-z0-9]|&#x[0-9a-f]+;){0,8}';
const TAG_MENTION = new RegExp(['untrusted', 'mcp', 'event', 'data'].join(SEPARATORS), 'giu');

function escapeChar(char: string): string {
  if (char === '&') return '&amp;';
  if (char === '<') return '&lt;';
  if (char === '>') return '&gt;';
  const decomposed = char.normalize('NFKD');
  if (/[<>&]/.test(decomposed) || LOOKALIKES.test(char) || FORMAT.test(char)) {
    return `&#x${(char.codePointAt(0) ?? 0).toString(16)};`;
  }
  return char;
}

/** Server-controlled text made safe to place inside the block. */
export function neutralise(text: string): string {
  let out = '';
  for (const char of text.normalize('NFKC')) out += escapeChar(char);
  return out.replace(TAG_MENTION, '[tag name removed]');
}

/** `lines` (already labelled by the caller) inside the block, each neutralised. */
export function untrustedBlock(lines: string[]): string {
  return [`<${UNTRUSTED_TAG}>`, ...lines.map(neutralise), `</${UNTRUSTED_TAG}>`].join('\n');
}

/** JSON for the block, cut at `limit` characters with a note of the full length. */
export function jsonForBlock(value: unknown, limit: number): { text: string; cut: number | undefined } {
  const text = JSON.stringify(value) ?? 'null';
  if (text.length <= limit) return { text, cut: undefined };
  const end = /[\ud800-\udbff]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return { text: text.slice(0, end), cut: text.length };
}
