/**
 * Reading a JSON request body within bounds, and JSON-RPC error replies, for every HTTP entry
 * point (Node `req`/`res` and Hono's web `Request`). A body is refused before it is held: a
 * non-JSON `Content-Type` gets 415, more than `limits.maxBodyBytes` 413, a body that has not
 * arrived within `limits.bodyTimeoutMs` 408. What a refused client still sends is discarded, never
 * held, and its connection is closed. Parse errors say what and where, never quoting the body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { asError } from '../../errors.js';
import { echoableId } from '../error-echo.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from '../limits.js';

export type BodyLimits = Pick<ResolvedLimits, 'maxBodyBytes' | 'maxJsonDepth' | 'bodyTimeoutMs'>;

/** A refused request body: the HTTP status, the JSON-RPC error code and message. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
  /** The id of the request refused, when its body was read and named one. */
  id?: RequestId;
}

export type BodyOutcome = { ok: true; body: unknown } | ({ ok: false } & Refusal);

type RequestId = string | number | null;

/**
 * The id a refusal of a parsed body repeats: the one JSON-RPC request's own, bounded
 * (error-echo.ts); null for anything else (a batch, junk, an id too long to repeat).
 */
export function requestIdOf(body: unknown): RequestId {
  return echoableId(
    body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : null,
  );
}

export function jsonRpcErrorText(
  code: number,
  message: string,
  id: RequestId = null,
  data?: unknown,
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    error: { code, message, ...(data !== undefined ? { data } : {}) },
    id,
  });
}

export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: RequestId = null,
  data?: unknown,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(jsonRpcErrorText(code, message, id, data));
}

/** What the JSON parser found wrong, without the quoted input V8 puts in some messages. */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const token = /^Unexpected token '(.)', .* is not valid JSON$/s.exec(message);
  if (token) return `unexpected token '${token[1]}'`;
  return /^[^"']*$/.test(message) ? message : 'malformed JSON';
}

/** 415 for a non-JSON `Content-Type`, 413 for a declared length over the limit; else undefined. */
function refusalBeforeReading(
  contentType: string | null | undefined,
  contentLength: string | null | undefined,
  limits: BodyLimits,
): Refusal | undefined {
  if (!isJsonContentType(contentType ?? null)) {
    return {
      status: 415,
      code: -32000,
      message: 'Unsupported Media Type: Content-Type must be application/json',
    };
  }
  return Number(contentLength) > limits.maxBodyBytes ? tooLarge(limits) : undefined;
}

const tooLarge = (limits: BodyLimits): Refusal => ({
  status: 413,
  code: -32000,
  message: `Payload Too Large: the request body exceeds ${limits.maxBodyBytes} bytes (limits.maxBodyBytes)`,
});

const tooSlow = (limits: BodyLimits): Refusal => ({
  status: 408,
  code: -32000,
  message: `Request Timeout: the request body did not arrive within ${limits.bodyTimeoutMs} ms (limits.bodyTimeoutMs)`,
});

/** The client went away while sending: the answer goes nowhere, but every path answers. */
const unreadable: Refusal = {
  status: 400,
  code: -32700,
  message: 'Parse error: the request body could not be read',
};

/** Whether `value` nests arrays and objects deeper than `max` (an explicit stack: no recursion). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth === max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The body as the handlers may see it: within `limits.maxJsonDepth`, else refused with 400. */
function admitted(body: unknown, limits: BodyLimits): BodyOutcome {
  if (!nestsDeeperThan(body, limits.maxJsonDepth)) return { ok: true, body };
  return {
    ok: false,
    status: 400,
    code: -32600,
    message: `Invalid Request: the body nests arrays and objects more than ${limits.maxJsonDepth} levels deep (limits.maxJsonDepth)`,
  };
}

function parsed(chunks: Uint8Array[], limits: BodyLimits): BodyOutcome {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return {
      ok: false,
      status: 400,
      code: -32700,
      message: `Parse error: the request body is not valid JSON (${parseProblem(error)})`,
    };
  }
  return admitted(body, limits);
}

/** Reads and drops what a client still sends, until its body ends or `ms` pass; then lets it go. */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<void> {
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), ms);
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client went away: nothing left to drop.
  } finally {
    clearTimeout(timer);
  }
}

export type WebBodyOutcome = { ok: true; body: unknown } | { ok: false; response: Response };

/**
 * Reads the JSON body of a web `Request` (Hono) within `limits`; a refusal comes as the
 * `Response` to return. After a 413 or 415 the client may still be sending: the rest is dropped,
 * and the reply's body (its length declared, so the client has it at once) ends only when the
 * request body ended or `limits.bodyTimeoutMs` passed, because a runtime closing a connection with
 * unread data resets it and the client would lose the reply. A 408 closes the connection.
 */
export async function readWebJsonBody(request: Request, limits: BodyLimits): Promise<WebBodyOutcome> {
  const reader = request.body?.getReader();
  let refusal = refusalBeforeReading(
    request.headers.get('content-type'),
    request.headers.get('content-length'),
    limits,
  );
  const chunks: Uint8Array[] = [];
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limits.bodyTimeoutMs);
  });
  let size = 0;
  try {
    while (reader && !refusal) {
      const step = await Promise.race([reader.read(), deadline]);
      if (step === 'timeout') refusal = tooSlow(limits);
      else if (step.done) break;
      else {
        size += step.value.byteLength;
        if (size > limits.maxBodyBytes) refusal = tooLarge(limits);
        else chunks.push(step.value);
      }
    }
  } catch {
    refusal = unreadable;
  } finally {
    clearTimeout(timer);
  }
  const outcome = refusal ? { ok: false as const, ...refusal } : parsed(chunks, limits);
  if (outcome.ok) return outcome;
  const text = new TextEncoder().encode(jsonRpcErrorText(outcome.code, outcome.message));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(text.byteLength),
  };
  if (outcome.status === 408) headers.connection = 'close';
  // Read to its end (a parse error), stalled (408) or never opened: nothing left to drop.
  const unread = reader && refusal && outcome.status !== 408 ? reader : undefined;
  const body = unread
    ? new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(text);
          await discardRest(unread, limits.bodyTimeoutMs);
          controller.close();
        },
      })
    : text;
  return { ok: false, response: new Response(body, { status: outcome.status, headers }) };
}

/** A JSON-RPC error as a web `Response`. */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  id: RequestId = null,
  data?: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(jsonRpcErrorText(code, message, id, data), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The body of a Node request, up to the limit and the deadline; what comes after a refusal is discarded. */
function collectNodeBody(req: IncomingMessage, limits: BodyLimits): Promise<Uint8Array[] | Refusal> {
  // Read already (by middleware that kept no `req.body`): no 'end' will come.
  if (req.readableEnded) return Promise.resolve([]);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: Uint8Array[] | Refusal) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBodyBytes) settle(tooLarge(limits));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(chunks);
    const onGone = () => settle(unreadable);
    const timer = setTimeout(() => settle(tooSlow(limits)), limits.bodyTimeoutMs);
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}

/**
 * Answers a refused Node request. A body not read to its end closes the connection
 * (`Connection: close`). After a 413 or 415 the client may still be sending: the rest is discarded
 * and the reply ended when the body ends or `limits.bodyTimeoutMs` passes, because closing a
 * socket with unread data resets it and the client would lose the reply. A 408 ends at once: its
 * client has stopped sending (as has one that went away).
 */
export function refuseNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Refusal,
  limits: BodyLimits,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = jsonRpcErrorText(refusal.code, refusal.message, refusal.id);
  res.writeHead(refusal.status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...(req.complete ? {} : { connection: 'close' }),
  });
  if (req.complete || req.destroyed || refusal.status === 408) {
    res.end(text);
    return;
  }
  res.write(text);
  const finish = () => {
    clearTimeout(timer);
    res.end();
  };
  const timer = setTimeout(() => {
    res.end();
    req.socket?.destroy();
  }, limits.bodyTimeoutMs);
  req.once('end', finish).once('close', finish).resume();
}

/**
 * Reads the JSON body of a Node request (or takes `req.body` from a body parser that ran first),
 * answering the refusal itself.
 */
export async function readJsonBody(
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  limits: BodyLimits = DEFAULT_LIMITS,
): Promise<BodyOutcome> {
  const outcome = await readNodeBody(req, limits);
  if (!outcome.ok) refuseNodeRequest(req, res, outcome, limits);
  return outcome;
}

/** Reads the JSON body of a Node request within `limits`, leaving any refusal to the caller. */
export async function readNodeBody(
  req: IncomingMessage & { body?: unknown },
  limits: BodyLimits,
): Promise<BodyOutcome> {
  if (req.body !== undefined) return admitted(req.body, limits);
  const early = refusalBeforeReading(req.headers['content-type'], req.headers['content-length'], limits);
  const result = early ?? (await collectNodeBody(req, limits));
  return Array.isArray(result) ? parsed(result, limits) : { ok: false, ...result };
}

/**
 * Runs the handling of one request so that its promise never rejects: a failure is reported and
 * answered 500. A user's `node:http` handler awaits the entry points, and a rejection there would
 * end their process.
 */
export async function answeringFailures(
  res: ServerResponse,
  onerror: (error: Error) => void,
  work: () => Promise<unknown>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    onerror(asError(error));
    sendJsonRpcError(res, 500, -32603, 'Internal error');
  }
}

/**
 * Why `body` is not one JSON-RPC message, or undefined when it is. The legacy SSE transports
 * take one message per POST; the reply never quotes the body.
 */
export function messageProblem(body: unknown): string | undefined {
  try {
    parseJSONRPCMessage(body);
    return undefined;
  } catch {
    const got = Array.isArray(body) ? 'a batch (array)' : body === null ? 'null' : typeof body;
    return `Invalid Request: the body must be one JSON-RPC request, notification or response object (got ${got === 'object' ? 'an object that is none of these' : got})`;
  }
}
