/**
 * The stream guard (stream-guard.ts) of a web `Response` body: what `server.fetch()` hands Bun,
 * Deno, Workers or a Hono app, which read it at their client's pace. No Node response measures a
 * backlog there, and the SDK's producers enqueue whatever the demand, so an SSE body is read at
 * once into this guard's own queue, counted in bytes, and the runtime takes from that queue one
 * chunk per pull: each pull is the reader taking a write. Over `limits.maxStreamBufferBytes`
 * waiting, or `limits.streamWriteTimeoutMs` with nothing taken, the body errors (the runtime ends
 * the response), what waits is dropped and the SDK's stream is cancelled. A finite (JSON) body is
 * passed on as it is, and the guard ends with it.
 */
import { StreamGuard, type StreamGuardOptions } from './stream-guard.js';

interface Waiting {
  chunk: Uint8Array;
  /** Tells the guard the reader took it. */
  taken: () => void;
}

export function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.includes('text/event-stream') ?? false;
}

export class WebStreamGuard extends StreamGuard {
  private readonly queued: Waiting[] = [];
  private waitingBytes = 0;
  /** Bytes sent toward the body that the SDK's stream has not handed over yet (`queue`). */
  private upstream = 0;
  private sourceDone = false;
  private wake: (() => void) | undefined;
  private source: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;

  constructor(options: Omit<StreamGuardOptions, 'close'>) {
    super({ ...options, close: () => this.drop(new Error(`${options.name()} closed`)) });
  }

  /**
   * Counts `bytes` sent toward the body ahead of the SDK's stream, so they are bounded from the
   * send (a legacy session's GET stream, session-stream.ts): over the bound, the stream is closed.
   */
  queue(bytes: number): void {
    if (!this.admit(this.backlog())) return;
    this.upstream += bytes;
  }

  /** `response` with its SSE body read through this guard; any other response as it is, the guard ended. */
  bound(response: Response): Response {
    if (!response.body || !isEventStream(response)) {
      this.end();
      return response;
    }
    this.source = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          void this.pump();
        },
        pull: (controller) => this.take(controller),
        cancel: () => this.drop(),
      },
      // No queue of the stream's own: a chunk moves only when the reader asks for one.
      { highWaterMark: 0 },
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  private backlog(): number {
    return this.waitingBytes + this.upstream;
  }

  /** Reads the SDK's stream as fast as it produces, into the measured queue. */
  private async pump(): Promise<void> {
    const source = this.source;
    try {
      for (;;) {
        const step = await source?.read();
        if (!step || step.done || this.closed) break;
        this.upstream = Math.max(0, this.upstream - step.value.byteLength);
        if (!this.admit(this.backlog())) break;
        this.queued.push({ chunk: step.value, taken: this.started() });
        this.waitingBytes += step.value.byteLength;
        this.wake?.();
      }
    } catch {
      // Cancelled: the body was dropped.
    }
    this.sourceDone = true;
    this.wake?.();
  }

  /** The reader asks for a chunk: the next one waiting, or the end once the SDK's stream ended. */
  private async take(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (this.queued.length === 0) {
      if (this.closed) return;
      if (this.sourceDone) {
        this.end();
        controller.close();
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
    const next = this.queued.shift() as Waiting;
    this.waitingBytes -= next.chunk.byteLength;
    next.taken();
    controller.enqueue(next.chunk);
  }

  /** Ends the body: what waits is freed, the SDK's stream cancelled; `error` fails the reader (a trip). */
  private drop(error?: Error): void {
    this.end();
    this.queued.length = 0;
    this.waitingBytes = 0;
    void this.source?.cancel().catch(() => {});
    if (error) {
      try {
        this.controller?.error(error);
      } catch {
        // Already closed.
      }
    }
    this.wake?.();
  }
}
