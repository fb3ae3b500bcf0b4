/**
 * `maxMessageBytes`: the largest message the client takes from one server. The transports' readers
 * (bounded-read-buffer.ts for stdio, bounded-fetch.ts for HTTP) keep a message only while it is
 * within the bound; one over it is read on without being kept, only its top-level `id` and
 * `method` noted (message-head.ts), and handed here. An answer becomes an error answer to its
 * request, which fails with a message naming the server, the request, the bound and the option;
 * anything else is dropped with a warning. The connection itself goes on.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { answeredRequest, cancelledRequest, isRequestMessage } from '../../shared/message-kind.js';
import { interceptIncoming } from './intercept.js';

/**
 * 16 MiB: four times what MCPServer accepts in a request body, room for a 12 MB file as base64 and
 * more text than any model's context holds, while a hostile server's message costs the client
 * tens of MiB at most (its text, then its parsed form).
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** The error code of the answer the client makes for itself (the implementation-defined range). */
export const MESSAGE_TOO_LARGE = -32000;
/** Requests remembered to name in an error: one never answered is forgotten, oldest first. */
const MAX_NAMED_REQUESTS = 1000;

/** What a message over the bound showed of itself. */
export interface MessageHeadline {
  id?: string | number | undefined;
  method?: string | undefined;
}

export function bytesText(bytes: number): string {
  if (bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** `tools/call 'name'`, `resources/read 'uri'`, or the method alone. */
export function requestName(message: { method: string; params?: unknown }): string {
  const { name, uri } = (message.params ?? {}) as { name?: unknown; uri?: unknown };
  const target = typeof name === 'string' ? name : typeof uri === 'string' ? uri : undefined;
  if (target === undefined) return message.method;
  return `${message.method} '${target.length > 100 ? `${target.slice(0, 100)}…` : target}'`;
}

/** The request a POST body carries, named as requestName() does (read only when its answer is refused). */
export function requestNameIn(body: unknown): string {
  try {
    const message = typeof body === 'string' ? (JSON.parse(body) as { method?: unknown }) : undefined;
    if (typeof message?.method === 'string') return requestName(message as { method: string });
  } catch {
    // Not a JSON-RPC request: an HTTP request of the transport's own (OAuth, say).
  }
  return 'an HTTP request';
}

export class MessageBound {
  private readonly requests = new Map<string | number, string>();

  constructor(
    readonly serverName: string,
    readonly limit: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** Notes the requests `transport` sends, so that an answer over the bound can name its request. */
  watch<T extends Transport>(transport: T): T {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.sent(message);
      return send(message, options);
    };
    return interceptIncoming(transport, (message) => {
      const answered = answeredRequest(message);
      if (answered !== undefined) this.requests.delete(answered);
      return message;
    });
  }

  private sent(message: JSONRPCMessage): void {
    if (isRequestMessage(message)) {
      this.requests.set(message.id, requestName(message));
      if (this.requests.size > MAX_NAMED_REQUESTS)
        this.requests.delete(this.requests.keys().next().value as string);
      return;
    }
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) this.requests.delete(cancelled);
  }

  /** The message of an error for `what` (`the answer to tools/call 'x'`) over the bound. */
  tooLarge(what: string): string {
    return `MCP server '${this.serverName}': ${what} is larger than ${bytesText(this.limit)} (maxMessageBytes), so the client dropped it; raise maxMessageBytes in this server's definition to accept it`;
  }

  /** What the client takes instead of a message over the bound: an error answer, or nothing. */
  refuse({ id, method }: MessageHeadline): JSONRPCMessage | undefined {
    if (id === undefined || method !== undefined) {
      this.warn(this.tooLarge(`a ${method ?? 'message'}`));
      return undefined;
    }
    const request = this.requests.get(id) ?? `request ${JSON.stringify(id)}`;
    this.requests.delete(id);
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: MESSAGE_TOO_LARGE,
        message: this.tooLarge(`the answer to ${request}`),
        data: { maxMessageBytes: this.limit },
      },
    };
  }
}
