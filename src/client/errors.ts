/**
 * Error ids and conversions. Every error a user sees names the server (and tool, URI or prompt)
 * it concerns; `errorDetail()` keeps the HTTP status and transport code machine-readable.
 */
import { MastraError } from '@mastra/core/error';
import { ProtocolError, SdkError, SdkHttpError } from '@modelcontextprotocol/client';
import type { MCPErrorDetail } from './types.js';

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `error` and its causes, outermost first; bounded, since a cause chain may loop. */
export function* causeChain(error: unknown): Generator<unknown> {
  let current = error;
  for (let depth = 0; current && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The first error of class `type` in `error`'s cause chain, however the SDK wrapped it. */
export function findCause<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (const candidate of causeChain(error)) if (candidate instanceof type) return candidate;
  return undefined;
}

/** The HTTP status behind `error`, if an HTTP response caused it. */
export function httpStatusOf(error: unknown): number | undefined {
  return findCause(error, SdkHttpError)?.status;
}

export function errorDetail(error: unknown): MCPErrorDetail {
  const detail: MCPErrorDetail = { message: messageOf(error) };
  for (const current of causeChain(error)) {
    if (current instanceof SdkHttpError) detail.httpStatus ??= current.status;
    if (current instanceof SdkError || current instanceof ProtocolError) detail.code ??= current.code;
  }
  return detail;
}

/** The legacy string form: the message, plus ` (HTTP nnn)` when a status is known. */
export function legacyMessage(detail: MCPErrorDetail): string {
  return detail.httpStatus !== undefined && !detail.message.includes(`HTTP ${detail.httpStatus}`)
    ? `${detail.message} (HTTP ${detail.httpStatus})`
    : detail.message;
}

export function clientError(
  id: Uppercase<string>,
  text: string,
  details: Record<string, string | number | boolean | undefined>,
  cause?: unknown,
): MastraError {
  const clean = Object.fromEntries(
    Object.entries(details).filter(([, value]) => value !== undefined),
  ) as Record<string, string | number | boolean>;
  return new MastraError({ id, domain: 'MCP', category: 'THIRD_PARTY', text, details: clean }, cause);
}
