/**
 * Push delivery: one long-lived `events/stream` request at a time. The subscription is confirmed
 * by the first stream's `notifications/events/active`. A stream that ends for any reason other
 * than cancellation is reopened from the last cursor: at once when it had been delivering
 * (an event, heartbeat or error after `active`), after a backoff delay when it had not. A stream
 * is given up on when it was not confirmed within `streamOpenTimeoutMs`, when nothing arrived for
 * `heartbeatTimeoutMs`, when Streamable HTTP reports its response stream gone (the SDK alone
 * would leave the request pending forever), or when the connection closed.
 */

import { MCPErrorCode, mcpError } from '../../errors.js';
import {
  cursorOf,
  EVENTS_METHODS,
  type EventCursor,
  type EventsActiveNotificationParams,
  type EventsErrorNotificationParams,
  type EventsErrorObject,
  type EventsEventNotificationParams,
  type EventsHeartbeatNotificationParams,
  StreamEventsResultSchema,
} from '../../shared/events-wire.js';
import { sleep } from '../../shared/sleep.js';
import { isFinal } from './errors.js';
import { afterFailure, maxAge, newBackoff, type SourceContext, target } from './source-context.js';
import { type StreamListener, streamRouter } from './stream-router.js';
import type { DeliverySource } from './subscription.js';
import { assertEventsSupported, withMeta } from './support.js';

/** setTimeout's ceiling: the stream has no request timeout of its own (heartbeats watch it). */
const NO_TIMEOUT_MS = 2 ** 31 - 1;

type Outcome =
  | { kind: 'ended'; error?: undefined }
  | { kind: 'failed'; error: unknown }
  | { kind: 'terminated'; error: EventsErrorObject };

/** One `events/stream` request and the timers that watch it. */
class StreamAttempt implements StreamListener {
  /** Something arrived after `active`: the stream was delivering. */
  healthy = false;
  readonly confirmed: Promise<void>;
  readonly ended: Promise<Outcome>;
  private confirm!: () => void;
  private refuse!: (error: unknown) => void;
  private end!: (outcome: Outcome) => void;
  private isActive = false;
  private done = false;
  private readonly controller = new AbortController();
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onStop = () => this.finish({ kind: 'ended' });

  constructor(
    private readonly source: PushSource,
    private readonly context: SourceContext,
    cursor: EventCursor,
  ) {
    this.confirmed = new Promise<void>((resolve, reject) => {
      this.confirm = resolve;
      this.refuse = reject;
    });
    this.confirmed.catch(() => {});
    this.ended = new Promise((resolve) => {
      this.end = resolve;
    });
    const { connection, subscription, options } = context;
    if (subscription.signal.aborted) {
      this.finish({ kind: 'ended' });
      return;
    }
    subscription.signal.addEventListener('abort', this.onStop, { once: true });
    this.openTimer = setTimeout(
      () =>
        this.finish({
          kind: 'failed',
          error: new Error(`the server did not confirm the stream within ${options.streamOpenTimeoutMs} ms`),
        }),
      options.streamOpenTimeoutMs,
    );
    const params = { ...target(context), cursor, ...maxAge(context) };
    connection
      .run(async (client) => {
        assertEventsSupported(connection, client);
        return streamRouter(client).open(this, () =>
          client.request(
            { method: EVENTS_METHODS.stream, params: withMeta(connection, params) },
            StreamEventsResultSchema,
            { signal: this.controller.signal, timeout: NO_TIMEOUT_MS },
          ),
        );
      })
      .then(
        () => this.finish({ kind: 'ended' }),
        (error: unknown) => this.finish({ kind: 'failed', error }),
      );
  }

  active(params: EventsActiveNotificationParams): void {
    if (this.done) return;
    if (this.isActive) this.healthy = true;
    this.isActive = true;
    clearTimeout(this.openTimer);
    this.alive();
    this.source.activated(cursorOf(params.cursor), params.truncated);
    this.confirm();
  }

  event(params: EventsEventNotificationParams): void {
    if (this.done) return;
    this.delivering();
    this.source.received(params, cursorOf(params.cursor));
  }

  heartbeat(params: EventsHeartbeatNotificationParams): void {
    if (this.done) return;
    this.delivering();
    this.source.moved(cursorOf(params.cursor));
  }

  error(params: EventsErrorNotificationParams): void {
    if (this.done) return;
    this.delivering();
    const { connection, event } = this.context;
    this.context.subscription.report(
      mcpError(
        MCPErrorCode.EVENTS_SERVER_ERROR,
        `MCP server '${connection.name}': event '${event}': the server reported: ${params.error.message}`,
        { server: connection.name, event, code: params.error.code },
      ),
    );
  }

  terminated(params: EventsErrorNotificationParams): void {
    this.finish({ kind: 'terminated', error: params.error });
  }

  streamEnded(): void {
    this.finish({ kind: 'ended' });
  }

  private delivering(): void {
    if (this.isActive) this.healthy = true;
    this.alive();
  }

  /** Any message proves the stream alive: the silence timer starts over. */
  private alive(): void {
    clearTimeout(this.heartbeatTimer);
    const { heartbeatTimeoutMs } = this.context.options;
    this.heartbeatTimer = setTimeout(
      () =>
        this.finish({
          kind: 'failed',
          error: new Error(`nothing arrived on the stream for ${heartbeatTimeoutMs} ms`),
        }),
      heartbeatTimeoutMs,
    );
  }

  private finish(outcome: Outcome): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.openTimer);
    clearTimeout(this.heartbeatTimer);
    this.context.subscription.signal.removeEventListener('abort', this.onStop);
    this.controller.abort();
    if (!this.isActive) {
      this.refuse(
        outcome.kind === 'failed'
          ? outcome.error
          : outcome.kind === 'terminated'
            ? new Error(`the server terminated the stream: ${outcome.error.message}`)
            : new Error('the server ended the stream before confirming it'),
      );
    }
    this.end(outcome);
  }
}

export class PushSource implements DeliverySource {
  readonly mode = 'push' as const;
  private cursor: EventCursor;
  private readonly backoff;
  private current: StreamAttempt | undefined;

  constructor(private readonly context: SourceContext) {
    this.cursor = context.options.cursor;
    this.backoff = newBackoff(context);
  }

  /** Opens the first stream; resolves once the server confirmed it, then keeps it open. */
  async start(): Promise<void> {
    const attempt = this.open();
    await attempt.confirmed;
    void this.loop(attempt);
  }

  async stop(): Promise<void> {
    await this.current?.ended;
  }

  activated(cursor: EventCursor, truncated: boolean): void {
    const { subscription } = this.context;
    if (truncated) subscription.gap();
    subscription.advance(cursor);
    this.cursor = cursor;
  }

  received(occurrence: EventsEventNotificationParams, cursor: EventCursor): void {
    this.cursor = cursor;
    this.context.subscription.accept(occurrence, cursor);
  }

  moved(cursor: EventCursor): void {
    this.cursor = cursor;
    this.context.subscription.advance(cursor);
  }

  private open(): StreamAttempt {
    this.current = new StreamAttempt(this, this.context, this.cursor);
    return this.current;
  }

  private async loop(first: StreamAttempt): Promise<void> {
    const { subscription, connection, event } = this.context;
    const { signal } = subscription;
    let attempt = first;
    for (;;) {
      const outcome = await attempt.ended;
      if (signal.aborted) return;
      if (outcome.kind === 'terminated') {
        subscription.fail(
          mcpError(
            MCPErrorCode.EVENTS_SUBSCRIPTION_TERMINATED,
            `MCP server '${connection.name}' terminated the subscription to event '${event}': ${outcome.error.message}`,
            { server: connection.name, event, mode: this.mode, code: outcome.error.code },
          ),
        );
        return;
      }
      let delayMs = 0;
      if (attempt.healthy && !(outcome.kind === 'failed' && isFinal(outcome.error))) {
        this.backoff.succeed();
        subscription.report(
          mcpError(
            MCPErrorCode.EVENTS_DELIVERY_INTERRUPTED,
            `MCP server '${connection.name}': event '${event}': the stream ended (${outcome.error instanceof Error ? outcome.error.message : 'closed'}); reopening it`,
            { server: connection.name, event, mode: this.mode, attempt: 0, delayMs: 0 },
            outcome.error,
          ),
        );
      } else {
        const error = outcome.error ?? new Error('the server ended the stream');
        const next = afterFailure(this.context, this.mode, this.backoff, error, 'events/stream');
        if (next === 'stop') return;
        delayMs = next;
      }
      await sleep(delayMs, signal);
      if (signal.aborted) return;
      attempt = this.open();
    }
  }
}
