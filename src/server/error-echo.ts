/**
 * Every error a client receives is bounded, whoever built it: our handlers quote names clipped
 * (issues.ts), but the SDK's own refusals quote request values whole, some twice (a 2026-07-28
 * header/body mismatch puts the body's `params.name` in the message and again in
 * `data.mismatch`; an unsupported protocol version in the message and in `data.requested`), so a
 * 4 MiB request could draw an 8 MiB answer. Applied where errors leave: each SDK `Server` the
 * package builds (ErrorShapingServer), the HTTP refusals the SDK answers before any server runs,
 * and the stdio wire.
 *
 * The same values reach the server log (a refusal, a failed callback's reason): a log line is cut
 * at MAX_LOG_LINE characters, room for a stack trace, not for a 4 MiB body.
 *
 * The request's JSON-RPC `id` is the one value an answer must repeat; an error repeats it only
 * when it is at most MAX_ECHOED_ID characters, and otherwise answers with `id: null`, as JSON-RPC
 * does for an id it could not determine (a 1 MiB id drew a 1 MiB 403 and 400 in the fuzz).
 *
 * A message is cut at MAX_ERROR_MESSAGE characters. `data` is left alone up to MAX_ERROR_DATA
 * characters of JSON (a tool's deliberate error data, such as a URL elicitation, passes whole);
 * beyond it every string in it is cut at MAX_DATA_STRING, and what is nested deeper than
 * MAX_DATA_DEPTH or listed beyond MAX_DATA_ITEMS is dropped.
 */
import type { Transport } from '@modelcontextprotocol/server';
import { clip } from './issues.js';

export const MAX_ERROR_MESSAGE = 1000;
export const MAX_ERROR_DATA = 4096;
export const MAX_LOG_LINE = 8192;
export const MAX_ECHOED_ID = 256;
const MAX_DATA_STRING = 200;
const MAX_DATA_DEPTH = 8;
const MAX_DATA_ITEMS = 50;

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

function clipped(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return clip(value, MAX_DATA_STRING);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DATA_DEPTH) return undefined;
  if (Array.isArray(value)) return value.slice(0, MAX_DATA_ITEMS).map((item) => clipped(item, depth + 1));
  const entries = Object.entries(value).slice(0, MAX_DATA_ITEMS);
  return Object.fromEntries(
    entries.map(([key, item]) => [clip(key, MAX_DATA_STRING), clipped(item, depth + 1)]),
  );
}

/** `data` as it may be sent: unchanged when small, else its strings cut (see above). */
function boundedData(data: unknown): unknown {
  if (typeof data === 'string') return clip(data, MAX_ERROR_DATA);
  if (typeof data !== 'object' || data === null) return data;
  let size: number;
  try {
    size = JSON.stringify(data).length;
  } catch {
    return undefined;
  }
  return size <= MAX_ERROR_DATA ? data : clipped(data, 0);
}

/** `error` with its message and data bounded; the same object when nothing needed cutting. */
export function boundedError<E extends WireError>(error: E): E {
  const message = typeof error.message === 'string' ? clip(error.message, MAX_ERROR_MESSAGE) : error.message;
  const data = 'data' in error ? boundedData(error.data) : undefined;
  if (message === error.message && data === error.data) return error;
  const { data: _data, ...rest } = error;
  return { ...rest, message, ...(data !== undefined ? { data } : {}) } as E;
}

/** The id an error answer may repeat: a number, or a string of at most MAX_ECHOED_ID characters; else null. */
export function echoableId(id: unknown): string | number | null {
  if (typeof id === 'number') return id;
  return typeof id === 'string' && id.length <= MAX_ECHOED_ID ? id : null;
}

/** A JSON-RPC message as it may be sent: an error response bounded, anything else unchanged. */
export function boundedErrorResponse<M>(message: M): M {
  const { error, id } = (message ?? {}) as { error?: unknown; id?: unknown };
  if (typeof error !== 'object' || error === null) return message;
  const bounded = boundedError(error as WireError);
  const echoed = id === undefined ? id : echoableId(id);
  return bounded === error && echoed === id
    ? message
    : { ...message, error: bounded, ...(id === undefined ? {} : { id: echoed }) };
}

/** One line for the server log, bounded. */
export function boundedLogLine(line: string): string {
  return clip(line, MAX_LOG_LINE);
}

/** Makes `transport` bound every error response sent through it. */
export function boundErrorsSent<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(boundedErrorResponse(message), options);
  return transport;
}
