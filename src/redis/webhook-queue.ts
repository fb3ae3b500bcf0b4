/**
 * `RedisWebhookQueue` (`events.webhook.queue`): webhook subscriptions and their deliveries shared
 * by every instance of a scaled-out MCPServer: the subscriptions in a `RedisWebhookRegistry`, the
 * deliveries as jobs on one Redis Stream (`<prefix>queue`) that every instance consumes as a
 * member of one consumer group (webhook-consumer.ts).
 *
 * Fan-out happens once, where the occurrence is emitted: `emit()` lists the subscriptions to its
 * type, evaluates each one's `matches` and enqueues one job per matching subscription, atomically
 * with a check that the subscription is still live and active; the emit rejects if that failed.
 * A new subscription (and a suspended one its refresh reactivates) enqueues what the store holds
 * after its start itself (backfill), so a subscription with a cursor replays as it does in
 * memory. Deliveries to one subscription run concurrently (the spec makes webhook order best
 * effort); each carries the cursor of the occurrence enqueued before it for that subscription,
 * and the registry's watermark is that of its oldest unsettled job.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { MCPErrorCode, mcpError } from '../errors.js';
import {
  describe,
  type MCPStoredEvent,
  type MCPWebhookQueue,
  WebhookAttempts,
  type WebhookDelivery,
  type WebhookDeliveryContext,
  type WebhookRecord,
  type WebhookSubscription,
} from '../server/store-kit.js';
import { DEFAULT_REDIS_TIMEOUT_MS, type RedisCommandClient } from './command.js';
import { invalidOption, positiveOption } from './errors.js';
import { QueueCommands, type QueueSettings, WebhookConsumer } from './webhook-consumer.js';
import { RedisWebhookRegistry } from './webhook-registry.js';
import { ENQUEUE } from './webhook-scripts.js';

const STORE = 'RedisWebhookQueue';
const READ_BATCH = 50;

/** `MCPErrorCode.EVENTS_WEBHOOK_ENQUEUE_FAILED`, under the name `mastra-mcp/redis` has exported it by. */
export const WEBHOOK_ENQUEUE_FAILED = MCPErrorCode.EVENTS_WEBHOOK_ENQUEUE_FAILED;

export interface RedisWebhookQueueOptions {
  /** A connected node-redis client for every command but the blocking read; may be shared with other stores. */
  client: RedisCommandClient;
  /** A second connected client (e.g. `client.duplicate()`) for the blocking XREADGROUP; used for nothing else. */
  reader: RedisCommandClient;
  /** The MCPServer's `id`, identical on every instance: it separates servers sharing one Redis. */
  serverId: string;
  /** Default `mastra-mcp:webhooks:`; keys are `<keyPrefix><serverId>:...`. */
  keyPrefix?: string;
  /** This instance's consumer name in the group. Default: host name, process id and a random suffix. */
  consumer?: string;
  /** Jobs this instance works on at once. Default 16. */
  concurrency?: number;
  /** A job its instance has not re-claimed for this long is taken over by another. Default 60 000 ms. */
  reclaimIdleMs?: number;
  /** How long one command may wait for Redis (default 2000 ms). */
  timeoutMs?: number;
}

export class RedisWebhookQueue implements MCPWebhookQueue {
  readonly keyPrefix: string;
  readonly consumer: string;
  private readonly settings: QueueSettings;
  private opened = false;

  constructor(options: RedisWebhookQueueOptions) {
    if (!options.serverId) invalidOption(STORE, 'serverId', 'must be the MCPServer id every instance shares');
    this.keyPrefix = `${options.keyPrefix ?? 'mastra-mcp:webhooks:'}${options.serverId}:`;
    this.consumer = options.consumer ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const timeoutMs = positiveOption(STORE, 'timeoutMs', options.timeoutMs) ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.settings = {
      client: options.client,
      reader: options.reader,
      registry: new RedisWebhookRegistry({ client: options.client, keyPrefix: this.keyPrefix, timeoutMs }),
      consumer: this.consumer,
      concurrency: positiveOption(STORE, 'concurrency', options.concurrency, true) ?? 16,
      reclaimIdleMs: positiveOption(STORE, 'reclaimIdleMs', options.reclaimIdleMs) ?? 60_000,
      timeoutMs,
    };
    if (options.reader === options.client) {
      invalidOption(STORE, 'reader', 'must be a connection of its own (client.duplicate()): its reads block');
    }
  }

  open(context: WebhookDeliveryContext): WebhookDelivery {
    if (this.opened) {
      invalidOption(
        STORE,
        'queue',
        `for '${this.keyPrefix}' is already used by an MCPServer; give each MCPServer its own RedisWebhookQueue`,
      );
    }
    this.opened = true;
    return new RedisWebhookDelivery(this.settings, context);
  }
}

class RedisWebhookDelivery implements WebhookDelivery {
  readonly shared = true;
  readonly registry: RedisWebhookRegistry;
  private readonly redis: QueueCommands;
  private readonly consumer: WebhookConsumer;

  constructor(
    settings: QueueSettings,
    private readonly context: WebhookDeliveryContext,
  ) {
    this.registry = settings.registry;
    this.redis = new QueueCommands(settings);
    this.consumer = new WebhookConsumer(settings, context, new WebhookAttempts(context, this.registry));
  }

  async start(record: WebhookRecord, subscription: WebhookSubscription, from: string) {
    await this.backfill(record, subscription, from);
  }

  async refreshed(record: WebhookRecord, subscription: WebhookSubscription, reactivated: boolean) {
    if (!reactivated) return;
    // Nothing was enqueued while it was suspended: what the store kept since then goes out now.
    await this.backfill(record, subscription, record.watermark).catch((error: unknown) =>
      this.context
        .logger()
        .error(
          `${STORE}: webhook ${record.id}: occurrences since the suspension not enqueued: ${describe(error)}`,
        ),
    );
  }

  async published(event: MCPStoredEvent) {
    const { occurrence } = event;
    const type = this.context.types.get(occurrence.name);
    if (!type) return;
    try {
      const records = await this.registry.list(occurrence.name);
      const payload = JSON.stringify(occurrence);
      const jobs = records
        .filter((record) => record.status.active && this.context.types.matcher(type, record.args)(occurrence))
        .map((record) => [record.id, 'event', event.position, payload, '']);
      await this.enqueue(jobs);
    } catch (cause) {
      throw mcpError(
        WEBHOOK_ENQUEUE_FAILED,
        `MCP events: occurrence '${occurrence.eventId}' of '${occurrence.name}' is stored, but its webhook deliveries were not enqueued: ${describe(cause)}`,
        { eventId: occurrence.eventId, name: occurrence.name, keyPrefix: this.registry.keyPrefix },
        cause,
      );
    }
  }

  wake(): void {}

  /** Jobs in flight for `id` finish their attempt, then find the subscription gone and settle. */
  async stop() {}

  close(): Promise<void> {
    return this.consumer.close();
  }

  /** Enqueues what the store holds for the subscription after `from`, up to its head now. */
  private async backfill(record: WebhookRecord, subscription: WebhookSubscription, from: string) {
    const head = await this.context.log.head();
    let after = from;
    let position = from;
    for (;;) {
      const read = await this.context.log.read(subscription, position, READ_BATCH);
      const jobs: string[][] = [];
      if (read.truncated) {
        jobs.push([record.id, 'gap', read.from, '', after]);
        after = read.from;
      }
      for (const event of read.events) {
        jobs.push([record.id, 'event', event.position, JSON.stringify(event.occurrence), after]);
        after = event.position;
      }
      await this.enqueue(jobs);
      position = read.position;
      if (!read.hasMore || read.events.some((event) => event.position === head)) return;
    }
  }

  private async enqueue(jobs: string[][]): Promise<void> {
    if (jobs.length === 0) return;
    await this.redis.script(
      'enqueue',
      ENQUEUE,
      [this.redis.stream],
      [this.registry.keyPrefix, ...jobs.flat()],
    );
  }
}
