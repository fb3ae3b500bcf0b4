/**
 * How a stdio server that died during a connect is reported. Kept apart from the stdio transport
 * (stdio.ts), which loads the SDK's stdio client on first use: connection code checks these
 * without loading it.
 */

/** What the stdio transport records about its child's end. */
export interface ExitReport {
  /** How the child ended unless a signal of ours ended it. */
  ownExit: string | undefined;
  /** The child's last non-empty stderr line. */
  lastStderr: string | undefined;
}

/** A stdio server's process ended on its own during a connect; the handshake's error is the cause. */
export class StdioExitError extends Error {}

/**
 * Why a stdio server stopped during a connect, when its process ended on its own: the exit code or
 * signal and its last stderr line, which usually says why. Undefined while it was still running.
 */
export function stdioExitError(transport: Partial<ExitReport>, cause: unknown): StdioExitError | undefined {
  if (transport.ownExit === undefined) return undefined;
  const stderr = transport.lastStderr?.trim();
  const clipped = stderr && stderr.length > 200 ? `${stderr.slice(0, 200)}…` : stderr;
  return new StdioExitError(
    `the process ${transport.ownExit} before answering${clipped ? ` (its last stderr line: ${clipped})` : ''}`,
    { cause },
  );
}
