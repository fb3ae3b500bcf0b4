/**
 * String values under a key prefix in Redis: what `RedisOAuthStorage` and
 * `RedisMCPEventCursorStore` both are. Every write is a plain SET (with EX when a TTL is set), so
 * a write that resolved was acknowledged by Redis; whether it survives a Redis restart is Redis'
 * persistence setting (AOF with `appendfsync always` keeps every acknowledged write, see
 * docs/DEPLOYMENT.md).
 */
import { DEFAULT_REDIS_TIMEOUT_MS, type RedisCommandClient, runCommand } from './command.js';
import { positiveOption } from './errors.js';

export interface RedisStoreOptions {
  /** A connected node-redis client; the store never opens or closes connections itself. */
  client: RedisCommandClient;
  /** Prepended to every key, so several stores (or applications) share one Redis. */
  keyPrefix?: string;
  /** Expire each entry this many seconds after its last write; by default entries never expire. */
  ttlSeconds?: number;
  /** How long one command may wait for Redis before it fails with `MCP_REDIS_UNAVAILABLE` (default 2000). */
  timeoutMs?: number;
}

/** The base of the Redis stores: `store` names the subclass in errors. */
export class RedisKeyValue {
  readonly keyPrefix: string;
  private readonly client: RedisCommandClient;
  private readonly ttlSeconds: number | undefined;
  private readonly timeoutMs: number;

  protected constructor(
    private readonly store: string,
    defaultPrefix: string,
    options: RedisStoreOptions,
  ) {
    this.client = options.client;
    this.keyPrefix = options.keyPrefix ?? defaultPrefix;
    this.ttlSeconds = positiveOption(store, 'ttlSeconds', options.ttlSeconds, true);
    this.timeoutMs = positiveOption(store, 'timeoutMs', options.timeoutMs) ?? DEFAULT_REDIS_TIMEOUT_MS;
  }

  async get(key: string): Promise<string | null | undefined> {
    const value = await this.run('get', key, (full) => ['GET', full]);
    return typeof value === 'string' ? value : null;
  }

  async set(key: string, value: string): Promise<void> {
    const expiry = this.ttlSeconds === undefined ? [] : ['EX', String(this.ttlSeconds)];
    await this.run('set', key, (full) => ['SET', full, value, ...expiry]);
  }

  async delete(key: string): Promise<void> {
    await this.run('delete', key, (full) => ['DEL', full]);
  }

  private run(operation: string, key: string, command: (fullKey: string) => string[]): Promise<unknown> {
    const full = this.keyPrefix + key;
    const subject = { store: this.store, operation, key: full, keyPrefix: this.keyPrefix };
    return runCommand(this.client, command(full), subject, this.timeoutMs);
  }
}
