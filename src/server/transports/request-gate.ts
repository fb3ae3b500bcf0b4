/**
 * Runs at most `limits.maxConcurrentRequests` requests of one legacy connection at once. It sits
 * between a legacy transport (a Streamable HTTP session or sessionless request, an HTTP+SSE
 * connection) and its SDK `Server`, so a 100-request JSON-RPC batch and 100 pipelined SSE POSTs
 * are bounded alike: the rest wait in arrival order and run as slots free.
 *
 * A slot is held from delivery until the response goes out, or until the client cancels the
 * request (the SDK then aborts its handler and sends nothing). A queued request the client
 * cancels never runs; one whose HTTP request went away is answered with an error instead of
 * running (its transport still expects an answer); closing the connection drops the queue.
 */
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { asError } from '../../errors.js';
import { answeredRequest, cancelledRequest, isRequestMessage } from '../../shared/message-kind.js';

/** Told when the gate turns busy (a request admitted while none were) and idle again. */
export interface GateActivity {
  begin(): void;
  end(): void;
}

interface Queued {
  request: JSONRPCRequest;
  extra: MessageExtraInfo | undefined;
  /** Stops watching the request's HTTP request for an abort. */
  unwatch: () => void;
}

export class RequestGate implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  /** Running requests by id, counted: a client may reuse an id. */
  private readonly running = new Map<RequestId, number>();
  private runningCount = 0;
  private readonly queue: Queued[] = [];
  private closed = false;

  constructor(
    private readonly inner: Transport,
    private readonly limit: number,
    private readonly activity?: GateActivity,
    /** Sees each message on its way to the transport (a legacy session bounds its GET stream from the send). */
    private readonly outbound?: (message: JSONRPCMessage, options?: TransportSendOptions) => void,
  ) {
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.dropQueue();
      this.onclose?.();
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answered = answeredRequest(message);
    if (answered !== undefined) this.release(answered);
    this.outbound?.(message, options);
    await this.inner.send(message, options);
  }

  async close(): Promise<void> {
    this.dropQueue();
    await this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isRequestMessage(message)) {
      this.admit(message, extra);
      return;
    }
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined && !this.unqueue(cancelled)) this.release(cancelled);
    this.onmessage?.(message, extra);
  }

  private admit(request: JSONRPCRequest, extra: MessageExtraInfo | undefined): void {
    if (this.closed) return;
    if (this.runningCount === 0 && this.queue.length === 0) this.activity?.begin();
    if (this.runningCount < this.limit) {
      this.run(request, extra);
      return;
    }
    const signal = extra?.request?.signal;
    const onAbort = () => this.abandon(request.id);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.queue.push({ request, extra, unwatch: () => signal?.removeEventListener('abort', onAbort) });
    if (signal?.aborted) onAbort();
  }

  private run(request: JSONRPCRequest, extra: MessageExtraInfo | undefined): void {
    this.running.set(request.id, (this.running.get(request.id) ?? 0) + 1);
    this.runningCount++;
    this.onmessage?.(request, extra);
  }

  private release(id: RequestId): void {
    const count = this.running.get(id);
    if (count === undefined) return;
    if (count > 1) this.running.set(id, count - 1);
    else this.running.delete(id);
    this.runningCount--;
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.runningCount < this.limit) {
      const next = this.queue.shift();
      if (!next) break;
      next.unwatch();
      this.run(next.request, next.extra);
    }
    this.settle();
  }

  /** Removes a queued request; false when none with that id waits. */
  private unqueue(id: RequestId): boolean {
    const index = this.queue.findIndex((queued) => queued.request.id === id);
    if (index < 0) return false;
    this.queue.splice(index, 1)[0]?.unwatch();
    this.settle();
    return true;
  }

  /** A queued request whose HTTP request closed: answered, never run. */
  private abandon(id: RequestId): void {
    if (this.closed || !this.unqueue(id)) return;
    const error = {
      code: -32000,
      message: `Request ${JSON.stringify(id)} was not run: its HTTP request closed while it waited for one of limits.maxConcurrentRequests (${this.limit}) slots`,
    };
    this.inner.send({ jsonrpc: '2.0', id, error }).catch((reason: unknown) => {
      this.onerror?.(asError(reason));
    });
  }

  private dropQueue(): void {
    if (this.closed) return;
    this.closed = true;
    const busy = this.runningCount > 0 || this.queue.length > 0;
    for (const queued of this.queue.splice(0)) queued.unwatch();
    this.running.clear();
    this.runningCount = 0;
    if (busy) this.activity?.end();
  }

  private settle(): void {
    if (!this.closed && this.runningCount === 0 && this.queue.length === 0) this.activity?.end();
  }
}
