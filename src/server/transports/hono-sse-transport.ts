/**
 * The legacy HTTP+SSE transport over a Hono `streamSSE` stream: it writes the endpoint event and
 * messages, bounded by a StreamGuard, and receives the POSTed messages its endpoint (hono-sse.ts)
 * hands it. The package exports it as a type only (what `getSseHonoTransport()` returns): only
 * hono-sse.ts constructs one. Hono is only a type here.
 */
import { randomUUID } from 'node:crypto';
import {
  type AuthInfo,
  type JSONRPCMessage,
  type MessageExtraInfo,
  parseJSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import type { SSEStreamingApi } from 'hono/streaming';
import { DEFAULT_LIMITS } from '../limits.js';
import { StreamGuard } from './stream-guard.js';

export interface SSETransportOptions {
  /**
   * Bytes waiting for a reader that does not read before its stream is closed (the server's
   * `limits.maxStreamBufferBytes`). Default 1 MiB.
   */
  maxBufferBytes?: number;
  /**
   * How long a write may wait for a reader that takes nothing before its stream is closed (the
   * server's `limits.streamWriteTimeoutMs`). Default 10 s.
   */
  writeTimeoutMs?: number;
  /** Told when the stream is closed for its backlog or its stalled reader. */
  onerror?: (error: Error) => void;
  /** Also ends the connection under the stream (on Node, destroys the response). */
  destroy?: () => void;
}

export class SSETransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private closed = false;
  private readonly guard: StreamGuard;

  constructor(
    private readonly messagePath: string,
    private readonly stream: SSEStreamingApi,
    options: SSETransportOptions = {},
  ) {
    // Hono's writer waits for the reader: unread messages pile up as pending writes, and an
    // awaited send (a broadcast, close()) waits as long as the reader does. Bound both.
    this.guard = new StreamGuard({
      limit: options.maxBufferBytes ?? DEFAULT_LIMITS.maxStreamBufferBytes,
      timeoutMs: options.writeTimeoutMs ?? DEFAULT_LIMITS.streamWriteTimeoutMs,
      name: () => `Hono SSE session '${this.sessionId}'`,
      onerror: (error) => (options.onerror ?? this.onerror)?.(error),
      close: () => {
        // Aborting cancels the stream's reader, which fails (and so frees) every pending write.
        this.stream.abort();
        options.destroy?.();
        void this.close();
      },
    });
  }

  async start(): Promise<void> {
    const separator = this.messagePath.includes('?') ? '&' : '?';
    const data = `${this.messagePath}${separator}sessionId=${encodeURIComponent(this.sessionId)}`;
    await this.guard.write(data.length, () => this.stream.writeSSE({ event: 'endpoint', data }));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error(`SSE session '${this.sessionId}' is closed`);
    const data = JSON.stringify(message);
    await this.guard.write(data.length, () => this.stream.writeSSE({ event: 'message', data }));
  }

  /** Delivers one POSTed message; throws for a body that is not JSON-RPC. */
  handleMessage(body: unknown, authInfo?: AuthInfo): void {
    const message = parseJSONRPCMessage(body);
    this.onmessage?.(message, authInfo ? { authInfo } : undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Waits for pending writes: the guard aborts the stream if its reader takes nothing in time.
    await this.stream.close();
    this.guard.end();
    this.onclose?.();
  }
}
