/**
 * The error a process printed before it died, read back from its output lines: Node's report of
 * an uncaught error (or one it logged: `Error: message` followed by `    at` frames, with the
 * `file:line` / source / caret header Node puts above a syntax error), and Python's traceback (the
 * exception line and the innermost `File "…", line N` frame above it). The client reports a stdio
 * server that died at start-up with it; `mastra-mcp generate` locates a syntax error in a
 * JavaScript input with it (`node --check` prints the same header). Whichever error was printed
 * last wins; every line is clipped, the message to a few lines.
 */

export interface PrintedError {
  /** The error's own line(s): `Error: DATABASE_URL is not set`, `ValueError: …`. */
  message: string;
  /**
   * Where it was raised, as a frame line: Node's first frame outside its internals
   * (`    at file:///app/server.js:3:9`; a syntax error's header as `    at /app/server.mjs:3:31`),
   * or Python's innermost `  File "/app/server.py", line 3, in <module>`.
   */
  frame?: string;
}

const MAX_LINE = 300;
const MAX_MESSAGE_LINES = 5;

const NODE_FRAME = /^\s+at \S/;
const NODE_INTERNAL = /^\s+at (?:.*\()?node:/;
const CARET = /^\s*\^+\s*$/;
/** The first line of a printed Error: `TypeError: …`, `Error [ERR_X]: …`, `DOMException [AbortError]: …`. */
const ERROR_HEAD = /^[\w$.]*(?:Error|Exception)\b/;
/** `/app/server.mjs:3` or `file:///app/server.mjs:3` above the source line and its caret. */
const NODE_HEADER = /^(\S.*):(\d+)$/;
const PYTHON_FRAME = /^ {2}File ".*", line \d+/;

const clip = (line: string): string => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
const indented = (line: string): boolean => /^\s/.test(line);

interface Found extends PrintedError {
  /** The index of the message's last line: the later of two candidates was printed last. */
  at: number;
}

/** A syntax error's `file:line` header (with the caret's column) above the message, as a frame. */
function nodeHeader(lines: readonly string[], messageStart: number): string | undefined {
  for (let index = messageStart - 1; index >= Math.max(0, messageStart - 6); index--) {
    const caret = lines[index] ?? '';
    if (!CARET.test(caret)) continue;
    const header = NODE_HEADER.exec(lines[index - 2] ?? '');
    if (!header?.[1] || header[1].startsWith('node:')) return undefined;
    const path = header[1].replace(/^file:\/\//, '');
    return `    at ${path}:${header[2]}:${caret.indexOf('^') + 1}`;
  }
  return undefined;
}

/** The last non-indented line followed by a frame, the lines of its message, and its place. */
function nodeError(lines: readonly string[]): Found | undefined {
  for (let index = lines.length - 2; index >= 0; index--) {
    const line = lines[index] ?? '';
    if (!line.trim() || indented(line) || !NODE_FRAME.test(lines[index + 1] ?? '')) continue;
    // A message of several lines starts at its `…Error:` line; without one, the line is the message.
    let start = index;
    for (let up = index; up >= 0 && index - up < MAX_MESSAGE_LINES; up--) {
      const candidate = lines[up] ?? '';
      if (!candidate.trim() || CARET.test(candidate) || NODE_FRAME.test(candidate)) break;
      if (ERROR_HEAD.test(candidate)) {
        start = up;
        break;
      }
    }
    const frames: string[] = [];
    for (let next = index + 1; NODE_FRAME.test(lines[next] ?? ''); next++) frames.push(lines[next] ?? '');
    const frame =
      frames.find((candidate) => !NODE_INTERNAL.test(candidate)) ?? nodeHeader(lines, start) ?? frames[0];
    return {
      message: lines
        .slice(start, index + 1)
        .map(clip)
        .join('\n'),
      ...(frame ? { frame: clip(frame) } : {}),
      at: index,
    };
  }
  return undefined;
}

/** The exception line after the last `File "…"` frame, and that frame. */
function pythonError(lines: readonly string[]): Found | undefined {
  for (let index = lines.length - 1; index >= 0; index--) {
    const frame = lines[index] ?? '';
    if (!PYTHON_FRAME.test(frame)) continue;
    let start = index + 1;
    while (start < lines.length && (indented(lines[start] ?? '') || !lines[start]?.trim())) start++;
    if (start >= lines.length) return undefined;
    let end = start;
    while (end + 1 < lines.length && end - start + 1 < MAX_MESSAGE_LINES && lines[end + 1]?.trim()) end++;
    return {
      message: lines
        .slice(start, end + 1)
        .map(clip)
        .join('\n'),
      frame: clip(frame),
      at: end,
    };
  }
  return undefined;
}

/** The error in `lines` (a process's output, oldest first), or undefined when none is recognised. */
export function printedError(lines: readonly string[]): PrintedError | undefined {
  const node = nodeError(lines);
  const python = pythonError(lines);
  const found = node && python ? (python.at > node.at ? python : node) : (node ?? python);
  if (!found) return undefined;
  const { at: _, ...error } = found;
  return error;
}
