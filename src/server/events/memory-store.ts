/**
 * The default occurrence store: one process, in memory. Positions are a global sequence number
 * (as a decimal string); each event type keeps its newest `maxEvents` occurrences for at most
 * `maxAgeMs`, pruned lazily on append and read, so the store owns no timers. The epoch is random
 * per instance: cursors from before a restart are recognised as foreign.
 */
import { randomUUID } from 'node:crypto';
import { MCPErrorCode } from '../../errors.js';
import { assertOptions, number, type OptionsOf, object } from '../../shared/options.js';
import type {
  MCPEventOccurrence,
  MCPEventStore,
  MCPEventStoreFilter,
  MCPEventStoreReadResult,
  MCPStoredEvent,
} from './contracts.js';
import { ReadScan } from './read-scan.js';
import type { InMemoryMCPEventStoreOptions } from './types.js';

const OPTIONS = object(
  { maxEvents: number, maxAgeMs: number } satisfies OptionsOf<InMemoryMCPEventStoreOptions>,
  'InMemoryMCPEventStore',
);

interface Entry {
  seq: number;
  storedAt: number;
  occurrence: MCPEventOccurrence;
}

interface TypeLog {
  entries: Entry[];
  /** The sequence number of the newest occurrence dropped by retention (0: none). */
  droppedThrough: number;
}

/**
 * MCPServer's default `MCPEventStore` (`events.store`): the occurrences of MCP Events, in this
 * process. `RedisMCPEventStore` (`mastra-mcp/redis`) is the one several instances share.
 */
export class InMemoryMCPEventStore implements MCPEventStore {
  readonly epoch = randomUUID();
  private seq = 0;
  private readonly logs = new Map<string, TypeLog>();
  private readonly listeners = new Set<(name: string) => void>();
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;

  constructor(options: InMemoryMCPEventStoreOptions = {}) {
    assertOptions(OPTIONS, options, {
      where: 'InMemoryMCPEventStore',
      label: 'the InMemoryMCPEventStore options',
      code: MCPErrorCode.SERVER_INVALID_EVENTS_OPTION,
    });
    this.maxEvents = Math.max(1, options.maxEvents ?? 1000);
    this.maxAgeMs = Math.max(0, options.maxAgeMs ?? 60 * 60 * 1000);
  }

  async append(occurrence: MCPEventOccurrence): Promise<MCPStoredEvent> {
    const log = this.log(occurrence.name);
    this.seq += 1;
    log.entries.push({ seq: this.seq, storedAt: Date.now(), occurrence });
    this.prune(log);
    const stored = { position: String(this.seq), occurrence };
    for (const listener of this.listeners) listener(occurrence.name);
    return stored;
  }

  async readAfter(
    after: string,
    filter: MCPEventStoreFilter,
    limit: number,
  ): Promise<MCPEventStoreReadResult> {
    const start = this.parse(after);
    const log = this.logs.get(filter.name);
    if (!log)
      return { events: [], from: after, position: String(this.seq), truncated: false, hasMore: false };
    this.prune(log);
    const from = Math.max(start, log.droppedThrough);
    const scan = new ReadScan(from, filter, limit, String);
    scan.take(log.entries, firstAfter(log.entries, from));
    return scan.result(start, this.seq);
  }

  async head(): Promise<string> {
    return String(this.seq);
  }

  watch(listener: (name: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private log(name: string): TypeLog {
    let log = this.logs.get(name);
    if (!log) {
      log = { entries: [], droppedThrough: 0 };
      this.logs.set(name, log);
    }
    return log;
  }

  private prune(log: TypeLog): void {
    const oldest = Date.now() - this.maxAgeMs;
    let drop = Math.max(0, log.entries.length - this.maxEvents);
    while (drop < log.entries.length && (log.entries[drop] as Entry).storedAt < oldest) drop += 1;
    if (drop === 0) return;
    log.droppedThrough = (log.entries[drop - 1] as Entry).seq;
    log.entries.splice(0, drop);
  }

  private parse(position: string): number {
    const value = /^\d{1,15}$/.test(position) ? Number(position) : Number.NaN;
    if (!Number.isSafeInteger(value) || value > this.seq) {
      throw new RangeError(`position '${position}' was not issued by this store`);
    }
    return value;
  }
}

/** Index of the first entry whose sequence number is greater than `seq` (entries are sorted). */
function firstAfter(entries: Entry[], seq: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle] as Entry).seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}
