/**
 * The hot path between Node's `req`/`res` and the SDK's web-standard 2026-07-28 handler. The body
 * is parsed once (node-http.ts) and handed over as `parsedBody`, so the `Request` carries only the
 * method, URL, headers and an abort signal tied to the client connection; JSON answers are written
 * in one piece and only SSE answers are streamed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A body-less `Request` for `req`, aborted when the client goes away before the answer is done. */
export function bodylessRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const host = req.headers.host ?? '127.0.0.1';
  return new Request(new URL(req.url ?? '/', `http://${host}`), {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
  });
}

/** Writes a web `Response` to `res`: buffered when it is finite, streamed when it is SSE. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
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
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } catch {
    // The client went away mid-stream: the reader was cancelled.
  } finally {
    res.off('close', stop);
    res.end();
  }
}
