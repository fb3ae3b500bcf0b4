/**
 * The shape of every `*WithErrors` method: one operation per server, concurrently, each under its
 * own optional deadline, collected as values plus per-server `errors`, `errorDetails` and (only
 * when options were given) `durations`.
 */
import { errorDetail, legacyMessage } from './errors.js';
import type { FanOutErrors, MCPErrorDetail, WithErrorsOptions } from './types.js';

export interface FanOutResult<T> extends FanOutErrors {
  values: Record<string, T>;
}

function withDeadline<T>(serverName: string, work: Promise<T>, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`MCP server '${serverName}' did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export async function fanOut<T>(
  serverNames: string[],
  operation: (serverName: string) => Promise<T>,
  options?: WithErrorsOptions,
): Promise<FanOutResult<T>> {
  const values: Record<string, T> = {};
  const errors: Record<string, string> = {};
  const errorDetails: Record<string, MCPErrorDetail> = {};
  const durations: Record<string, number> = {};
  await Promise.all(
    serverNames.map(async (serverName) => {
      const started = performance.now();
      try {
        values[serverName] = await withDeadline(
          serverName,
          operation(serverName),
          options?.perServerTimeoutMs,
        );
      } catch (error) {
        const detail = errorDetail(error);
        // Every reported error names its server, whichever layer raised it.
        if (!detail.message.includes(`'${serverName}'`))
          detail.message = `MCP server '${serverName}': ${detail.message}`;
        errorDetails[serverName] = detail;
        errors[serverName] = legacyMessage(detail);
      } finally {
        durations[serverName] = Math.round(performance.now() - started);
      }
    }),
  );
  return { values, errors, errorDetails, ...(options ? { durations } : {}) };
}
