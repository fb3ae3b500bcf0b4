/**
 * One server-side webhook subscription, shared by every MCPEventSubscription with the same server,
 * event name and (canonical) arguments. It registers with `events/subscribe`, refreshes before the
 * granted `refreshBefore` (minus the margin) with the latest cursor, keeps the server's
 * `deliveryStatus`, hands each verified delivery to every member (each deduplicates and buffers
 * on its own), and sends `events/unsubscribe` when its last member leaves.
 *
 * Invariants: the secret is fixed for the registration's life (fresh per registration unless the
 * client configured one); at most one refresh timer is armed and none after `retire()`; its cursor
 * never moves back to one it has passed; a delivery's webhook-id is handled once while its
 * signature can verify (ids are scoped to the registration: a new one after unsubscribing may be
 * sent the same occurrences again, on purpose, from an older cursor).
 */
import { createHash } from 'node:crypto';
import { MCPErrorCode, mcpError } from '../../errors.js';
import {
  cursorOf,
  type DeliveryStatus,
  EVENTS_METHODS,
  type EventCursor,
  type EventOccurrence,
  type EventsErrorObject,
  generateWebhookSecret,
  type SubscribeEventsResult,
  SubscribeEventsResultSchema,
  UnsubscribeEventsResultSchema,
} from '../../shared/events-wire.js';
import type { ServerConnection } from '../connection.js';
import { messageOf } from '../errors.js';
import { Backoff } from './backoff.js';
import { CursorOrder, type DeliveryIds, type DeliveryVerdict } from './dedup.js';
import { applyStep, type SourceContext, stepAfter } from './source-context.js';
import type { DeliverySource, EventSubscription } from './subscription.js';
import { eventsRequest } from './support.js';
import type { MCPClientWebhookOptions } from './types.js';

/** setTimeout's ceiling; later refreshes re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Refreshes are never closer together than this, whatever the server grants. */
const MIN_REFRESH_DELAY_MS = 100;

/** Numbers registrations in this process, to scope the webhook-ids each has handled. */
let registrations = 0;

export interface RegistrationHost {
  readonly settings: MCPClientWebhookOptions;
  readonly maxRememberedDeliveries: number;
  /** The webhook-ids handled for `server`'s registrations. */
  deliveryIds(server: string): DeliveryIds;
  /** The server assigned (or changed) this registration's id. */
  indexed(registration: WebhookRegistration, previousId: string | undefined): void;
  /** The registration is over: forget it. */
  forget(registration: WebhookRegistration): void;
  /** Its `events/unsubscribe` is in flight until `done` settles. */
  unsubscribing(registration: WebhookRegistration, done: Promise<void>): void;
  /** The first `events/subscribe` is in flight (its deliveries may arrive before the id is known). */
  pending(registration: WebhookRegistration, inFlight: boolean): void;
}

export class WebhookRegistration {
  id: string | undefined;
  readonly secret: string;
  status: DeliveryStatus | undefined;
  /** Whether the first answer reported a gap (for the first member). */
  truncatedAtStart = false;
  private cursor: EventCursor;
  private readonly order: CursorOrder;
  private readonly serial = ++registrations;
  private readonly members = new Set<EventSubscription>();
  private readonly backoff: Backoff;
  private readonly halt = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retired = false;
  private started: Promise<void> | undefined;
  private readonly connection: ServerConnection;
  private readonly event: string;
  private readonly args: Record<string, unknown>;

  constructor(
    private readonly host: RegistrationHost,
    readonly key: string,
    private readonly first: SourceContext,
  ) {
    this.connection = first.connection;
    this.event = first.event;
    this.args = first.args;
    this.secret = host.settings.secret ?? generateWebhookSecret();
    this.cursor = first.options.cursor;
    this.order = new CursorOrder(this.cursor);
    this.backoff = new Backoff(first.options.retry);
  }

  get closed(): boolean {
    return this.retired;
  }

  get latestCursor(): EventCursor {
    return this.cursor;
  }

  /** The first `events/subscribe` (once); rejects with the server's refusal (the registration is then forgotten). */
  ready(): Promise<void> {
    this.started ??= this.register();
    return this.started;
  }

  private async register(): Promise<void> {
    this.host.pending(this, true);
    try {
      const result = await this.subscribe(this.first.options.maxAgeMs);
      this.truncatedAtStart = result.truncated;
      this.apply(result);
    } catch (error) {
      this.retired = true;
      this.host.forget(this);
      throw error;
    } finally {
      this.host.pending(this, false);
    }
  }

  /** A member's view of this registration. */
  join(subscription: EventSubscription): DeliverySource {
    this.members.add(subscription);
    const registration = this;
    return {
      mode: 'webhook',
      get deliveryStatus() {
        return registration.status;
      },
      stop: () => this.leave(subscription),
    };
  }

  /**
   * Records a verified delivery's webhook-id until `expiresAt`: 'repeat' when it was handled
   * already, 'full' when the server's ids fill `webhook.maxRememberedDeliveries` (logged once).
   */
  admit(webhookId: string, expiresAt: number): DeliveryVerdict {
    const key = createHash('sha256').update(`${this.serial}\n${webhookId}`).digest('base64');
    const verdict = this.host.deliveryIds(this.connection.name).admit(key, expiresAt);
    if (verdict.kind === 'full' && verdict.first) {
      this.connection.log(
        'warning',
        `MCP server '${this.connection.name}': ${this.host.maxRememberedDeliveries} recent webhook deliveries are remembered to detect replays (webhook.maxRememberedDeliveries); new ones are answered 503 until the oldest expire`,
      );
    }
    return verdict;
  }

  deliver(occurrence: EventOccurrence, cursor: EventCursor): void {
    const taken = this.moveTo(cursor);
    for (const member of this.members) member.accept(occurrence, taken);
  }

  gap(cursor: EventCursor): void {
    const taken = this.moveTo(cursor);
    for (const member of this.members) member.gap(taken);
  }

  /** `cursor` once taken, or `undefined` (members stay put) when this registration has moved past it. */
  private moveTo(cursor: EventCursor): EventCursor | undefined {
    if (!this.order.take(cursor)) return undefined;
    this.cursor = cursor;
    return cursor;
  }

  terminated(error: EventsErrorObject): void {
    const members = [...this.members];
    void this.retire(false);
    for (const member of members) {
      member.fail(
        mcpError(
          MCPErrorCode.EVENTS_SUBSCRIPTION_TERMINATED,
          `MCP server '${this.connection.name}' terminated the webhook subscription to event '${this.event}': ${error.message}`,
          { server: this.connection.name, event: this.event, mode: 'webhook', code: error.code },
        ),
      );
    }
  }

  /** Stops refreshing and forgets the registration; `unsubscribe` tells the server too. */
  async retire(unsubscribe: boolean): Promise<void> {
    if (this.retired) return;
    this.retired = true;
    clearTimeout(this.timer);
    this.halt.abort();
    this.host.forget(this);
    if (!unsubscribe || this.id === undefined) return;
    const done = eventsRequest(
      this.connection,
      EVENTS_METHODS.unsubscribe,
      { name: this.event, arguments: this.args, delivery: { mode: 'webhook', url: this.host.settings.url } },
      UnsubscribeEventsResultSchema,
    ).then(
      () => {},
      (error: unknown) => {
        this.connection.log(
          'debug',
          `events/unsubscribe for event '${this.event}' failed: ${messageOf(error)}`,
        );
      },
    );
    this.host.unsubscribing(this, done);
    await done;
  }

  /** A member ended (cancelled, failed or disconnected); the last one out unsubscribes. */
  private async leave(subscription: EventSubscription): Promise<void> {
    this.members.delete(subscription);
    if (this.members.size === 0) await this.retire(true);
  }

  private subscribe(maxAgeMs?: number): Promise<SubscribeEventsResult> {
    const { settings } = this.host;
    return eventsRequest(
      this.connection,
      EVENTS_METHODS.subscribe,
      {
        name: this.event,
        arguments: this.args,
        delivery: { mode: 'webhook', url: settings.url, secret: this.secret },
        cursor: this.cursor,
        ...(maxAgeMs !== undefined ? { maxAgeMs } : {}),
        ...(settings.ttlMs !== undefined ? { ttlMs: settings.ttlMs } : {}),
      },
      SubscribeEventsResultSchema,
      { signal: this.halt.signal },
    );
  }

  private apply(result: SubscribeEventsResult): void {
    const previousId = this.id;
    if (previousId !== result.id) {
      this.id = result.id;
      this.host.indexed(this, previousId);
    }
    this.status = result.deliveryStatus;
    const cursor = this.moveTo(cursorOf(result.cursor));
    for (const member of this.members) {
      if (result.truncated) member.gap(cursor);
      else if (cursor !== undefined) member.advance(cursor);
    }
    const status = result.deliveryStatus;
    if (status && (status.lastError !== null || !status.active)) {
      for (const member of this.members) {
        member.report(
          mcpError(
            MCPErrorCode.EVENTS_WEBHOOK_DELIVERY_FAILING,
            `MCP server '${this.connection.name}': event '${this.event}': webhook delivery is failing (${status.lastError ?? 'suspended'})`,
            {
              server: this.connection.name,
              event: this.event,
              lastError: status.lastError ?? undefined,
              active: status.active,
              failedSince: status.failedSince ?? undefined,
            },
          ),
        );
      }
    }
    this.schedule(result.refreshBefore);
  }

  /** Arms the refresh: `refreshMarginMs` (default min(60 s, 20 % of the grant)) before `refreshBefore`. */
  private schedule(refreshBefore: string | null): void {
    clearTimeout(this.timer);
    if (refreshBefore === null || this.retired) return;
    const expiry = Date.parse(refreshBefore);
    if (!Number.isFinite(expiry)) {
      this.connection.log(
        'warning',
        `event '${this.event}': refreshBefore '${refreshBefore}' is not a time; not refreshing`,
      );
      return;
    }
    const grantMs = Math.max(0, expiry - Date.now());
    const marginMs = this.host.settings.refreshMarginMs ?? Math.min(60_000, grantMs * 0.2);
    this.arm(Date.now() + Math.max(MIN_REFRESH_DELAY_MS, grantMs - marginMs));
  }

  private arm(due: number): void {
    clearTimeout(this.timer);
    if (this.retired) return;
    const wait = due - Date.now();
    this.timer = setTimeout(
      () => (due > Date.now() ? this.arm(due) : void this.refresh()),
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
  }

  private async refresh(): Promise<void> {
    if (this.retired) return;
    try {
      const result = await this.subscribe();
      if (this.retired) return;
      this.backoff.succeed();
      this.apply(result);
    } catch (error) {
      if (this.retired) return;
      const step = stepAfter(this.backoff, error);
      // Ending members leave, and the last one to leave retires the registration.
      for (const member of [...this.members]) {
        const subject = {
          subscription: member,
          server: this.connection.name,
          event: this.event,
          mode: 'webhook' as const,
        };
        applyStep(subject, step, this.backoff, error, 'refreshing the webhook subscription');
      }
      if (step.kind === 'retry') this.arm(Date.now() + step.delayMs);
    }
  }
}
