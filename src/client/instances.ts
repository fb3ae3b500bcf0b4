/**
 * Instance management: a configuration with an `id` maps to one live MCPClient (same
 * configuration: the same object; another configuration: it replaces the old one); two live
 * clients without an `id` may not share a configuration. `disconnect()` frees the slot.
 */
import { isDeepStrictEqual } from 'node:util';
import { MCPErrorCode, mcpError } from '../errors.js';
import type { MCPClientOptions } from './types.js';

export interface ManagedClient {
  readonly options: MCPClientOptions;
  disconnect(): Promise<void>;
}

const byId = new Map<string, ManagedClient>();
const anonymous = new Set<ManagedClient>();

/** Functions compare by identity, URLs by their href, everything else by value. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b))
    return false;
  if (Object.getPrototypeOf(a) !== Object.prototype && !Array.isArray(a)) return isDeepStrictEqual(a, b);
  const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}

function sameConfiguration(a: MCPClientOptions, b: MCPClientOptions): boolean {
  return sameValue(a, b);
}

/** Returns the client to use: an existing one, or `created` once registered. */
export function claimInstance<T extends ManagedClient>(created: T): T {
  const { options } = created;
  if (options.id !== undefined) {
    const existing = byId.get(options.id);
    if (existing && sameConfiguration(existing.options, options)) return existing as T;
    if (existing) void existing.disconnect();
    byId.set(options.id, created);
    return created;
  }
  for (const other of anonymous) {
    if (sameConfiguration(other.options, options)) {
      throw mcpError(
        MCPErrorCode.CLIENT_MULTIPLE_INITIALIZATIONS,
        'MCPClient was created again with the same configuration while the first instance is still connected. ' +
          'Reuse the first instance, call disconnect() on it before creating another, or give each instance a unique id.',
      );
    }
  }
  anonymous.add(created);
  return created;
}

export function releaseInstance(client: ManagedClient): void {
  anonymous.delete(client);
  const id = client.options.id;
  if (id !== undefined && byId.get(id) === client) byId.delete(id);
}
