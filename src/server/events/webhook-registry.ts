/**
 * Where webhook subscriptions live (the `WebhookRegistry` contract is in contracts.ts): identity,
 * URL, secrets (with the previous one during its grace window), TTL, delivery status, the
 * abandoned-in-a-row count behind suspension, and the (principal, URL) pairs that passed the
 * verification handshake. The in-memory registry is the default; `RedisWebhookRegistry` shares
 * the same records between instances. Every method is async for the shared one's sake; an
 * expired subscription reads as absent.
 */
import type { DeliveryStatus } from '../../shared/events-wire.js';
import type { WebhookRecord, WebhookRefresh, WebhookRegistry, WebhookReport } from './contracts.js';

/** setTimeout's ceiling; longer expiries re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The status of a new subscription. */
export const initialStatus = (): DeliveryStatus => ({
  active: true,
  lastDeliveryAt: null,
  lastError: null,
  failedSince: null,
});

/** The secrets that sign a delivery now: the current one, and the previous one during its grace. */
export function signingSecrets(record: WebhookRecord): string[] {
  const { previous } = record;
  return previous && previous.until > Date.now() ? [record.secret, previous.secret] : [record.secret];
}

/** The status change `report` makes (RedisWebhookRegistry's REPORT script applies the same rules). */
function applyReport(record: WebhookRecord, report: WebhookReport, now = new Date()): void {
  const { status } = record;
  switch (report.kind) {
    case 'delivered':
      status.lastDeliveryAt = now.toISOString();
      status.lastError = null;
      status.failedSince = null;
      record.abandonedInRow = 0;
      return;
    case 'rejected':
      record.abandonedInRow = 0;
      return;
    case 'failed':
      status.lastError = report.error;
      status.failedSince ??= now.toISOString();
      return;
    case 'abandoned':
      record.abandonedInRow += 1;
      if (record.abandonedInRow >= report.suspendAfter) status.active = false;
      return;
  }
}

/**
 * Records in this process, expired by a timer each. The records are live objects: the local
 * delivery loops read and move `watermark` on them directly.
 */
export class InMemoryWebhookRegistry implements WebhookRegistry {
  private readonly records = new Map<string, WebhookRecord>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly verifiedUntil = new Map<string, number>();

  /** @param onRemoved called when a subscription is deleted or expires. */
  constructor(private readonly onRemoved: (id: string) => void) {}

  counts() {
    let suspended = 0;
    for (const record of this.records.values()) if (!record.status.active) suspended += 1;
    return { subscriptions: this.records.size, suspended };
  }

  /** The live record itself (not a copy). */
  live(id: string): WebhookRecord | undefined {
    const record = this.records.get(id);
    return record && record.expiresAt > Date.now() ? record : undefined;
  }

  async get(id: string) {
    return this.live(id);
  }

  async list(name?: string) {
    return [...this.records.values()].filter(
      (record) => (name === undefined || record.name === name) && this.live(record.id),
    );
  }

  async create(record: WebhookRecord, max: number) {
    if (this.live(record.id)) return 'exists';
    if (this.records.has(record.id)) await this.delete(record.id);
    if (this.records.size >= max) return 'full';
    this.records.set(record.id, record);
    this.schedule(record);
    return 'created';
  }

  async refresh(id: string, change: WebhookRefresh) {
    const record = this.live(id);
    if (!record) return undefined;
    const before: WebhookRecord = { ...record, status: { ...record.status } };
    if (record.secret !== change.secret) {
      record.previous = { secret: record.secret, until: change.graceUntil };
      record.secret = change.secret;
    }
    record.expiresAt = change.expiresAt;
    record.abandonedInRow = 0;
    record.status.active = true;
    this.schedule(record);
    return before;
  }

  /** False when there was no live subscription (an expired one is removed all the same). */
  async delete(id: string) {
    const wasLive = this.live(id) !== undefined;
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    if (this.records.delete(id)) this.onRemoved(id);
    return wasLive;
  }

  async report(id: string, report: WebhookReport) {
    const record = this.live(id);
    if (record) applyReport(record, report);
  }

  async verified(key: string) {
    const until = this.verifiedUntil.get(key);
    if (until !== undefined && until > Date.now()) return true;
    this.verifiedUntil.delete(key);
    return false;
  }

  async markVerified(key: string, ttlMs: number) {
    this.verifiedUntil.set(key, Date.now() + ttlMs);
  }

  /** Forgets everything without callbacks (the server is closing and has stopped every loop). */
  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.records.clear();
    this.verifiedUntil.clear();
  }

  private schedule(record: WebhookRecord): void {
    clearTimeout(this.timers.get(record.id));
    const remaining = record.expiresAt - Date.now();
    const timer = setTimeout(
      () => {
        if (this.records.get(record.id) !== record) return;
        if (record.expiresAt <= Date.now()) void this.delete(record.id);
        else this.schedule(record);
      },
      Math.max(0, Math.min(remaining, MAX_TIMER_MS)),
    );
    this.timers.set(record.id, timer);
  }
}
