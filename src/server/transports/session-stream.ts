/**
 * The standalone GET stream of a legacy Streamable HTTP session, bounded from the send. The SDK's
 * transport enqueues each message for that stream into a web stream at once, and the pipe from
 * there into the response runs only after: a burst of sends would sit in the web stream, unseen
 * by the response's guard, until the pipe got to it. So each message the session sends toward the
 * stream counts against `limits.maxStreamBufferBytes` as it is sent (stream-guard.ts); once the
 * guard closes the stream, the SDK's side of it is closed at once, so the SDK drops what is sent
 * after (it may still store it in an `eventStore` for a resuming client) instead of queueing it.
 */
import type { JSONRPCMessage, TransportSendOptions } from '@modelcontextprotocol/server';
import type { QueueingGuard } from './stream-guard.js';

export class SessionStream {
  private current: QueueingGuard | undefined;

  constructor(private readonly transport: { closeStandaloneSSEStream(): void }) {}

  /**
   * A GET request of the session, its answer bounded by `guard`: its stream until it ends. While
   * one is open the SDK refuses another (409), so a newcomer does not take its place.
   */
  open(guard: QueueingGuard): void {
    if (this.current && !this.current.closed) return;
    this.current = guard;
    guard.onClose(() => {
      if (this.current !== guard) return;
      this.current = undefined;
      this.transport.closeStandaloneSSEStream();
    });
    guard.onEnd(() => {
      if (this.current === guard) this.current = undefined;
    });
  }

  /** Counts one outgoing message when it goes to the GET stream: no related request, not a response. */
  sending(message: JSONRPCMessage, options?: TransportSendOptions): void {
    const guard = this.current;
    if (!guard || guard.closed || options?.relatedRequestId !== undefined || !('method' in message)) return;
    // The SDK's frame is this JSON plus a few bytes of SSE framing.
    guard.queue(JSON.stringify(message).length);
  }
}
