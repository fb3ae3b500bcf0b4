/**
 * Small Node `req`/`res` helpers shared by the HTTP transports: bounded body reading and
 * JSON-RPC error replies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Same bound as the SDK's HTTP handler: larger bodies are refused before parsing. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export type BodyOutcome = { ok: true; body: unknown } | { ok: false };

/**
 * Reads and parses a JSON body (or takes `req.body` from a body parser that ran first). Answers
 * 413 for an oversized body and 400 with a JSON-RPC parse error for malformed JSON.
 */
export async function readJsonBody(
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  limit = MAX_REQUEST_BODY_BYTES,
): Promise<BodyOutcome> {
  if (req.body !== undefined) return { ok: true, body: req.body };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    sendJsonRpcError(res, 413, -32600, `Request body exceeds ${limit} bytes`);
    req.resume();
    return { ok: false };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        sendJsonRpcError(res, 413, -32600, `Request body exceeds ${limit} bytes`);
        req.resume();
        return { ok: false };
      }
      chunks.push(chunk as Buffer);
    }
  } catch {
    // The client went away while sending: nothing left to answer.
    return { ok: false };
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (error) {
    sendJsonRpcError(
      res,
      400,
      -32700,
      `Parse error: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { ok: false };
  }
}
