/**
 * `OAuthStorage` in Redis, so several processes signed in to the same MCP server share its tokens:
 * tokens one process obtains or refreshes are what the next read in any other process returns.
 * Give each server's `MCPOAuthClientProvider` its own `keyPrefix` (the provider's keys are
 * per-server names like `tokens`); a provider serialises its own reads and writes, but two
 * processes refreshing at once each write a valid token set, and the last write wins.
 */
import type { OAuthStorage } from '../client/auth/storage.js';
import { RedisKeyValue, type RedisStoreOptions } from './key-value.js';

export type RedisOAuthStorageOptions = RedisStoreOptions;

export class RedisOAuthStorage extends RedisKeyValue implements OAuthStorage {
  /** Keys default to `mastra-mcp:oauth:<key>`. */
  constructor(options: RedisOAuthStorageOptions) {
    super('RedisOAuthStorage', 'mastra-mcp:oauth:', options);
  }

  /** `OAuthStorage` reads an absent key as `undefined`. */
  override async get(key: string): Promise<string | undefined> {
    return (await super.get(key)) ?? undefined;
  }
}
