/**
 * What every delivery source shares: the server connection, the event and its arguments, the
 * subscribe options with their defaults applied, the subscription it feeds, and the helpers
 * that turn a failed attempt into the next step (retry after a delay, or end the subscription).
 */
import type { MastraError } from '@mastra/core/error';
import { MCPErrorCode, mcpError } from '../../errors.js';
import type { EventCursor } from '../../shared/events-wire.js';
import type { ServerConnection } from '../connection.js';
import { messageOf } from '../errors.js';
import { Backoff } from './backoff.js';
import { isDisconnected, isFinal, protocolCode } from './errors.js';
import type { EventSubscription } from './subscription.js';
import type { MCPEventDeliveryMode, MCPEventSubscribeOptions } from './types.js';

export interface ResolvedSubscribeOptions {
  cursor: EventCursor;
  maxAgeMs: number | undefined;
  maxEvents: number | undefined;
  minPollIntervalMs: number;
  heartbeatTimeoutMs: number;
  streamOpenTimeoutMs: number;
  dedupWindow: number;
  maxBufferedEvents: number;
  retry: MCPEventSubscribeOptions['retry'];
}

export function resolveOptions(
  options: MCPEventSubscribeOptions,
  connection: ServerConnection,
): ResolvedSubscribeOptions {
  const positive = (value: number | undefined, fallback: number) =>
    value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    cursor: options.cursor ?? null,
    maxAgeMs: options.maxAgeMs,
    maxEvents: options.maxEvents,
    minPollIntervalMs: positive(options.minPollIntervalMs, 1000),
    heartbeatTimeoutMs: positive(options.heartbeatTimeoutMs, 60_000),
    streamOpenTimeoutMs: positive(options.streamOpenTimeoutMs, connection.timeout),
    dedupWindow: Math.floor(positive(options.dedupWindow, 1000)),
    maxBufferedEvents: Math.max(1, Math.floor(positive(options.maxBufferedEvents, 1000))),
    retry: options.retry,
  };
}

export interface SourceContext {
  connection: ServerConnection;
  event: string;
  args: Record<string, unknown>;
  options: ResolvedSubscribeOptions;
  subscription: EventSubscription;
}

/** The subscription target as every events request names it. */
export function target(context: SourceContext): { name: string; arguments: Record<string, unknown> } {
  return { name: context.event, arguments: context.args };
}

/** `maxAgeMs` when the caller gave one. */
export function maxAge(context: SourceContext): { maxAgeMs?: number } {
  return context.options.maxAgeMs === undefined ? {} : { maxAgeMs: context.options.maxAgeMs };
}

export function newBackoff(context: SourceContext): Backoff {
  return new Backoff(context.options.retry);
}

/** What a failed attempt leads to: the subscription ends, or the next attempt after `delayMs`. */
export type FailureStep =
  | { kind: 'disconnected' }
  | { kind: 'final' }
  | { kind: 'exhausted' }
  | { kind: 'retry'; delayMs: number };

/** Classifies a failure and counts it against `backoff`. */
export function stepAfter(backoff: Backoff, error: unknown): FailureStep {
  if (isDisconnected(error)) return { kind: 'disconnected' };
  if (isFinal(error)) return { kind: 'final' };
  if (!backoff.fail()) return { kind: 'exhausted' };
  return { kind: 'retry', delayMs: backoff.delay() };
}

export interface FailureSubject {
  subscription: EventSubscription;
  server: string;
  event: string;
  mode: MCPEventDeliveryMode;
}

/**
 * Applies a failure step to one subscription: ends it (disconnected: normally; final:
 * MCP_EVENTS_SUBSCRIPTION_FAILED; exhausted: MCP_EVENTS_RETRIES_EXHAUSTED) or reports the retry as
 * a recoverable error. Returns `'stop'` or the delay before the next attempt.
 */
export function applyStep(
  subject: FailureSubject,
  step: FailureStep,
  backoff: Backoff,
  error: unknown,
  what: string,
): 'stop' | number {
  const { subscription, server, event, mode } = subject;
  const details = { server, event, mode, code: protocolCode(error) };
  const prefix = `MCP server '${server}': event '${event}': ${what}`;
  switch (step.kind) {
    case 'disconnected':
      void subscription.close('disconnect');
      return 'stop';
    case 'final':
      subscription.fail(
        mcpError(
          MCPErrorCode.EVENTS_SUBSCRIPTION_FAILED,
          `${prefix} failed: ${messageOf(error)}`,
          details,
          error,
        ),
      );
      return 'stop';
    case 'exhausted':
      subscription.fail(retriesExhausted(prefix, details, backoff, error));
      return 'stop';
    default:
      subscription.report(
        mcpError(
          MCPErrorCode.EVENTS_DELIVERY_INTERRUPTED,
          `${prefix} failed (${messageOf(error)}); retrying`,
          { ...details, attempt: backoff.failures, delayMs: step.delayMs },
          error,
        ),
      );
      return step.delayMs;
  }
}

/** `applyStep` for a source's own subscription. */
export function afterFailure(
  context: SourceContext,
  mode: MCPEventDeliveryMode,
  backoff: Backoff,
  error: unknown,
  what: string,
): 'stop' | number {
  if (context.subscription.ended) return 'stop';
  const subject = {
    subscription: context.subscription,
    server: context.connection.name,
    event: context.event,
    mode,
  };
  return applyStep(subject, stepAfter(backoff, error), backoff, error, what);
}

function retriesExhausted(
  prefix: string,
  details: Record<string, string | number | undefined>,
  backoff: Backoff,
  error: unknown,
): MastraError {
  return mcpError(
    MCPErrorCode.EVENTS_RETRIES_EXHAUSTED,
    `${prefix} failed ${backoff.failures} times in a row: ${messageOf(error)}`,
    { ...details, attempts: backoff.failures },
    error,
  );
}
