/**
 * OpenTelemetry for 2026-07-28 stdio `subscriptions/listen` requests, which the SDK's `serveStdio`
 * answers itself (no protocol instance's handler runs, so nothing else traces them): a screen on
 * the wire that gives each one a SERVER span, parented on its `_meta`, until its acknowledgement
 * goes out (or the error answering it), then measures the open stream as a server session until
 * the client cancels it, the SDK answers it, or the connection closes.
 */
import {
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { answeredRequest, cancelledRequest, isRequestMessage } from '../../shared/message-kind.js';
import type { MCPAttributes } from '../../shared/telemetry/attributes.js';
import type { Telemetry } from '../../shared/telemetry/telemetry.js';
import { acknowledgedListen, LISTEN_METHOD } from '../tasks/listen.js';
import { WireScreen } from './wire-screen.js';

interface Listening {
  /** Ends the span: acknowledged (no error) or refused. */
  settle?: (error?: unknown) => void;
  /** Ends the session measurement once acknowledged. */
  end?: () => void;
}

export class ListenTelemetryWire extends WireScreen {
  /** Listen requests received and not ended yet (each also holds a stream the SDK bounds). */
  private readonly listening = new Map<RequestId, Listening>();

  constructor(
    wire: Transport,
    private readonly telemetry: Telemetry,
  ) {
    super(wire);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent(message);
    return this.wire.send(message, options);
  }

  protected receive(
    message: JSONRPCMessage,
    extra: Parameters<NonNullable<Transport['onmessage']>>[1],
  ): void {
    this.received(message);
    this.onmessage?.(message, extra);
  }

  protected release(): void {
    for (const id of [...this.listening.keys()]) this.ended(id);
  }

  private received(message: JSONRPCMessage): void {
    if (isRequestMessage(message) && message.method === LISTEN_METHOD) {
      if (this.listening.has(message.id)) return;
      const version = message.params?._meta?.[PROTOCOL_VERSION_META_KEY];
      const connection = (): MCPAttributes => ({
        ...(typeof version === 'string' ? { 'mcp.protocol.version': version } : {}),
        'network.transport': 'pipe',
      });
      const listening: Listening = {};
      this.listening.set(message.id, listening);
      const opened = new Promise<void>((resolve, reject) => {
        listening.settle = (error) => (error === undefined ? resolve() : reject(error));
      });
      this.telemetry
        .inbound(message, connection, () => opened)
        .then(
          () => {
            const end = this.telemetry.session(connection);
            if (this.listening.has(message.id)) listening.end = end;
            else end?.();
          },
          () => {},
        );
      return;
    }
    if (this.listening.size === 0) return;
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) this.ended(cancelled);
  }

  private sent(message: JSONRPCMessage): void {
    const acknowledged = acknowledgedListen(message);
    if (acknowledged !== undefined) {
      const listening = this.listening.get(acknowledged);
      listening?.settle?.();
      if (listening) listening.settle = undefined;
      return;
    }
    if (this.listening.size === 0) return;
    const answered = answeredRequest(message);
    if (answered !== undefined) this.ended(answered, 'error' in message ? message.error : undefined);
  }

  /** The stream `id` ended: its span (refused when `error`, else it ended before any ack) and session. */
  private ended(id: RequestId, error?: unknown): void {
    const listening = this.listening.get(id);
    if (!listening) return;
    this.listening.delete(id);
    listening.settle?.(
      error ?? { code: 'CONNECTION_CLOSED', message: 'the stream ended before it was acknowledged' },
    );
    listening.end?.();
  }
}
