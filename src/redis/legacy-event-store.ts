/**
 * The SDK's `EventStore` (resumability of legacy Streamable HTTP sessions, `startHTTP`'s
 * `eventStore` option) on Redis Streams: one stream per SSE stream id, each message one entry.
 * An event id is the stream id (percent-encoded, so it fits an SSE `id:` line and the
 * `Last-Event-ID` header) and the entry id, `<stream>:<ms>-<seq>`, so a replay finds its stream
 * from the id alone and reads the entries after it in order.
 *
 * Bounded: each stream keeps its last `maxLength` events and expires `ttlSeconds` after its last
 * one (one atomic script per event). A client resuming from an event already trimmed gets the
 * events still kept. A store call that Redis does not acknowledge fails with
 * `MCP_REDIS_UNAVAILABLE` and nothing is reported stored; MCPServer then sends that message live
 * without an event id (transports/session-event-store.ts).
 *
 * Events survive the process that stored them (and a Redis restart with AOF), but the legacy
 * session does not: it lives in one instance's memory, so `Last-Event-ID` is only useful on the
 * instance that owns the session (docs/DEPLOYMENT.md).
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import { DEFAULT_REDIS_TIMEOUT_MS, type RedisCommandClient, runCommand } from './command.js';
import { positiveOption, type RedisOperation, redisError } from './errors.js';
import { RedisScript } from './script.js';

export interface RedisResumabilityEventStoreOptions {
  /** A connected node-redis client; the store never opens or closes connections itself. */
  client: RedisCommandClient;
  /** Prepended to every stream key (default `mastra-mcp:sse:`). */
  keyPrefix?: string;
  /** Events kept per SSE stream, oldest dropped first (default 1000). */
  maxLength?: number;
  /** A stream expires this many seconds after its last event (default 3600). */
  ttlSeconds?: number;
  /**
   * How long one command may wait for Redis (default 2000 ms). While Redis is down every message
   * of a legacy stream waits this long before it is sent without an id; a shorter one suits a
   * store on the hot path.
   */
  timeoutMs?: number;
}

const STORE = 'RedisResumabilityEventStore';
const REPLAY_PAGE = 100;

/** XADD with MAXLEN and the stream's expiry in one step, so no stream is left without a TTL. */
const STORE_SCRIPT =
  new RedisScript(`local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'm', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return id`);

const ENTRY_ID = /^\d+-\d+$/;

type StreamEntry = [id: string, fields: string[]];

/**
 * The SDK's `EventStore` for resuming cut SSE streams of legacy Streamable HTTP sessions
 * (`Last-Event-ID`). Not the store of MCP Events occurrences: that is `RedisMCPEventStore`.
 */
export class RedisResumabilityEventStore implements EventStore {
  readonly keyPrefix: string;
  private readonly client: RedisCommandClient;
  private readonly maxLength: number;
  private readonly ttlSeconds: number;
  private readonly timeoutMs: number;

  constructor(options: RedisResumabilityEventStoreOptions) {
    this.client = options.client;
    this.keyPrefix = options.keyPrefix ?? 'mastra-mcp:sse:';
    this.maxLength = positiveOption(STORE, 'maxLength', options.maxLength, true) ?? 1000;
    this.ttlSeconds = positiveOption(STORE, 'ttlSeconds', options.ttlSeconds, true) ?? 3600;
    this.timeoutMs = positiveOption(STORE, 'timeoutMs', options.timeoutMs) ?? DEFAULT_REDIS_TIMEOUT_MS;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const key = this.keyPrefix + streamId;
    const entryId = await STORE_SCRIPT.run(
      this.client,
      [key],
      [String(this.maxLength), JSON.stringify(message), String(this.ttlSeconds)],
      this.subject('storeEvent', key),
      this.timeoutMs,
    );
    return `${encodeURIComponent(streamId)}:${String(entryId)}`;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return parseEventId(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) throw new Error(`${STORE}: '${lastEventId}' is not an event id this store issued`);
    const { streamId } = parsed;
    const key = this.keyPrefix + streamId;
    let after = parsed.entryId;
    for (;;) {
      const page = (await runCommand(
        this.client,
        ['XRANGE', key, `(${after}`, '+', 'COUNT', String(REPLAY_PAGE)],
        this.subject('replayEventsAfter', key),
        this.timeoutMs,
      )) as StreamEntry[];
      for (const [entryId, fields] of page) {
        await send(`${encodeURIComponent(streamId)}:${entryId}`, this.message(key, entryId, fields));
        after = entryId;
      }
      if (page.length < REPLAY_PAGE) return streamId;
    }
  }

  private message(key: string, entryId: string, fields: string[]): JSONRPCMessage {
    const stored = fields[fields.indexOf('m') + 1];
    try {
      return JSON.parse(stored ?? '') as JSONRPCMessage;
    } catch {
      throw redisError(this.subject('replayEventsAfter', key), {
        cause: new Error(`entry ${entryId} holds no stored MCP message`),
        connected: true,
      });
    }
  }

  private subject(operation: string, key: string): RedisOperation {
    return { store: STORE, operation, key, keyPrefix: this.keyPrefix };
  }
}

function parseEventId(eventId: string): { streamId: string; entryId: string } | undefined {
  const colon = eventId.lastIndexOf(':');
  const entryId = eventId.slice(colon + 1);
  if (colon <= 0 || !ENTRY_ID.test(entryId)) return undefined;
  try {
    return { streamId: decodeURIComponent(eventId.slice(0, colon)), entryId };
  } catch {
    return undefined;
  }
}
