/**
 * The `roots` option's public types: the directories (`file://` URIs) MCPClient tells servers they
 * may work in, answering `roots/list` (a 2025 request or a 2026-07-28 input request).
 */

/** One root: a `file://` URI and an optional name to show. */
export interface MCPRoot {
  uri: string;
  name?: string;
  _meta?: Record<string, unknown>;
}

/** Reads the roots when a server asks (a server asks again after `notifications/roots/list_changed`). */
export type MCPRootsProvider = (context: {
  serverName: string;
  signal: AbortSignal;
}) => MCPRoot[] | Promise<MCPRoot[]>;

/** The `roots` option: a list, or a function read at each request. */
export type MCPClientRootsOption = MCPRoot[] | MCPRootsProvider;

/** `mcpClient.roots`. */
export interface MCPClientRoots {
  /**
   * Replaces the roots of every server that has roots (or of `options.server` alone) and tells the
   * connected 2025 servers (`notifications/roots/list_changed`); 2026-07-28 servers read the new
   * list the next time they ask.
   */
  set(roots: MCPRoot[], options?: { server?: string }): Promise<void>;
}
