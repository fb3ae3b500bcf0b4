/**
 * One server's roots: the list (or the function read at each request) that answers its
 * `roots/list`, checked every time it is given or read (a `file://` URI each, as the protocol
 * asks), and `set()`, which replaces it and tells the server when it can be told: a connected
 * 2025 server gets `notifications/roots/list_changed` (2026-07-28 has no such notification; its
 * servers ask for roots inside each call, so they read the new list when they next ask).
 */
import type { Client } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { messageOf } from '../errors.js';
import type { MCPClientRootsOption, MCPRoot } from './types.js';

/** Why `roots` is no list of roots, naming the entry (`<path>[1].uri`); undefined when it is one. */
export function rootsProblem(roots: unknown, path: string): string | undefined {
  if (!Array.isArray(roots)) return `\`${path}\` must be an array of roots ({ uri, name? })`;
  for (const [index, root] of roots.entries()) {
    const at = `${path}[${index}]`;
    const uri = (root as { uri?: unknown } | null)?.uri;
    if (typeof uri !== 'string') return `\`${at}.uri\` must be a string (a file:// URI)`;
    if (!URL.canParse(uri) || new URL(uri).protocol !== 'file:')
      return `\`${at}.uri\` must be a file:// URI (pathToFileURL(dir).href), got ${JSON.stringify(uri.slice(0, 80))}`;
    const name = (root as { name?: unknown }).name;
    if (name !== undefined && typeof name !== 'string') return `\`${at}.name\` must be a string`;
  }
  return undefined;
}

/** Throws MCP_CLIENT_INVALID_ROOTS when `roots` is no list of roots. */
export function assertRoots(roots: unknown, path: string, where: string, server?: string): void {
  const problem = rootsProblem(roots, path);
  if (problem)
    throw mcpError(MCPErrorCode.CLIENT_INVALID_ROOTS, `${where}: ${problem}`, { server, field: path });
}

export class ServerRoots {
  private source: MCPClientRootsOption;
  /** The SDK client built last for this server: the one a notification goes to. */
  private latest: WeakRef<Client> | undefined;

  constructor(
    readonly serverName: string,
    source: MCPClientRootsOption,
    /** Whether `notifications/roots/list_changed` was declared (`capabilities.roots.listChanged`). */
    private readonly notifies: boolean,
    private readonly log: (level: 'warning', message: string) => void,
  ) {
    this.source = source;
  }

  attach(client: Client): void {
    this.latest = new WeakRef(client);
  }

  /** The roots as the server is told them; a function's answer is checked each time. */
  async list(signal: AbortSignal): Promise<MCPRoot[]> {
    const where = `MCP server '${this.serverName}'`;
    if (typeof this.source !== 'function') return this.source.map((root) => ({ ...root }));
    let roots: unknown;
    try {
      roots = await this.source({ serverName: this.serverName, signal });
    } catch (error) {
      throw mcpError(
        MCPErrorCode.CLIENT_INVALID_ROOTS,
        `${where}: the roots function failed: ${messageOf(error)}`,
        { server: this.serverName },
        error,
      );
    }
    assertRoots(
      roots,
      'roots()',
      `${where}: the roots function answered what is no list of roots`,
      this.serverName,
    );
    return roots as MCPRoot[];
  }

  /** Replaces the roots (already checked) and tells a connected 2025 server. */
  async set(roots: MCPRoot[]): Promise<void> {
    this.source = roots.map((root) => ({ ...root }));
    const client = this.latest?.deref();
    if (!this.notifies || !client?.transport || client.getProtocolEra() !== 'legacy') return;
    await client.sendRootsListChanged().catch((error: unknown) => {
      this.log('warning', `notifications/roots/list_changed could not be sent: ${messageOf(error)}`);
    });
  }
}
