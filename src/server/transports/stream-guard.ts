/**
 * Bounded streaming writes. A reader that stops reading must neither make the server hold
 * everything sent to it nor hold up whoever sends: its stream is closed, what it queued dropped,
 * and the closure logged naming the stream, once more than `limits.maxStreamBufferBytes` already
 * waits for it and another message comes, or once data has waited `limits.streamWriteTimeoutMs`
 * with none of it taken. One message larger than the byte bound still goes out on its own, so
 * that bound limits a backlog, never the size of one answer. From the moment a stream is closed,
 * what is sent to it is dropped at once, never queued.
 *
 * Bytes wait in one of three places, and each is measured where it is:
 * - a Node response (`guardResponse`): the SDK's legacy SSE transport writes to it directly, and
 *   the web streams piped into it (2026-07-28 SSE answers, legacy Streamable HTTP) are fed by
 *   producers that enqueue whatever the demand. Waiting for `drain` there would only move the
 *   queue into a web stream, where nothing can measure it; so writes always go on into the
 *   response, whose `writableLength` is the backlog, and the bound is the backpressure. A write's
 *   callback says the reader took it.
 * - a writer that awaits each write (`StreamGuard.write`, Hono's `streamSSE`): the producer waits,
 *   and the backlog is the bytes whose write has not completed yet.
 * - a web stream that a producer fills at once and a pipe empties into the response only later
 *   (a legacy session's GET stream): what was sent toward the response and not yet written to it
 *   (`ResponseGuard.queue`), so a burst of sends is bounded as it is sent, not after.
 */
import type { ServerResponse } from 'node:http';

export interface StreamGuardOptions {
  /** `limits.maxStreamBufferBytes`. */
  limit: number;
  /** `limits.streamWriteTimeoutMs`. */
  timeoutMs: number;
  /** Names the stream in the log line, e.g. "legacy SSE session 'abc'". */
  name: () => string;
  /** Where the closure is reported (the server's error log). */
  onerror: (error: Error) => void;
  /** Closes the stream and frees what it holds. */
  close: () => void;
}

export class StreamGuard {
  private pending = 0;
  /** Writes handed on and not taken yet, and when the reader last took one (or the first began to wait). */
  private waiting = 0;
  private lastTaken = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly closers: Array<() => void> = [];
  private readonly enders: Array<() => void> = [];
  private done = false;

  constructor(private readonly options: StreamGuardOptions) {}

  /** Closed by this guard or ended: what is sent to the stream is dropped. */
  get closed(): boolean {
    return this.done;
  }

  /** Also runs `close`, synchronously, when this guard closes the stream (to free what feeds it). */
  onClose(close: () => void): void {
    this.closers.push(close);
  }

  /** Whether one more message may be queued behind `backlog` bytes; closes the stream when not. */
  admit(backlog: number): boolean {
    if (this.done) return false;
    if (backlog <= this.options.limit) return true;
    this.trip(
      `its reader left more than ${this.options.limit} bytes unread (raise limits.maxStreamBufferBytes for slower readers)`,
    );
    return false;
  }

  /** A write now waits for the reader; call the result once the reader took it. */
  started(): () => void {
    if (this.waiting++ === 0) this.lastTaken = performance.now();
    this.timer ??= this.arm(this.options.timeoutMs);
    return () => {
      this.waiting--;
      this.lastTaken = performance.now();
    };
  }

  /** One awaited write of `bytes`: refused (throws) once the stream is closed or over the bound. */
  async write(bytes: number, write: () => Promise<void>): Promise<void> {
    if (!this.admit(this.pending)) throw new Error(`${this.options.name()} is closed`);
    this.pending += bytes;
    const taken = this.started();
    try {
      await write();
    } finally {
      this.pending -= bytes;
      taken();
    }
  }

  /** Runs `ended` once the stream has ended, however it ended (at once if it has). */
  onEnd(ended: () => void): void {
    if (this.done) ended();
    else this.enders.push(ended);
  }

  /** The stream ended: the clock stops, and whatever is still sent is dropped. */
  end(): void {
    if (this.done) return;
    this.stop();
    for (const ended of this.enders.splice(0)) ended();
  }

  private stop(): void {
    this.done = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  // One timer per stream, moved on only when it fires: a write costs no timer of its own.
  private arm(ms: number): NodeJS.Timeout {
    return setTimeout(() => this.check(), Math.max(1, ms)).unref();
  }

  private check(): void {
    this.timer = undefined;
    if (this.done || this.waiting === 0) return;
    const idle = performance.now() - this.lastTaken;
    if (idle < this.options.timeoutMs) {
      this.timer = this.arm(this.options.timeoutMs - idle);
      return;
    }
    this.trip(
      `its reader took nothing for ${this.options.timeoutMs} ms (raise limits.streamWriteTimeoutMs for slower readers)`,
    );
  }

  private trip(reason: string): void {
    this.stop();
    this.options.onerror(new Error(`${this.options.name()} closed: ${reason}`));
    this.options.close();
    for (const close of this.closers) close();
    // Closers first: they may look at what the stream still was.
    for (const ended of this.enders.splice(0)) ended();
  }
}

/** A guard that also counts bytes sent toward its stream ahead of what writes them (ResponseGuard, WebStreamGuard). */
export type QueueingGuard = StreamGuard & { queue(bytes: number): void };

type WriteCallback = (error?: Error | null) => void;

/**
 * Bounds what `res` holds for a reader that does not read: each write first checks the backlog;
 * over the bound, or when nothing was taken for the time bound, the response is destroyed (which
 * frees its buffers and ends whatever feeds it). Writes report no backpressure, so pipes keep the
 * queue here, where it is measured (see above); once closed they still report none, so a pipe
 * drains its source into nothing until it is cancelled instead of holding it.
 */
export class ResponseGuard extends StreamGuard {
  /** Bytes sent toward the response that a pipe has not written to it yet (`queue`). */
  private upstream = 0;

  constructor(
    private readonly res: ServerResponse,
    options: Omit<StreamGuardOptions, 'close'>,
  ) {
    super({ ...options, close: () => res.destroy() });
    res.once('close', () => this.end());
    const write = res.write.bind(res) as (
      chunk: unknown,
      encoding?: unknown,
      done?: WriteCallback,
    ) => boolean;
    res.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      const done = (typeof encoding === 'function' ? encoding : callback) as WriteCallback | undefined;
      this.upstream = Math.max(0, this.upstream - chunk.length);
      if (res.destroyed || !this.admit(this.backlog())) {
        if (done) process.nextTick(done, new Error(`${options.name()} is closed`));
        return true;
      }
      const taken = this.started();
      write(chunk, typeof encoding === 'function' ? undefined : encoding, (error) => {
        taken();
        done?.(error);
      });
      return true;
    }) as ServerResponse['write'];
  }

  /**
   * Counts `bytes` sent toward the response ahead of the pipe that will write them, so they are
   * bounded from the send: over the bound, the stream is closed then and there.
   */
  queue(bytes: number): void {
    if (this.res.writableEnded || this.res.destroyed || !this.admit(this.backlog())) return;
    this.upstream += bytes;
  }

  private backlog(): number {
    return this.res.writableLength + this.upstream;
  }
}

/** Guards `res` (see ResponseGuard); the guard also serves to count what is queued toward it. */
export function guardResponse(
  res: ServerResponse,
  options: Omit<StreamGuardOptions, 'close'>,
): ResponseGuard {
  return new ResponseGuard(res, options);
}
