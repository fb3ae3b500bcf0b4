/**
 * A screen between the stdio wire and the SDK's `serveStdio`, for what the SDK serves itself
 * (listen requests): it sees every message each way, and what it holds ends with the wire.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

type Extra = Parameters<NonNullable<Transport['onmessage']>>[1];

export abstract class WireScreen implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(protected readonly wire: Transport) {
    wire.onmessage = (message, extra) => this.receive(message, extra);
    wire.onclose = () => {
      this.release();
      this.onclose?.();
    };
    wire.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.wire.start();
  }

  async close(): Promise<void> {
    this.release();
    await this.wire.close();
  }

  abstract send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;

  /** A message from the peer; the screen passes it on to `onmessage` (or answers it itself). */
  protected abstract receive(message: JSONRPCMessage, extra: Extra): void;

  /** The wire is closing: end everything the screen holds. */
  protected abstract release(): void;
}
