/**
 * Where MCPEventsSignalProvider keeps the resume cursor of each MCP subscription, by the key
 * `MCPEventsSignalProvider.key()` returns. Only cursors live here, never which threads are
 * subscribed; only non-null cursors are stored.
 */

export interface MCPEventCursorStore {
  /** The stored cursor, or `null`/`undefined` when there is none. */
  get(key: string): Promise<string | null | undefined> | string | null | undefined;
  set(key: string, cursor: string): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/** The default store: a Map in this process (cursors are lost on restart). */
export class InMemoryMCPEventCursorStore implements MCPEventCursorStore {
  private readonly cursors = new Map<string, string>();

  async get(key: string): Promise<string | null> {
    return this.cursors.get(key) ?? null;
  }

  async set(key: string, cursor: string): Promise<void> {
    this.cursors.set(key, cursor);
  }

  async delete(key: string): Promise<void> {
    this.cursors.delete(key);
  }
}
