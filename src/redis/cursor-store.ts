/**
 * `MCPEventCursorStore` in Redis, so an `MCPEventsSignalProvider` in another process (or the same
 * one after a restart) resumes each subscription from the last cursor any of them stored. A TTL
 * suits cursors: a subscription nobody resumes within it starts afresh instead of keeping its key
 * forever (each stored cursor restarts the clock).
 */
import type { MCPEventCursorStore } from '../client/events/cursor-store.js';
import { RedisKeyValue, type RedisStoreOptions } from './key-value.js';

export type RedisMCPEventCursorStoreOptions = RedisStoreOptions;

export class RedisMCPEventCursorStore extends RedisKeyValue implements MCPEventCursorStore {
  /** Keys default to `mastra-mcp:cursors:<key>`. */
  constructor(options: RedisMCPEventCursorStoreOptions) {
    super('RedisMCPEventCursorStore', 'mastra-mcp:cursors:', options);
  }
}
