/**
 * How webhook deliveries run, behind one seam: `MCPWebhookQueue` (the `webhook.queue` option,
 * declared in contracts.ts) is opened once per MCPServer and gives a `WebhookDelivery` with its
 * registry. The default
 * (webhook-loops.ts) runs one loop per subscription in this process, reading the event store in
 * order; `RedisWebhookQueue` puts one job per (occurrence, subscription) on a Redis Stream that
 * every instance consumes. Both send through `WebhookAttempts`: one signed POST of one item, with
 * the cursor, the size limit (an occurrence too large goes out as a gap) and the status report.
 */
import { WEBHOOK_MAX_BODY_BYTES, type WebhookControlBody } from '../../shared/events-wire.js';
import type { MCPStoredEvent, WebhookDeliveryContext, WebhookRecord, WebhookRegistry } from './contracts.js';
import { signingSecrets } from './webhook-registry.js';
import { controlMessageId } from './webhook-sender.js';

export type DeliveryItem =
  | { kind: 'event'; event: MCPStoredEvent }
  | { kind: 'control'; body: WebhookControlBody };

/**
 * delivered; rejected (410: the receiver does not want it); final (4xx other than 408/429, a
 * redirect); retry; or oversized, with the gap to send in its place.
 */
export type AttemptOutcome =
  | { kind: 'delivered' | 'rejected' | 'final' | 'retry' }
  | { kind: 'oversized'; gap: DeliveryItem };

export class WebhookAttempts {
  constructor(
    private readonly context: WebhookDeliveryContext,
    private readonly registry: WebhookRegistry,
  ) {}

  /** The wait before attempt `attempt + 1` (exponential, capped). */
  delay(attempt: number): number {
    const { retry } = this.context.options;
    return Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** (attempt - 1));
  }

  /** The cursor of `position` for `record`'s event type (`null` without replay). */
  cursor(record: WebhookRecord, position: string) {
    const type = this.context.types.get(record.name);
    return type ? this.context.log.cursor(type, position) : null;
  }

  gap(record: WebhookRecord, position: string): DeliveryItem {
    return { kind: 'control', body: { type: 'gap', cursor: this.cursor(record, position) } };
  }

  /** One POST of `item` carrying the cursor of `watermark`; the outcome is reported to the registry. */
  async post(
    record: WebhookRecord,
    item: DeliveryItem,
    watermark: string,
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    let body: string;
    let messageId: string;
    if (item.kind === 'event') {
      const { occurrence } = item.event;
      messageId = occurrence.eventId;
      body = JSON.stringify({ ...occurrence, cursor: this.cursor(record, watermark) });
      if (Buffer.byteLength(body) > WEBHOOK_MAX_BODY_BYTES) {
        this.context
          .logger()
          .warn(
            `MCP webhook ${record.id}: occurrence '${occurrence.eventId}' is over ${WEBHOOK_MAX_BODY_BYTES} bytes; sent as a gap`,
          );
        return { kind: 'oversized', gap: this.gap(record, item.event.position) };
      }
    } else {
      messageId = controlMessageId(item.body.type);
      body = JSON.stringify(item.body);
    }
    const outcome = await this.context.sender.send({
      url: record.url,
      subscriptionId: record.id,
      messageId,
      body,
      secrets: signingSecrets(record),
      signal,
    });
    if (signal.aborted) return { kind: 'retry' };
    if (outcome.ok) {
      await this.report(record, { kind: 'delivered' });
      return { kind: 'delivered' };
    }
    if (outcome.status === 410) {
      await this.report(record, { kind: 'rejected' });
      return { kind: 'rejected' };
    }
    await this.report(record, { kind: 'failed', error: outcome.category });
    return { kind: outcome.final ? 'final' : 'retry' };
  }

  /** Gives up on an item after its attempts (or a final answer). */
  abandon(record: WebhookRecord): Promise<void> {
    return this.report(record, { kind: 'abandoned', suspendAfter: this.context.options.suspendAfter });
  }

  /** A status the registry could not take is logged: it is informational, the delivery goes on. */
  private async report(record: WebhookRecord, report: Parameters<WebhookRegistry['report']>[1]) {
    try {
      await this.registry.report(record.id, report);
    } catch (error) {
      this.context
        .logger()
        .warn(
          `MCP webhook ${record.id}: delivery status not recorded: ${error instanceof Error ? error.message : String(error)}`,
        );
    }
  }
}
