/**
 * Bounded streaming writes (`limits.maxStreamBufferBytes`). A reader that stops reading must not
 * make the server hold everything sent to it: when more than the bound is already waiting for a
 * stream's reader and another message comes, that stream is closed, what it queued is dropped,
 * and the closure is logged naming the stream. One message larger than the bound still goes out
 * on its own, so the bound limits a backlog, never the size of one answer.
 *
 * Bytes wait in one of two places, and each is measured where it is:
 * - a Node response (`guardResponse`): the SDK's legacy SSE transport writes to it directly, and
 *   the web streams piped into it (2026-07-28 SSE answers, legacy Streamable HTTP) are fed by
 *   producers that enqueue whatever the demand. Waiting for `drain` there would only move the
 *   queue into a web stream, where nothing can measure it; so writes always go on into the
 *   response, whose `writableLength` is the backlog, and the bound is the backpressure.
 * - a writer that awaits each write (`StreamGuard.write`, Hono's `streamSSE`): the producer waits,
 *   and the backlog is the bytes whose write has not completed yet.
 */
import type { ServerResponse } from 'node:http';

export interface StreamGuardOptions {
  /** `limits.maxStreamBufferBytes`. */
  limit: number;
  /** Names the stream in the log line, e.g. "legacy SSE session 'abc'". */
  name: () => string;
  /** Where the closure is reported (the server's error log). */
  onerror: (error: Error) => void;
  /** Closes the stream and frees what it holds. */
  close: () => void;
}

export class StreamGuard {
  private pending = 0;
  private overflowed = false;

  constructor(private readonly options: StreamGuardOptions) {}

  /** Whether one more message may be queued behind `backlog` bytes; closes the stream when not. */
  admit(backlog: number): boolean {
    if (this.overflowed) return false;
    if (backlog <= this.options.limit) return true;
    this.overflowed = true;
    this.options.onerror(
      new Error(
        `${this.options.name()} closed: its reader left more than ${this.options.limit} bytes unread ` +
          '(raise limits.maxStreamBufferBytes for slower readers)',
      ),
    );
    this.options.close();
    return false;
  }

  /** One awaited write of `bytes`: refused (throws) once the stream is over the bound. */
  async write(bytes: number, write: () => Promise<void>): Promise<void> {
    if (!this.admit(this.pending)) throw new Error(`${this.options.name()} is closed`);
    this.pending += bytes;
    try {
      await write();
    } finally {
      this.pending -= bytes;
    }
  }
}

/**
 * Bounds what `res` holds for a reader that does not read: each write first checks the backlog;
 * over the bound the response is destroyed (which frees its buffers and ends whatever feeds it)
 * and later writes are dropped. Writes report no backpressure, so pipes keep the queue here,
 * where it is measured (see above).
 */
export function guardResponse(res: ServerResponse, options: Omit<StreamGuardOptions, 'close'>): StreamGuard {
  const guard = new StreamGuard({ ...options, close: () => res.destroy() });
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    if (res.destroyed || !guard.admit(res.writableLength)) return false;
    write(...args);
    return true;
  }) as ServerResponse['write'];
  return guard;
}
