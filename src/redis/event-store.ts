/**
 * `MCPEventStore` in Redis, shared by every instance of one MCPServer id: a cursor any instance
 * issued resumes on any other, and a push stream on one instance hears of `emit()` on another.
 *
 * Layout under `<keyPrefix><serverId>:` (the scripts are in event-store-scripts.ts): `epoch`,
 * `counter` (numbers every occurrence of every type), `stream:<event name>` (one Redis Stream per
 * type, entry ids `<n>-0`), `dropped` (per type, the newest number retention removed), and the
 * pub/sub channel `appended`.
 *
 * Positions are `<epoch>:<n>`. The Redis epoch is inside each position rather than in `epoch`
 * because it is only known by asking Redis: every read compares it in the same atomic script that
 * reads, so no instance ever judges a cursor against a stale copy. A position of another epoch
 * (Redis was wiped, or the keys deleted) is answered like a foreign cursor of a restarted
 * in-memory store: no events, `truncated`, from the current head. `epoch` itself is fixed, which
 * still tells cursors of other stores apart.
 *
 * Wakeups use pub/sub on the `subscriber` connection, not a blocking XREAD: the set of streams is
 * open-ended (one per type), and a wakeup is only a hint, since every delivery reads the store
 * after its own position. Pub/sub is at most once, so when the subscriber reconnects (node-redis
 * resubscribes before it reports `ready`) every type read or written here is woken once, and any
 * wakeup lost in between is made good at once rather than at the next heartbeat.
 */
import { randomUUID } from 'node:crypto';
import { MCPErrorCode, mcpError } from '../errors.js';
import {
  type MCPEventOccurrence,
  type MCPEventStore,
  type MCPEventStoreFilter,
  type MCPEventStoreReadResult,
  type MCPStoredEvent,
  ReadScan,
  type ScanEntry,
} from '../server/store-kit.js';
import { DEFAULT_REDIS_TIMEOUT_MS, type RedisCommandClient, withDeadline } from './command.js';
import { invalidOption, positiveOption, type RedisOperation } from './errors.js';
import type { RedisSubscriberClient } from './event-bus.js';
import { APPEND, HEAD, READ } from './event-store-scripts.js';

/** The subscribing connection (node-redis: `client.duplicate()`, connected; the bus' `subscriber` will do). */
export interface RedisMCPEventStoreSubscriber extends RedisSubscriberClient {
  on(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

export interface RedisMCPEventStoreOptions {
  /** Runs the scripts; may be shared with other stores. */
  client: RedisCommandClient;
  /** Hears other instances' appends; may be shared with a `RedisMCPServerEventBus`. */
  subscriber: RedisMCPEventStoreSubscriber;
  /** The MCPServer's `id`, identical on every instance: it separates servers sharing one Redis. */
  serverId: string;
  /** Default `mastra-mcp:events:`; keys are `<keyPrefix><serverId>:...`. */
  keyPrefix?: string;
  /** Newest occurrences kept per event type. Default 1000. */
  maxEvents?: number;
  /** Occurrences stored longer ago than this (by Redis' clock) are dropped. Default one hour. */
  maxAgeMs?: number;
  /** How long one operation may wait for Redis before it fails with `MCP_REDIS_UNAVAILABLE` (default 2000). */
  timeoutMs?: number;
  /** Problems of the wakeup channel (nothing else is reported here). Default: `console.warn`. */
  onError?: (error: Error) => void;
}

const STORE = 'RedisMCPEventStore';
const POSITION = /^([0-9a-f-]{36}):(\d{1,15})$/;
/** Entries fetched per script run: enough for a whole poll or push batch in one round trip. */
const MIN_PAGE = 100;
const MAX_PAGE = 1000;

type Page =
  | { foreign: true; epoch: string; counter: number }
  | {
      foreign: false;
      counter: number;
      dropped: number;
      entries: ScanEntry[];
    };

export class RedisMCPEventStore implements MCPEventStore {
  readonly epoch = 'redis';
  /** `<keyPrefix><serverId>:`, the start of every key and of the channel. */
  readonly keyPrefix: string;
  private readonly client: RedisCommandClient;
  private readonly subscriber: RedisMCPEventStoreSubscriber;
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;
  private readonly onError: (error: Error) => void;
  private readonly channel: string;
  /** Tells this store's own messages apart: its listeners were called when it appended. */
  private readonly origin = randomUUID();
  private readonly listeners = new Set<(name: string) => void>();
  /** Types read or written here: woken after the subscriber reconnects. */
  private readonly known = new Set<string>();

  constructor(options: RedisMCPEventStoreOptions) {
    if (typeof options.serverId !== 'string' || options.serverId === '') {
      invalidOption(STORE, 'serverId', "must be the MCPServer's id (a non-empty string)");
    }
    this.client = options.client;
    this.subscriber = options.subscriber;
    this.keyPrefix = `${options.keyPrefix ?? 'mastra-mcp:events:'}${options.serverId}:`;
    this.maxEvents = positiveOption(STORE, 'maxEvents', options.maxEvents, true) ?? 1000;
    this.maxAgeMs = positiveOption(STORE, 'maxAgeMs', options.maxAgeMs) ?? 60 * 60 * 1000;
    this.timeoutMs = positiveOption(STORE, 'timeoutMs', options.timeoutMs) ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.onError = options.onError ?? ((error) => console.warn(error.message));
    this.channel = `${this.keyPrefix}appended`;
  }

  async append(occurrence: MCPEventOccurrence): Promise<MCPStoredEvent> {
    const { name } = occurrence;
    const [epoch, n] = (await APPEND.run(
      this.client,
      this.keys(name),
      [
        randomUUID(),
        name,
        JSON.stringify(occurrence),
        String(this.maxEvents),
        String(this.maxAgeMs),
        this.channel,
        JSON.stringify([this.origin, name]),
      ],
      this.subject('append', this.streamKey(name)),
      this.timeoutMs,
    )) as [string, number];
    this.known.add(name);
    for (const listener of this.listeners) listener(name);
    return { position: `${epoch}:${n}`, occurrence };
  }

  async readAfter(
    after: string,
    filter: MCPEventStoreFilter,
    limit: number,
  ): Promise<MCPEventStoreReadResult> {
    const match = POSITION.exec(after);
    if (!match) throw new RangeError(`position '${after}' was not issued by this store`);
    const epoch = match[1] as string;
    const start = Number(match[2]);
    const size = Math.min(Math.max(limit + 1, MIN_PAGE), MAX_PAGE);
    let page = await this.page(filter.name, epoch, start, size);
    if (page.foreign) {
      const head = `${page.epoch}:${page.counter}`;
      return { events: [], from: head, position: head, truncated: true, hasMore: false };
    }
    if (start > page.counter) throw new RangeError(`position '${after}' was not issued by this store`);
    this.known.add(filter.name);
    const scan = new ReadScan(Math.max(start, page.dropped), filter, limit, (seq) => `${epoch}:${seq}`);
    while (scan.take(page.entries) && page.entries.length === size) {
      const { position } = scan;
      page = await this.page(filter.name, epoch, position, size);
      // Retention (or a wipe) overtook this read between pages: stop; the next read reports the gap.
      if (page.foreign || page.dropped > position) {
        scan.stop();
        break;
      }
    }
    return scan.result(start, page.counter);
  }

  async head(): Promise<string> {
    const [epoch, counter] = (await HEAD.run(
      this.client,
      this.keys(),
      [randomUUID()],
      this.subject('head', `${this.keyPrefix}counter`),
      this.timeoutMs,
    )) as [string, number];
    return `${epoch}:${counter}`;
  }

  /** Listeners hear this store's appends at once and other instances' through the channel. */
  watch(listener: (name: string) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.listen();
    return () => {
      if (this.listeners.delete(listener) && this.listeners.size === 0) this.stopListening();
    };
  }

  private async page(name: string, epoch: string, after: number, size: number): Promise<Page> {
    const reply = (await READ.run(
      this.client,
      this.keys(name),
      [randomUUID(), name, String(this.maxEvents), String(this.maxAgeMs), epoch, String(after), String(size)],
      this.subject('readAfter', this.streamKey(name)),
      this.timeoutMs,
    )) as unknown[];
    const counter = reply[1] as number;
    if (reply[0] !== epoch) return { foreign: true, epoch: reply[0] as string, counter };
    const entries: ScanEntry[] = [];
    for (let index = 3; index < reply.length; index += 2) {
      entries.push({
        seq: reply[index] as number,
        occurrence: JSON.parse(reply[index + 1] as string) as MCPEventOccurrence,
      });
    }
    return { foreign: false, counter, dropped: reply[2] as number, entries };
  }

  private readonly onMessage = (message: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
      this.onError(
        mcpError(
          MCPErrorCode.REDIS_MALFORMED_MESSAGE,
          `${STORE}: dropped a malformed message on '${this.channel}'`,
          {
            store: STORE,
            key: this.channel,
          },
        ),
      );
      return;
    }
    if (parsed[0] === this.origin) return;
    for (const listener of this.listeners) listener(parsed[1]);
  };

  private readonly onReady = () => {
    for (const name of this.known) for (const listener of this.listeners) listener(name);
  };

  /** node-redis queues the SUBSCRIBE until it is connected and repeats it after every reconnect. */
  private listen(): void {
    this.subscriber.on('ready', this.onReady);
    this.subscriber.subscribe(this.channel, this.onMessage).catch((cause: unknown) => {
      const reason = cause instanceof Error ? cause.message : String(cause);
      this.onError(
        mcpError(
          MCPErrorCode.REDIS_COMMAND_FAILED,
          `${STORE}: subscribe to '${this.channel}' failed (${reason}); push streams here hear of other instances' occurrences only at each heartbeat`,
          { store: STORE, operation: 'subscribe', key: this.channel },
          cause,
        ),
      );
    });
  }

  private stopListening(): void {
    this.subscriber.off('ready', this.onReady);
    withDeadline(
      () => this.subscriber.unsubscribe(this.channel, this.onMessage),
      this.subscriber,
      this.subject('unsubscribe', this.channel),
      this.timeoutMs,
    ).catch((error: Error) => this.onError(error));
  }

  private streamKey(name: string): string {
    return `${this.keyPrefix}stream:${name}`;
  }

  /** The scripts' KEYS: epoch, counter, the type's stream, dropped. */
  private keys(name?: string): string[] {
    const base = [`${this.keyPrefix}epoch`, `${this.keyPrefix}counter`];
    return name === undefined ? base : [...base, this.streamKey(name), `${this.keyPrefix}dropped`];
  }

  private subject(operation: string, key: string): RedisOperation {
    return { store: STORE, operation, key, keyPrefix: this.keyPrefix };
  }
}
