/**
 * The heart of every store's `readAfter`, so all stores answer alike: it walks one type's entries
 * in position order and decides which are returned, where the read really started (occurrences
 * skipped by `notBefore` count as truncation) and where it stopped. A store feeds it the entries
 * after max(after, newest dropped), all at once (in memory) or page by page (Redis).
 */
import type {
  MCPEventOccurrence,
  MCPEventStoreFilter,
  MCPEventStoreReadResult,
  MCPStoredEvent,
} from './contracts.js';

export interface ScanEntry {
  seq: number;
  occurrence: MCPEventOccurrence;
}

export class ReadScan {
  private readonly events: MCPStoredEvent[] = [];
  /** The last entry examined (or `from` before any). */
  position: number;
  private hasMore = false;

  constructor(
    private from: number,
    private readonly filter: MCPEventStoreFilter,
    private readonly limit: number,
    private readonly format: (seq: number) => string,
  ) {
    this.position = from;
  }

  /** Examines `entries` from index `start`; false once the limit is reached with more to return. */
  take(entries: readonly ScanEntry[], start = 0): boolean {
    const { filter, limit, events } = this;
    for (let index = start; index < entries.length; index += 1) {
      const entry = entries[index] as ScanEntry;
      if (filter.notBefore !== undefined && Date.parse(entry.occurrence.timestamp) < filter.notBefore) {
        if (events.length === 0) this.from = entry.seq;
        this.position = entry.seq;
        continue;
      }
      if (filter.match && !filter.match(entry.occurrence)) {
        this.position = entry.seq;
        continue;
      }
      if (events.length >= limit) {
        this.stop();
        return false;
      }
      events.push({ position: this.format(entry.seq), occurrence: entry.occurrence });
      this.position = entry.seq;
    }
    return true;
  }

  /** Ends the read at the last entry examined, with `hasMore`: the next read continues there. */
  stop(): void {
    this.hasMore = true;
  }

  /** The answer for a read after `start`; `head` is where a read that examined everything ends. */
  result(start: number, head: number): MCPEventStoreReadResult {
    return {
      events: this.events,
      from: this.format(this.from),
      position: this.format(this.hasMore ? this.position : head),
      truncated: this.from > start,
      hasMore: this.hasMore,
    };
  }
}
