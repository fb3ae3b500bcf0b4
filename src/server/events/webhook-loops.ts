/**
 * The default webhook delivery, all in this process: subscriptions in an `InMemoryWebhookRegistry`
 * and one loop per subscription. A loop sends occurrences one at a time in store order, each
 * retried with exponential backoff (410 and 413 are final), abandoned after the last attempt;
 * after `suspendAfter` abandoned in a row it waits for the refresh that reactivates it. It reads
 * the store lazily, so occurrences retention dropped while it was stalled become a `gap`. The
 * record's watermark is the cursor a delivery carries: every occurrence before it was
 * acknowledged or abandoned.
 */
import { sleep } from '../../shared/sleep.js';
import type {
  MCPWebhookQueue,
  WebhookDelivery,
  WebhookDeliveryContext,
  WebhookRecord,
  WebhookSubscription,
} from './contracts.js';
import { describe } from './event-types.js';
import { Wakeup } from './wakeup.js';
import { type DeliveryItem, WebhookAttempts } from './webhook-delivery.js';
import { InMemoryWebhookRegistry } from './webhook-registry.js';

const READ_BATCH = 50;

interface Loop {
  record: WebhookRecord;
  subscription: WebhookSubscription;
  /** Read from the store up to here. */
  position: string;
  queue: DeliveryItem[];
  attempt: number;
  wakeup: Wakeup;
  /** Aborts this loop's sleeps and requests. */
  halt: AbortController;
  done: Promise<void>;
}

export const inMemoryWebhookQueue: MCPWebhookQueue = {
  open: (context) => new LocalWebhookDelivery(context),
};

class LocalWebhookDelivery implements WebhookDelivery {
  readonly registry = new InMemoryWebhookRegistry((id) => this.halt(id));
  readonly shared = false;
  private readonly loops = new Map<string, Loop>();
  private readonly attempts: WebhookAttempts;

  constructor(private readonly context: WebhookDeliveryContext) {
    this.attempts = new WebhookAttempts(context, this.registry);
  }

  async start(record: WebhookRecord, subscription: WebhookSubscription, from: string) {
    record.watermark = from;
    const loop: Loop = {
      record,
      subscription,
      position: from,
      queue: [],
      attempt: 0,
      wakeup: new Wakeup(),
      halt: new AbortController(),
      done: Promise.resolve(),
    };
    this.loops.set(record.id, loop);
    loop.done = this.deliver(loop);
  }

  async refreshed(record: WebhookRecord, subscription: WebhookSubscription, reactivated: boolean) {
    const loop = this.loops.get(record.id);
    if (!loop) return;
    loop.subscription = subscription;
    if (reactivated) loop.attempt = 0;
    loop.wakeup.wake();
  }

  async published() {}

  wake(name: string): void {
    for (const loop of this.loops.values()) if (loop.record.name === name) loop.wakeup.wake();
  }

  async stop(id: string) {
    const loop = this.loops.get(id);
    this.halt(id);
    await loop?.done;
  }

  async close() {
    await Promise.allSettled([...this.loops.keys()].map((id) => this.stop(id)));
    this.registry.clear();
  }

  private halt(id: string): void {
    const loop = this.loops.get(id);
    if (!loop) return;
    this.loops.delete(id);
    loop.halt.abort();
    loop.wakeup.wake();
  }

  /** One subscription's loop; returns once it is halted. */
  private async deliver(loop: Loop): Promise<void> {
    const { halt, record } = loop;
    const { retry } = this.context.options;
    while (!halt.signal.aborted) {
      if (!record.status.active) {
        await loop.wakeup.wait();
        continue;
      }
      const item = loop.queue[0];
      if (!item) {
        if (!(await this.fill(loop))) await loop.wakeup.wait();
        continue;
      }
      const outcome = await this.attempts.post(record, item, record.watermark, halt.signal);
      if (halt.signal.aborted) break;
      if (outcome.kind === 'delivered' || outcome.kind === 'rejected') {
        this.settle(loop, item);
        continue;
      }
      if (outcome.kind === 'oversized') loop.queue.splice(1, 0, outcome.gap);
      if (outcome.kind !== 'retry' || loop.attempt + 1 >= retry.attempts) {
        this.settle(loop, item);
        await this.attempts.abandon(record);
        continue;
      }
      loop.attempt += 1;
      await sleep(this.attempts.delay(loop.attempt), halt.signal);
    }
  }

  /** Reads the next occurrences into the queue; false when there was nothing to read. */
  private async fill(loop: Loop): Promise<boolean> {
    try {
      const read = await this.context.log.read(loop.subscription, loop.position, READ_BATCH);
      if (read.truncated) {
        loop.record.watermark = read.from;
        loop.queue.push(this.attempts.gap(loop.record, read.from));
      }
      for (const event of read.events) loop.queue.push({ kind: 'event', event });
      loop.position = read.position;
      return loop.queue.length > 0 || read.hasMore;
    } catch (error) {
      this.context
        .logger()
        .warn(`MCP webhook ${loop.record.id}: event store read failed: ${describe(error)}`);
      await sleep(this.context.options.retry.initialDelayMs, loop.halt.signal);
      return true;
    }
  }

  /** Done with the head of the queue (acknowledged or abandoned): the watermark moves past it. */
  private settle(loop: Loop, item: DeliveryItem): void {
    loop.queue.shift();
    loop.attempt = 0;
    if (item.kind === 'event') loop.record.watermark = item.event.position;
  }
}
