/**
 * How a stdio server that died during a connect is reported: how it ended, and the error it
 * printed (shared/printed-error.ts: Node's uncaught error or a Python traceback, as its message
 * and first frame), else its last stderr line. A variable the error names that this process has
 * but the child's curated environment lacks is pointed out, with the `env` option that passes it.
 * Kept apart from the stdio transport (stdio.ts), which loads the SDK's stdio client on first use:
 * connection code checks these without loading it.
 */
import { MastraError } from '@mastra/core/error';
import { MCPErrorCode, mcpErrorDefinition } from '../../errors.js';
import { printedError } from '../../shared/printed-error.js';

/** What the stdio transport records about its child's end. */
export interface ExitReport {
  /** How the child ended unless a signal of ours ended it. */
  ownExit: string | undefined;
  /** The last lines the child wrote to stderr, oldest first (bounded). */
  stderrTail: readonly string[];
  /** The environment the child was started with. */
  environment: Record<string, string>;
}

/**
 * A stdio server's process ended on its own during a connect (MCP_CLIENT_STDIO_SERVER_EXITED); the
 * handshake's error is the cause. `crashed`: it printed an uncaught error, so starting it again
 * (the legacy fallback) would too. A class so the connection tells it apart by type.
 */
export class StdioExitError extends MastraError {
  constructor(
    message: string,
    options: { cause: unknown },
    readonly crashed: boolean,
  ) {
    super(mcpErrorDefinition(MCPErrorCode.CLIENT_STDIO_SERVER_EXITED, message, { crashed }), options.cause);
  }
}

/** Node's closing line and its hint about non-Error throws say nothing about the failure. */
const NOISE = /^Node\.js v\d|^\(Use `node --trace-/;

const clip = (line: string): string => (line.length > 200 ? `${line.slice(0, 200)}…` : line);

/** What the child printed, as the reason it died. */
function printed(tail: readonly string[], error = printedError(tail)): string {
  if (error) return `:\n${error.message}${error.frame ? `\n${error.frame}` : ''}`;
  const last = [...tail].reverse().find((line) => line.trim() && !NOISE.test(line));
  return last ? ` (its last stderr line: ${clip(last.trim())})` : ' (it wrote nothing to stderr)';
}

/** Names in `text` set in this process but not passed to the child (the curated environment). */
function withheld(text: string, environment: Record<string, string>): string[] {
  const names = new Set(text.match(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g) ?? []);
  return [...names].filter((name) => process.env[name] !== undefined && !(name in environment));
}

/**
 * Why a stdio server stopped during a connect, when its process ended on its own: the exit code or
 * signal and what it printed. Undefined while it was still running.
 */
export function stdioExitError(transport: Partial<ExitReport>, cause: unknown): StdioExitError | undefined {
  if (transport.ownExit === undefined) return undefined;
  const error = printedError(transport.stderrTail ?? []);
  const reason = printed(transport.stderrTail ?? [], error);
  const missing = withheld(reason, transport.environment ?? {});
  const hint =
    missing.length > 0
      ? `\n${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} set in this process but not passed to the server: a stdio server gets only its 'env' option and a few variables such as PATH and HOME, so add ${missing.length > 1 ? 'them' : 'it'} to 'env'`
      : '';
  return new StdioExitError(
    `the process ${transport.ownExit} before answering${reason}${hint}`,
    { cause },
    error !== undefined,
  );
}
