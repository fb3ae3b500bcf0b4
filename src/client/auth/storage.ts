/**
 * Where an `MCPOAuthClientProvider` keeps its state: a string key-value contract (`OAuthStorage`),
 * an in-memory default, and the per-provider queue every read and write goes through. Invariant:
 * within one provider, storage operations run one at a time in call order, so a multi-key update
 * (tokens plus their issuer entry) is never interleaved with another read or write of the same
 * provider. Ordering across providers that share a backend is the backend's business: give each
 * provider its own namespace.
 */

/** The key-value contract a persistent backend implements (values are JSON strings). */
export interface OAuthStorage {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * MCPOAuthClientProvider's default `OAuthStorage` (tokens, discovery state, PKCE verifier, a
 * registered client): a Map, gone with the process. `RedisOAuthStorage` (`mastra-mcp/redis`) is the persistent one.
 */
export class InMemoryOAuthStorage implements OAuthStorage {
  private readonly entries: Map<string, string>;

  constructor(initial?: Record<string, string>) {
    this.entries = new Map(Object.entries(initial ?? {}));
  }

  async get(key: string): Promise<string | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    this.entries.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
}

/** The keys a provider uses; one issuer-bound token entry per authorization server. */
export const STORAGE_KEYS = {
  /** The latest token set (whichever authorization server issued it), with its `issuer` stamp. */
  latestTokens: 'tokens',
  /** Issuers that have a token entry, so invalidation can find every one. */
  tokenIssuers: 'token-issuers',
  discovery: 'discovery',
  codeVerifier: 'code-verifier',
  state: 'state',
  tokensOf: (issuer: string) => `tokens:${issuer}`,
  /** Issuers a client was registered with (the v1 shape), so invalidation can find every one. */
  clientIssuers: 'client-issuers',
  /** The client registered at runtime with one authorization server. */
  clientOf: (issuer: string) => `client:${issuer}`,
} as const;

/** Runs storage work one task at a time, in call order; a failed task does not stall the next. */
export class StorageQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly storage: OAuthStorage) {}

  run<T>(task: (storage: OAuthStorage) => Promise<T>): Promise<T> {
    const result = this.tail.then(() => task(this.storage));
    this.tail = result.catch(() => {});
    return result;
  }
}

/** A JSON entry; a corrupt one reads as absent (and is overwritten by the next save). */
export async function readJson<T>(storage: OAuthStorage, key: string): Promise<T | undefined> {
  const raw = await storage.get(key);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}
