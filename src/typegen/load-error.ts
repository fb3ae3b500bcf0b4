/**
 * Why an input module failed to load, as one line naming the file and line when the error knows
 * them: esbuild's transform errors (TypeScript syntax, through tsx) list `file:line:column:
 * ERROR: text`; Node's syntax errors in CommonJS put `file:line`, the source line and a caret at
 * the head of their stack (the caret gives the column); an ES module's carry no place, which
 * syntax-check.ts finds; anything the module threw while it ran is shown with the first stack
 * frame that names a file. Every part is escaped and shortened (printable) before it reaches the
 * terminal.
 */
import { fileURLToPath } from 'node:url';
import { printable } from './diagnostics.js';

const MAX_SHOWN = 300;

/** `/abs/file.ts:4:30: ERROR: Expected "}" but found ";"` lines of an esbuild TransformError. */
function transformErrors(message: string): string[] {
  return message
    .split('\n')
    .filter((line) => /:\d+:\d+: (ERROR|error): /.test(line))
    .slice(0, 3);
}

/** A stack location as a path: `file://` URLs decoded, tsx's `data:` modules by their `filePath`. */
export function locationOf(frame: string): string | undefined {
  const dataModule = /[?&]filePath=([^:&]+)/.exec(frame);
  if (frame.includes('data:text/javascript') && dataModule?.[1]) {
    // tsx evaluates compiled CommonJS as a data: URL whose line numbers are not the source's.
    return decodeURIComponent(dataModule[1]).replace(/\?namespace=.*$/, '');
  }
  // A path or file: URL at the start of the frame or after `at ` / `(`: never `node:internal/…`.
  const located = /(?:^|[\s(])((?:file:\/\/)?\/[^\s():]+):(\d+)(?::(\d+))?/.exec(frame);
  if (!located?.[1] || located[1].includes('/node_modules/')) return undefined;
  const path = located[1].startsWith('file://') ? fileURLToPath(located[1]) : located[1];
  return `${path}:${located[2]}${located[3] ? `:${located[3]}` : ''}`;
}

/** `place`: where a syntax error is when the error does not say (syntax-check.ts). */
export function loadError(error: unknown, place?: string): string {
  const { name, message, stack } = (error ?? {}) as { name?: unknown; message?: unknown; stack?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const kind = typeof name === 'string' ? name : 'Error';
  if (kind === 'TransformError') {
    const lines = transformErrors(text);
    if (lines.length > 0) return lines.map((line) => printable(line, MAX_SHOWN)).join('; ');
  }
  const firstLine = text.split('\n', 1)[0] ?? '';
  const frames = typeof stack === 'string' ? stack.split('\n') : [];
  // Node prefixes a SyntaxError's stack with `file:line`, then the source line and a caret.
  const head = frames[0] !== undefined && /^\S+:\d+$/.test(frames[0]) ? locationOf(frames[0]) : undefined;
  const caret = frames[2]?.indexOf('^') ?? -1;
  const frame =
    place ??
    (head && caret >= 0 ? `${head}:${caret + 1}` : head) ??
    frames
      .filter((line) => /^\s+at /.test(line))
      .map(locationOf)
      .find(Boolean);
  const where = frame ? ` (at ${printable(frame, MAX_SHOWN)})` : '';
  return `${printable(`${kind}: ${firstLine}`, MAX_SHOWN)}${where}`;
}
