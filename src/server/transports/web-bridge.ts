/**
 * The hot path between Node's `req`/`res` and the SDK's web-standard 2026-07-28 handler. The body
 * is parsed once (node-http.ts) and handed over as `parsedBody`, so the `Request` carries only the
 * method, URL, headers and an abort signal tied to the client connection; JSON answers are written
 * in one piece and only SSE answers are streamed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rememberPeer } from '../request-telemetry.js';
import type { RequestTarget } from './request-target.js';
import type { StreamGuard } from './stream-guard.js';

/**
 * A body-less `Request` for `req`, aborted when the client goes away before the answer is done.
 * It never throws: the URL and method come from `checkRequestTarget`, and a header a web
 * `Request` refuses (possible only with Node's lenient parser) is left out.
 */
export function bodylessRequest(target: RequestTarget, req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        headers.append(name, item);
      } catch {
        // Not a header fetch can carry: the SDK has no use for it.
      }
    }
  }
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const request = new Request(target.href, { method: target.method, headers, signal: controller.signal });
  rememberPeer(request, req);
  return request;
}

/**
 * Writes a web `Response` to `res`: buffered when it is finite, streamed when it is SSE. A stream
 * is written as fast as the SDK produces it, without waiting for `drain`: its producers enqueue
 * whatever the demand, so the backlog stays in `res`, where the caller's `guardResponse`
 * (stream-guard.ts) bounds it, rather than in the web stream, where nothing could. When that
 * `guard` closes the stream, the web stream is cancelled at once: what it queued is freed and its
 * producer stops, rather than after the response's `close` event.
 */
export async function sendWebResponse(
  response: Response,
  res: ServerResponse,
  guard?: StreamGuard,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) }).end(body);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  res.once('close', stop);
  guard?.onClose(stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      res.write(value);
    }
  } catch {
    // The client went away (or the stream guard closed the response): the reader was cancelled.
  } finally {
    res.off('close', stop);
    // Ended early (the client left, or the guard closed the response): drop what is still queued.
    stop();
    res.end();
  }
}
