/**
 * How the client words what went wrong (the ids and the constructor are src/errors.ts). Every error a user sees names the server (and tool, URI or prompt)
 * it concerns; `errorDetail()` keeps the HTTP status and transport code machine-readable, and
 * `describeCause()` turns the innermost fact of a cause chain (a refused connection, a DNS or TLS
 * failure, an HTTP status rather than the page it came with, a timeout and the option that set it,
 * a missing command) into words, instead of the SDK's `fetch failed`.
 */
import { STATUS_CODES } from 'node:http';
import { MastraError } from '@mastra/core/error';
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/server';
import { MCPErrorCode } from '../errors.js';
import { timedOut } from '../shared/request-timeout.js';
import { isSdkClientError } from './sdk-load.js';
import type { MCPErrorDetail } from './types.js';

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `error` and its causes, outermost first; bounded, since a cause chain may loop. */
export function* causeChain(error: unknown): Generator<unknown> {
  let current = error;
  for (let depth = 0; current && depth < 8; depth++) {
    yield current;
    // fetch over several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError.
    const first = current instanceof AggregateError ? current.errors[0] : undefined;
    current = (current as { cause?: unknown }).cause ?? first;
  }
}

/** The first error of class `type` in `error`'s cause chain, however the SDK wrapped it. */
export function findCause<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (const candidate of causeChain(error)) if (candidate instanceof type) return candidate;
  return undefined;
}

/** The legacy SSE transport's failed POST, a plain Error quoting the body: `… (HTTP 502): <html>…`. */
const SSE_POST_STATUS = /^Error POSTing to endpoint \(HTTP (\d{3})\)/;

/** The status one error of a cause chain carries: the SDK's HTTP errors, the legacy SSE stream's and POST's. */
function statusOf(candidate: unknown): number | undefined {
  if (candidate instanceof SdkHttpError) return candidate.status;
  if (isSdkClientError(candidate, 'SseError')) return isStatus(candidate.code) ? candidate.code : undefined;
  const posted = candidate instanceof Error ? SSE_POST_STATUS.exec(candidate.message) : null;
  return posted ? Number(posted[1]) : undefined;
}

/** The HTTP status behind `error`, if an HTTP response caused it (the legacy SSE transport's too). */
export function httpStatusOf(error: unknown): number | undefined {
  for (const candidate of causeChain(error)) {
    const status = statusOf(candidate);
    if (status !== undefined) return status;
  }
  return undefined;
}

const isStatus = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;

/** `http://host:port/path` of a server URL: credentials, query and fragment left out of messages. */
export function displayUrl(url: URL | string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Node's system error codes and what they mean to someone configuring a server. */
const SYSTEM_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address',
  ECONNRESET: 'the connection was reset by the server',
  EPIPE: 'the connection was closed by the server',
  ETIMEDOUT: 'the connection attempt timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection attempt timed out',
  UND_ERR_SOCKET: 'the connection was closed by the server',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'DNS lookup failed: the host name does not resolve',
  EAI_AGAIN: 'DNS lookup failed (temporary failure in name resolution)',
  ENOENT: 'the command was not found',
  EACCES: 'permission denied',
};

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_)/;

function tlsCause(code: string, message: string): string {
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG')
    return `TLS handshake failed: the server does not speak TLS on that port (an https URL for an http server?) (${code})`;
  // Certificate errors say what is wrong in a few words ("self-signed certificate"); OpenSSL's are a dump.
  const reason = code.startsWith('ERR_SSL_') ? 'the handshake was refused' : message.split('\n', 1)[0];
  return `TLS handshake failed: ${reason} (${code})`;
}

function httpCause(status: number): string {
  const text = `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
  return status === 401 || status === 403
    ? `${text}: missing or rejected credentials (an 'authProvider', or an Authorization header in 'requestInit')`
    : text;
}

/**
 * A request that may have reached the server and whose answer never came (its stream or
 * connection closed first), not sent again because it is not safe to repeat (transport/recovery.ts).
 */
export class AnswerCutError extends Error {
  constructor(serverName: string, request: string, why: string, cause: unknown) {
    super(
      `the connection to MCP server '${serverName}' closed mid-answer (${why}): ${request} may have reached the server, so it was not sent again; only requests safe to repeat are (listings, gets and reads, ping, tools annotated readOnlyHint or idempotentHint)`,
      { cause },
    );
  }
}

/** How long a server's requests may take and the option that says so, for a timeout's message. */
export interface TimeoutSetting {
  ms: number;
  /** The option and what to do: `the 'timeout' of server 'x': raise it if …`. */
  option: string;
}

/**
 * What went wrong at the bottom of `error`, in words, or undefined when nothing there is known
 * (the caller then shows the message it has). `timeout` names the option a timeout ran into.
 */
export function describeCause(error: unknown, timeout?: TimeoutSetting): string | undefined {
  for (const candidate of causeChain(error)) {
    if (candidate instanceof AnswerCutError) return candidate.message;
    // The status, not the page that came with it (a proxy's HTML).
    const http = statusOf(candidate);
    if (http !== undefined) return httpCause(http);
    // Not a request its caller aborted (the SDK gives it the same code): the caller's reason tells that one.
    if (candidate instanceof SdkError && timedOut(candidate))
      return timeout === undefined
        ? 'timed out'
        : `timed out: no answer within ${timeout.ms} ms (${timeout.option})`;
  }
  for (const candidate of causeChain(error)) {
    // fetch refuses such a URL with a message that quotes it, credentials included.
    if (candidate instanceof TypeError && /URL that includes credentials/.test(candidate.message))
      return "the URL includes a user name or password, which fetch refuses: send them as an Authorization header in 'requestInit'";
    const code = (candidate as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (TLS_CODE.test(code)) return tlsCause(code, messageOf(candidate));
    const known = SYSTEM_CAUSES[code];
    if (known) return `${known} (${code})`;
  }
  return undefined;
}

export function errorDetail(error: unknown): MCPErrorDetail {
  const detail: MCPErrorDetail = { message: messageOf(error) };
  for (const current of causeChain(error)) {
    // A connect error records the status of the attempt it reports (see ServerConnection).
    const recorded = current instanceof MastraError ? current.details?.httpStatus : undefined;
    if (isStatus(recorded)) detail.httpStatus ??= recorded;
    const status = statusOf(current);
    if (status !== undefined) detail.httpStatus ??= status;
    if (current instanceof SdkError || current instanceof ProtocolError) detail.code ??= current.code;
    // A fan-out's own deadline (fan-out.ts) is a timeout like the SDK's.
    if (current instanceof MastraError && current.id === MCPErrorCode.CLIENT_REQUEST_TIMEOUT)
      detail.code ??= SdkErrorCode.RequestTimeout;
  }
  return detail;
}

/** The legacy string form: the message, plus ` (HTTP nnn)` when a status is known. */
export function legacyMessage(detail: MCPErrorDetail): string {
  return detail.httpStatus !== undefined && !detail.message.includes(`HTTP ${detail.httpStatus}`)
    ? `${detail.message} (HTTP ${detail.httpStatus})`
    : detail.message;
}
