/**
 * The one check of the numbers the `tasks` option and InMemoryMCPTaskStore take: a positive
 * integer, or a USER error naming where the option is and which one it is.
 */
import { MCPErrorCode, mcpError } from '../../errors.js';

/** A malformed option of `where` (`tasks`, `InMemoryMCPTaskStore`), naming `field`. */
export function invalidOption(where: string, message: string, field: string): Error {
  return mcpError(MCPErrorCode.SERVER_INVALID_TASKS_OPTION, `${where}: ${message}`, { field });
}

/** `value`, or `fallback` when absent; anything but a positive integer throws naming the option. */
export function positiveOption(
  where: string,
  value: number | undefined,
  fallback: number,
  field: string,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw invalidOption(where, `'${field}' must be a positive integer, got ${String(value)}`, field);
  return value;
}
