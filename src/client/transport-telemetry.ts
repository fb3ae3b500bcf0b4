/**
 * The few messages the SDK Client writes to its transport itself instead of through its send
 * funnels (shared/telemetry/sdk-hooks.ts): the `server/discover` probe of a connect, the
 * `subscriptions/listen` request, and the `notifications/cancelled` an aborted request sends when
 * its transport has no per-request stream to abort. The tap gives the probe a CLIENT span until its
 * answer, a cancellation its notification span, and the listen request the `_meta` of the span
 * TelemetryClient.listen() opened. Everything else passes through untouched.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { MCPAttributes } from '../shared/telemetry/attributes.js';
import type { SendState } from '../shared/telemetry/sdk-hooks.js';
import type { Telemetry } from '../shared/telemetry/telemetry.js';
import { interceptIncoming } from './transport/intercept.js';

const LISTEN = 'subscriptions/listen';
const CANCELLED = 'notifications/cancelled';

type Send = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;

interface Answer {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export class TransportTap {
  /** Raw requests awaiting their answer (only probes: a connect sends a handful at most). */
  private readonly answers = new Map<string | number, Answer>();
  /** The `_meta` TelemetryClient.listen() gives the listen request it is writing. */
  listenMeta: Record<string, unknown> | undefined;
  /** The id of the last listen request written. */
  listenId: string | undefined;
  /**
   * The revision the SDK told the transport, which a 2025 handshake does before it sends
   * `notifications/initialized` and only then records as negotiated.
   */
  protocolVersion: string | undefined;

  constructor(
    private readonly telemetry: Telemetry,
    private readonly connection: () => MCPAttributes,
    private readonly funnels: SendState,
  ) {}

  /** Taps `transport`'s `send` and what reaches its `onmessage` (own properties of this instance). */
  attach(transport: Transport): void {
    if (!this.telemetry.enabled) return;
    const send: Send = transport.send.bind(transport);
    transport.send = (message, options) => this.send(message, options, send);
    // The SDK calls it where a transport has it: stdio's gets one that only records.
    const setVersion = transport.setProtocolVersion?.bind(transport);
    transport.setProtocolVersion = (version) => {
      this.protocolVersion = version;
      setVersion?.(version);
    };
    // Answers are observed after the screens installed before (the task-result guard's turned result).
    interceptIncoming(transport, (message) => {
      this.answered(message);
      return message;
    });
  }

  /** Ends the spans of raw requests still unanswered (the probes a connect gave up on) with `error`. */
  abandon(error: unknown): void {
    for (const answer of this.answers.values()) answer.reject(error);
    this.answers.clear();
  }

  private send(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    send: Send,
  ): Promise<void> {
    if (this.funnels.funnelling > 0 || !('method' in message)) return send(message, options);
    if ('id' in message) {
      if (message.method === LISTEN) return send(this.listening(message), options);
      return this.request(message, options, send);
    }
    if (message.method !== CANCELLED) return send(message, options);
    return this.telemetry.outbound(message, this.connection, (sent) => send(sent as JSONRPCMessage, options));
  }

  private listening(message: JSONRPCRequest): JSONRPCRequest {
    this.listenId = String(message.id);
    const meta = this.listenMeta;
    if (!meta) return message;
    return { ...message, params: { ...message.params, _meta: { ...message.params?._meta, ...meta } } };
  }

  /** A raw request in a CLIENT span that ends with its answer. */
  private request(
    message: JSONRPCRequest,
    options: TransportSendOptions | undefined,
    send: Send,
  ): Promise<void> {
    let written: Promise<void> = Promise.resolve();
    const answered = this.telemetry.outbound(
      message,
      this.connection,
      (sent) => {
        const answer = new Promise((resolve, reject) => this.answers.set(message.id, { resolve, reject }));
        written = send(sent as JSONRPCMessage, options);
        written.catch((error: unknown) => this.settle(message.id, (pending) => pending.reject(error)));
        return answer;
      },
      () => String(message.id),
    );
    answered.catch(() => {});
    return written;
  }

  private answered(message: JSONRPCMessage): void {
    const id = (message as { id?: string | number }).id;
    // Most answers are to the funnels' requests, which no raw request awaits: no schema check for those.
    if (id === undefined || !this.answers.has(id)) return;
    if (isJSONRPCResultResponse(message)) this.settle(id, (answer) => answer.resolve(message.result));
    else if (isJSONRPCErrorResponse(message)) this.settle(id, (answer) => answer.reject(message.error));
  }

  private settle(id: string | number, act: (answer: Answer) => void): void {
    const answer = this.answers.get(id);
    if (!answer) return;
    this.answers.delete(id);
    act(answer);
  }
}
