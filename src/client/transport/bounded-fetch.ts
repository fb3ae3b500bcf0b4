/**
 * The HTTP side of `maxMessageBytes` (message-bound.ts), in the fetch of both Streamable HTTP eras
 * and of the legacy SSE transport. An event stream (a request's answer stream, the listen stream,
 * the legacy GET stream) is passed on one event at a time, each held until its blank line ends
 * it, as the SDK's parser would hold it; an event over the bound is read on without being kept,
 * replaced by the error answer to the request it answered (or dropped, for a notification), and
 * the stream goes on. Any other body (a JSON answer, an error page) is cut at the bound: reading it
 * fails with an error naming the request, which the request then fails with.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { type MessageBound, requestNameIn } from './message-bound.js';
import { HeldMessage, MessageHead, NextOfTwo } from './message-head.js';

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

/** Splits an event stream into events (SSE line ends: CRLF, LF or CR) and bounds each. */
class EventBounds {
  private readonly event: HeldMessage;
  private atLineStart = true;
  private afterCR = false;

  constructor(private readonly bound: MessageBound) {
    this.event = new HeldMessage(bound.limit);
  }

  write(chunk: Uint8Array, emit: (bytes: Uint8Array) => void): void {
    const lineEnds = new NextOfTwo(chunk, LF, CR);
    let start = 0;
    let from = 0;
    for (let end = lineEnds.from(from); end >= 0; end = lineEnds.from(from)) {
      if (end > from) {
        this.atLineStart = false;
        this.afterCR = false;
      }
      from = end + 1;
      if (chunk[end] === LF && this.afterCR) {
        this.afterCR = false;
        continue;
      }
      this.afterCR = chunk[end] === CR;
      // A line end at the start of a line is the empty line that ends an event.
      if (this.atLineStart) {
        this.event.add(chunk.subarray(start, from));
        this.endEvent(emit);
        start = from;
      }
      this.atLineStart = true;
    }
    if (from < chunk.length) {
      this.atLineStart = false;
      this.afterCR = false;
    }
    if (start < chunk.length) this.event.add(chunk.subarray(start));
  }

  endEvent(emit: (bytes: Uint8Array) => void): void {
    const event = this.event.end();
    if (!(event instanceof MessageHead)) {
      for (const bytes of event) emit(bytes);
      return;
    }
    const answer = this.bound.refuse(event);
    if (answer) emit(encoder.encode(`event: message\ndata: ${JSON.stringify(answer)}\n\n`));
  }
}

function eventStream(bound: MessageBound): TransformStream<Uint8Array, Uint8Array> {
  const events = new EventBounds(bound);
  return new TransformStream({
    transform: (chunk, controller) => events.write(chunk, (bytes) => controller.enqueue(bytes)),
    flush: (controller) => events.endEvent((bytes) => controller.enqueue(bytes)),
  });
}

/** Passes a body through until `limit` bytes, then fails it with `tooLarge()`. */
function cutAt(limit: number, tooLarge: () => Error): TransformStream<Uint8Array, Uint8Array> {
  let length = 0;
  return new TransformStream({
    transform: (chunk, controller) => {
      length += chunk.length;
      if (length > limit) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
}

/** The response with `body` in place of its own; its URL and redirect flag kept (redirect checks read them). */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const bounded = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperties(bounded, {
    url: { value: response.url },
    redirected: { value: response.redirected },
  });
  return bounded;
}

export function boundedFetch(fetch: FetchLike, bound: MessageBound): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body || (response.status >= 300 && response.status < 400)) return response;
    const type = response.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
    if (response.ok && type === 'text/event-stream')
      return withBody(response, response.body.pipeThrough(eventStream(bound)));
    const tooLarge = () => new Error(bound.tooLarge(`the answer to ${requestNameIn(init?.body)}`));
    return withBody(response, response.body.pipeThrough(cutAt(bound.limit, tooLarge)));
  };
}
