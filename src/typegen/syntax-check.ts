/**
 * Where a JavaScript input's syntax error is. Node 20's `import()` rejects an ES module that does
 * not parse with a bare `SyntaxError: Unexpected token ';'`: the place is printed only when such an
 * error goes uncaught. So the file is checked once more by `node --check`, in a child process,
 * whose report names the file and line and marks the column with a caret (shared/printed-error.ts
 * reads it). A syntax error in a module the input imports is not found this way: its place stays
 * unknown.
 */
import { execFile } from 'node:child_process';
import { printedError } from '../shared/printed-error.js';
import { locationOf } from './load-error.js';

const JAVASCRIPT = /\.[mc]?js$/i;
/** `node --check` parses one file; a run longer than this is not waited for. */
const CHECK_TIMEOUT_MS = 15_000;

/** `file:line:column` of the syntax error that made `file` fail to load, when its error has none. */
export async function syntaxErrorPlace(file: string, error: unknown): Promise<string | undefined> {
  const { name, stack } = (error ?? {}) as { name?: unknown; stack?: unknown };
  if (name !== 'SyntaxError' || !JAVASCRIPT.test(file)) return undefined;
  // A CommonJS error names its place at the head of its stack (load-error.ts reads that).
  if (typeof stack === 'string' && /^\S+:\d+\n/.test(stack)) return undefined;
  const report = await new Promise<string>((resolve) => {
    execFile(process.execPath, ['--check', file], { timeout: CHECK_TIMEOUT_MS }, (_failed, _stdout, stderr) =>
      resolve(String(stderr)),
    );
  });
  const frame = printedError(report.split('\n'))?.frame;
  return frame ? locationOf(frame) : undefined;
}
