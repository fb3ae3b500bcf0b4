/**
 * MCPClient's instance cache (compat/client.ts): a configuration with an `id` maps to one live
 * client (same configuration: the same object; another configuration: it replaces the old one);
 * two live clients without an `id` may not share a configuration. `disconnect()` frees the slot.
 */
import { isDeepStrictEqual } from 'node:util';
import type { MCPClientOptions } from '../client/types.js';
import { MCPErrorCode, mcpError } from '../errors.js';

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

/**
 * The live client `new MCPClient(options)` returns instead of building one: the one holding
 * `options.id` with the same configuration. Without an `id`, a live client with the same
 * configuration is an error. Asked before anything is built, so a cached return builds nothing.
 */
export function liveInstance(options: MCPClientOptions): ManagedClient | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  if (options.id !== undefined) {
    const existing = byId.get(options.id);
    return existing && sameConfiguration(existing.options, options) ? existing : undefined;
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
  return undefined;
}

/** Registers a client just built (none was live for its options); a client its `id` held before is disconnected. */
export function claimInstance(created: ManagedClient): void {
  const { options } = created;
  if (options.id === undefined) {
    anonymous.add(created);
    return;
  }
  const existing = byId.get(options.id);
  if (existing) void existing.disconnect();
  byId.set(options.id, created);
}

export function releaseInstance(client: ManagedClient): void {
  anonymous.delete(client);
  const id = client.options.id;
  if (id !== undefined && byId.get(id) === client) byId.delete(id);
}
