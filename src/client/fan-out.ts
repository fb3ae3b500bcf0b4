/**
 * The shape of every `*WithErrors` method: one operation per server, concurrently, each under its
 * own optional deadline, collected as values plus per-server `errors`, `errorDetails` and (only
 * when options were given) `durations`. A deadline that passes aborts the operation's signal, so
 * the work given up on (a connect, its child process, a request) is abandoned, not left running.
 */
import type { MastraError } from '@mastra/core/error';
import { MCPErrorCode, mcpError } from '../errors.js';
import { errorDetail, legacyMessage } from './errors.js';
import type { FanOutErrors, MCPErrorDetail, WithErrorsOptions } from './types.js';

export interface FanOutResult<T> extends FanOutErrors {
  values: Record<string, T>;
}

/** One server's operation for a fan-out; `signal` aborts when its deadline passes. */
export type FanOutOperation<T> = (serverName: string, signal: AbortSignal | undefined) => Promise<T>;

/** A server as a fan-out reports it: where it is (`at <url>`, `(command '…')`), a failure in words. */
export interface FanOutServer {
  where: string;
  describeFailure(error: unknown): string;
}
export type ServerOf = (serverName: string) => FanOutServer;

const isDeadline = (error: unknown): error is MastraError =>
  (error as { id?: unknown } | null)?.id === MCPErrorCode.CLIENT_REQUEST_TIMEOUT;

function withDeadline<T>(
  serverName: string,
  operation: FanOutOperation<T>,
  timeoutMs: number | undefined,
  server: ServerOf | undefined,
): Promise<T> {
  if (timeoutMs === undefined) return operation(serverName, undefined);
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Its message names perServerTimeoutMs, no other timeout; errorDetails gives it the code
      // REQUEST_TIMEOUT, as the SDK's own timeouts have.
      const late = mcpError(
        MCPErrorCode.CLIENT_REQUEST_TIMEOUT,
        `MCP server '${serverName}'${server ? ` ${server(serverName).where}` : ''} did not answer within ${timeoutMs} ms (perServerTimeoutMs); its work was abandoned`,
        { server: serverName, timeoutMs },
      );
      abort.abort(late);
      reject(late);
    }, timeoutMs);
  });
  // Raced as well: the deadline holds even for work that does not watch its signal.
  return Promise.race([operation(serverName, abort.signal), deadline]).finally(() => clearTimeout(timer));
}

export async function fanOut<T>(
  serverNames: string[],
  operation: FanOutOperation<T>,
  options?: WithErrorsOptions,
  server?: ServerOf,
): Promise<FanOutResult<T>> {
  const values: Record<string, T> = {};
  const errors: Record<string, string> = {};
  const errorDetails: Record<string, MCPErrorDetail> = {};
  const durations: Record<string, number> = {};
  const outcomes = await Promise.all(
    serverNames.map(async (serverName) => {
      const started = performance.now();
      try {
        const value = await withDeadline(serverName, operation, options?.perServerTimeoutMs, server);
        return { ok: true as const, value, ms: performance.now() - started };
      } catch (error) {
        const detail = errorDetail(error);
        // A transport failure in words (refused, an HTTP status, which timeout), as a connect says it.
        if (server && !isDeadline(error)) detail.message = server(serverName).describeFailure(error);
        // Every reported error names its server, whichever layer raised it.
        if (!detail.message.includes(`'${serverName}'`))
          detail.message = `MCP server '${serverName}': ${detail.message}`;
        return { ok: false as const, detail, ms: performance.now() - started };
      }
    }),
  );
  // Keyed in the order the servers are configured, whichever answered first.
  serverNames.forEach((serverName, index) => {
    const outcome = outcomes[index];
    if (!outcome) return;
    if (!outcome.ok) {
      errorDetails[serverName] = outcome.detail;
      errors[serverName] = legacyMessage(outcome.detail);
    } else values[serverName] = outcome.value;
    durations[serverName] = Math.round(outcome.ms);
  });
  return { values, errors, errorDetails, ...(options ? { durations } : {}) };
}
