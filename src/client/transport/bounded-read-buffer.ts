/**
 * What the stdio transport reads a server's output with, in place of the SDK's ReadBuffer (same
 * methods: append, readMessage, clear). The SDK's buffer concatenates every chunk onto the line so
 * far (quadratic copying) and, past its 10 MiB, throws, which closes the connection under every
 * request in flight with "Connection closed". This one keeps a line's chunks only while the line
 * is within `maxMessageBytes`; a longer line is read on to its end without being kept and handed
 * to the bound (message-bound.ts), which makes it an error answer to its request.
 */
import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import type { MessageBound } from './message-bound.js';
import { HeldMessage, MessageHead } from './message-head.js';

const NEWLINE = 0x0a;

export class BoundedReadBuffer {
  private readonly line: HeldMessage;
  /** Complete lines and the client's own answers, in arrival order. */
  private readonly ready: Array<Buffer | JSONRPCMessage> = [];

  constructor(private readonly bound: MessageBound) {
    this.line = new HeldMessage(bound.limit);
  }

  append(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      // The usual case, a whole line within one chunk and the bound, is kept as a view of the chunk
      // (each read is a buffer of its own): nothing held, nothing copied.
      if (this.line.empty && end - start <= this.bound.limit) {
        if (end > start) this.ready.push(chunk.subarray(start, end));
      } else {
        this.line.add(chunk.subarray(start, end));
        this.endLine();
      }
      start = end + 1;
    }
    if (start < chunk.length) this.line.add(chunk.subarray(start));
  }

  private endLine(): void {
    const line = this.line.end();
    if (line instanceof MessageHead) {
      const answer = this.bound.refuse(line);
      if (answer) this.ready.push(answer);
    } else if (line.length > 0) {
      this.ready.push(Buffer.concat(line));
    }
  }

  /** The next message, skipping lines that are not JSON, as the SDK's buffer does. */
  readMessage(): JSONRPCMessage | null {
    for (let next = this.ready.shift(); next !== undefined; next = this.ready.shift()) {
      if (!Buffer.isBuffer(next)) return next;
      try {
        return deserializeMessage(next.toString('utf8').replace(/\r$/, ''));
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    return null;
  }

  clear(): void {
    this.line.clear();
    this.ready.length = 0;
  }
}
