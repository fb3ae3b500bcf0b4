/**
 * JSON with comments and trailing commas, as VS Code and Cursor allow in `mcp.json` (a strict
 * JSON file, as Claude Desktop writes, reads the same). Comments and trailing commas become spaces,
 * so every other character keeps its offset and a syntax error is reported at its line and column
 * in the file as written.
 */

/** `text` without comments and trailing commas, each replaced by spaces (line breaks kept). */
function blanked(text: string): string {
  const out = text.split('');
  let inString = false;
  let comma = -1;
  for (let i = 0; i < out.length; i++) {
    const char = out[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '/' && (out[i + 1] === '/' || out[i + 1] === '*')) {
      const block = out[i + 1] === '*';
      const end = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i);
      const stop = end < 0 ? out.length : block ? end + 2 : end;
      for (let j = i; j < stop; j++) if (out[j] !== '\n' && out[j] !== '\r') out[j] = ' ';
      i = stop - 1;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') continue;
    if ((char === '}' || char === ']') && comma >= 0) out[comma] = ' ';
    comma = char === ',' ? i : -1;
    if (char === '"') inString = true;
  }
  return out.join('');
}

/** 1-based line and column of `offset` in `text`. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before[before.length - 1] as string).length + 1}`;
}

/** Parses `text`; a syntax error is thrown as a message naming the line and column. */
export function parseJsonc(text: string): unknown {
  const source = blanked(text.replace(/^\uFEFF/, ''));
  try {
    return JSON.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /at position (\d+)/.exec(message)?.[1];
    // V8 quotes the text in some messages: the file's content (secrets too) is not repeated.
    const reason = message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, ".*" is not valid JSON$/s, '');
    throw new SyntaxError(
      offset === undefined
        ? `it is not valid JSON: ${reason}`
        : `it is not valid JSON at ${position(source, Number(offset))}: ${reason}`,
    );
  }
}
