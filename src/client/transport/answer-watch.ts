/**
 * Fails at once the requests of one HTTP transport that can no longer be answered, instead of
 * leaving them to the request timeout; ServerConnection.run then decides whether to send them
 * again (recovery.ts). Streamable HTTP (both eras): a request whose answer stream ended or broke
 * before its answer (the SDK reports it through `onRequestStreamEnd`, a hook its own requests do
 * not pass; a request that passes one, a listen or events stream, keeps it). Legacy HTTP+SSE:
 * every request in flight once the GET stream carrying the answers ended or broke; the transport
 * is then closed, so the connection reconnects rather than letting the stream reopen on a new
 * session that never saw `initialize`. Such a request gets an error answer made here, its data an
 * AnswerCut; a request whose send failed is remembered with its error (sentRequestOf). The
 * `tools/list` answers passing by note which tools declare themselves safe to repeat.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/server';
import { answeredRequest, cancelledRequest, isRequestMessage } from '../../shared/message-kind.js';
import { causeChain, findCause } from '../errors.js';
import { isSdkClientError } from '../sdk-load.js';
import { interceptIncoming, observeErrors } from './intercept.js';
import { requestName } from './message-bound.js';

/** A request as it was sent: its method, the tool a `tools/call` names, and how to name it. */
export interface SentRequest {
  method: string;
  tool?: string;
  label: string;
}

/** The data of the error answer made for a request whose answer was cut. */
export class AnswerCut {
  constructor(
    readonly request: SentRequest,
    readonly why: string,
  ) {}
}

/** The code of that error answer (the implementation-defined range). */
const ANSWER_CUT = -32000;
/** Requests remembered while unanswered: one never answered nor cancelled is forgotten, oldest first. */
const MAX_PENDING = 1000;

const failedSends = new WeakMap<object, SentRequest>();

export function answerCutOf(error: unknown): AnswerCut | undefined {
  const data = findCause(error, ProtocolError)?.data;
  return data instanceof AnswerCut ? data : undefined;
}

/** The request `error` failed: one whose answer was cut here, or one whose send failed. */
export function sentRequestOf(error: unknown): SentRequest | undefined {
  const cut = answerCutOf(error);
  if (cut) return cut.request;
  for (const candidate of causeChain(error)) {
    const request = typeof candidate === 'object' && candidate ? failedSends.get(candidate) : undefined;
    if (request) return request;
  }
  return undefined;
}

/** Tools whose annotations say a second call does no harm: `readOnlyHint` or `idempotentHint`. */
function noteRepeatableTools(result: unknown, repeatable: Set<string>): void {
  const tools = (result as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return;
  for (const tool of tools as Array<{ name?: unknown; annotations?: Record<string, unknown> } | null>) {
    if (typeof tool?.name !== 'string') continue;
    const { readOnlyHint, idempotentHint } = tool.annotations ?? {};
    if (readOnlyHint === true || idempotentHint === true) repeatable.add(tool.name);
    else repeatable.delete(tool.name);
  }
}

export interface AnswerWatchOptions {
  /** The legacy HTTP+SSE transport: answers come on its GET stream. */
  sse: boolean;
  /** Filled from `tools/list` answers (the connection's, across its transports). */
  repeatableTools: Set<string>;
}

export function watchAnswers<T extends Transport>(transport: T, options: AnswerWatchOptions): T {
  const pending = new Map<string | number, SentRequest>();
  const cut = (id: string | number, why: string) => {
    const request = pending.get(id);
    if (!request) return;
    pending.delete(id);
    transport.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: { code: ANSWER_CUT, message: `${request.label}: ${why}`, data: new AnswerCut(request, why) },
    });
  };

  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, sendOptions?: TransportSendOptions) => {
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) pending.delete(cancelled);
    // A request with a stream hook of its own (listen, events/stream) handles its stream's end.
    if (!isRequestMessage(message) || (!options.sse && sendOptions?.onRequestStreamEnd))
      return send(message, sendOptions);
    const { id } = message;
    const tool = message.method === 'tools/call' ? (message.params as { name?: unknown })?.name : undefined;
    const request = {
      method: message.method,
      label: requestName(message),
      ...(typeof tool === 'string' ? { tool } : {}),
    };
    pending.set(id, request);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value as string | number);
    sendOptions?.requestSignal?.addEventListener('abort', () => pending.delete(id), { once: true });
    const watched = options.sse
      ? sendOptions
      : { ...sendOptions, onRequestStreamEnd: () => cut(id, 'its answer stream ended before the answer') };
    return send(message, watched).catch((error: unknown) => {
      pending.delete(id);
      if (typeof error === 'object' && error) failedSends.set(error, request);
      throw error;
    });
  };

  interceptIncoming(transport, (message) => {
    const answered = answeredRequest(message);
    if (answered === undefined) return message;
    const request = pending.get(answered);
    pending.delete(answered);
    if (request?.method === 'tools/list' && 'result' in message)
      noteRepeatableTools(message.result, options.repeatableTools);
    return message;
  });

  if (options.sse) {
    let started = false;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      started = true;
    };
    // After start, an SseError is the GET stream ending or breaking (its EventSource would reopen it).
    observeErrors(transport, (error) => {
      if (!started || !isSdkClientError(error, 'SseError')) return;
      started = false;
      for (const id of [...pending.keys()]) cut(id, 'the SSE stream carrying the answers ended');
      void transport.close().catch(() => {});
    });
  }
  return transport;
}
