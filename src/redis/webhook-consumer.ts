/**
 * The consuming half of `RedisWebhookQueue`: this instance's consumer in the `deliveries` group.
 * It reads jobs with a blocking XREADGROUP on the reader connection while it has free slots (up
 * to `concurrency`), takes over jobs idle longer than `reclaimIdleMs` with XAUTOCLAIM every half
 * of it, and re-claims its own jobs in flight every third of it, so only a crashed or hung
 * instance's jobs are taken over. Each job runs its attempts with the server's backoff and is
 * settled (XACK, XDEL) only after its final outcome; the attempts are counted in Redis, so one
 * taken over continues the count. A job whose subscription is gone (removed, expired) or suspended
 * is settled without a POST. While Redis is away the loop and every job back off and retry; a job
 * lost to another consumer, or to close(), stops without settling.
 */
import { MastraError } from '@mastra/core/error';
import {
  type DeliveryItem,
  describe,
  Wakeup,
  type WebhookAttempts,
  type WebhookDeliveryContext,
} from '../server/store-kit.js';
import { sleep } from '../shared/sleep.js';
import { type RedisCommandClient, runCommand } from './command.js';
import type { RedisScript } from './script.js';
import { fieldsOf, type RedisWebhookRegistry } from './webhook-registry.js';
import { KEEP, SETTLE } from './webhook-scripts.js';

const STORE = 'RedisWebhookQueue';
const GROUP = 'deliveries';
const MAX_BLOCK_MS = 2000;
const MAX_BACKOFF_MS = 2000;

export interface QueueSettings {
  client: RedisCommandClient;
  reader: RedisCommandClient;
  registry: RedisWebhookRegistry;
  consumer: string;
  concurrency: number;
  reclaimIdleMs: number;
  timeoutMs: number;
}

/** The queue's commands, each bounded and named (`RedisWebhookQueue: <operation> of '<stream>'`). */
export class QueueCommands {
  readonly stream: string;

  constructor(private readonly settings: QueueSettings) {
    this.stream = settings.registry.key('queue');
  }

  command(operation: string, args: string[]): Promise<unknown> {
    return runCommand(this.settings.client, args, this.subject(operation), this.settings.timeoutMs);
  }

  script(operation: string, script: RedisScript, keys: string[], args: string[]): Promise<unknown> {
    return script.run(this.settings.client, keys, args, this.subject(operation), this.settings.timeoutMs);
  }

  /** On the reader connection, which may block for `timeoutMs`. */
  read(operation: string, args: string[], timeoutMs: number): Promise<unknown> {
    return runCommand(this.settings.reader, args, this.subject(operation), timeoutMs);
  }

  private subject(operation: string) {
    return { store: STORE, operation, key: this.stream, keyPrefix: this.settings.registry.keyPrefix };
  }
}

interface Job {
  /** The stream entry id. */
  id: string;
  sub: string;
  /** Its entry in the subscription's open set. */
  member: string;
  after: string;
  kind: 'event' | 'gap';
  position: string;
  payload: string;
  /** Aborted when the server closes or another instance took the job over. */
  lost: AbortController;
}

/** Thrown inside a job when it was lost; ends it without settling. */
const LOST = Symbol('lost');

export class WebhookConsumer {
  private readonly registry: RedisWebhookRegistry;
  private readonly redis: QueueCommands;
  private readonly halt = new AbortController();
  private readonly jobs = new Map<string, { job: Job; done: Promise<void> }>();
  private readonly slotFreed = new Wakeup();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly consuming: Promise<void>;
  private readerId: string | undefined;

  constructor(
    private readonly settings: QueueSettings,
    private readonly context: WebhookDeliveryContext,
    private readonly attempts: WebhookAttempts,
  ) {
    this.registry = settings.registry;
    this.redis = new QueueCommands(settings);
    this.heartbeat = setInterval(() => void this.keepJobs(), settings.reclaimIdleMs / 3);
    this.consuming = this.consume();
  }

  /** Stops reading, abandons the jobs in flight to the others (unsettled) and waits for all of it. */
  async close(): Promise<void> {
    this.halt.abort();
    clearInterval(this.heartbeat);
    for (const { job } of this.jobs.values()) job.lost.abort();
    this.slotFreed.wake();
    if (this.readerId !== undefined) {
      await this.redis.command('close', ['CLIENT', 'UNBLOCK', this.readerId]).catch(() => {});
    }
    await this.consuming;
    await Promise.allSettled([...this.jobs.values()].map(({ done }) => done));
  }

  /** Reads (and reclaims) jobs while there are free slots, until closed; backs off while Redis is away. */
  private async consume(): Promise<void> {
    const { consumer, concurrency, reclaimIdleMs, timeoutMs } = this.settings;
    const blockMs = Math.max(1, Math.min(MAX_BLOCK_MS, Math.floor(reclaimIdleMs / 2)));
    let failures = 0;
    let grouped = false;
    let nextReclaim = 0;
    let reclaimFrom = '0-0';
    while (!this.halt.signal.aborted) {
      try {
        if (!grouped) {
          await this.createGroup();
          grouped = true;
        }
        const free = concurrency - this.jobs.size;
        if (free <= 0) {
          await this.slotFreed.wait();
          continue;
        }
        if (Date.now() >= nextReclaim) {
          nextReclaim = Date.now() + reclaimIdleMs / 2;
          const [next, entries] = (await this.redis.command('reclaim', [
            'XAUTOCLAIM',
            this.redis.stream,
            GROUP,
            consumer,
            String(reclaimIdleMs),
            reclaimFrom,
            'COUNT',
            String(free),
          ])) as [string, RawEntry[]];
          reclaimFrom = String(next);
          this.take(entries);
          await this.registry.sync();
          continue;
        }
        this.readerId ??= String(await this.redis.read('clientId', ['CLIENT', 'ID'], timeoutMs));
        if (this.halt.signal.aborted) break;
        const reply = await this.redis.read(
          'read',
          [
            'XREADGROUP',
            'GROUP',
            GROUP,
            consumer,
            'COUNT',
            String(free),
            'BLOCK',
            String(blockMs),
            'STREAMS',
            this.redis.stream,
            '>',
          ],
          blockMs + timeoutMs,
        );
        this.take(streamEntries(reply));
        if (failures > 0)
          this.context.logger().info(`${STORE} (${this.settings.consumer}): reading deliveries again`);
        failures = 0;
      } catch (error) {
        if (this.halt.signal.aborted) break;
        if (/NOGROUP/.test(describe(error))) grouped = false;
        this.readerId = undefined;
        if (failures === 0) this.warn(`reading webhook deliveries failed, retrying: ${describe(error)}`);
        failures += 1;
        await sleep(backoff(failures), this.halt.signal);
      }
    }
  }

  private async createGroup(): Promise<void> {
    try {
      await this.redis.command('createGroup', [
        'XGROUP',
        'CREATE',
        this.redis.stream,
        GROUP,
        '0',
        'MKSTREAM',
      ]);
    } catch (error) {
      if (!/BUSYGROUP/.test(describe(error instanceof MastraError ? error.cause : error))) throw error;
    }
  }

  private take(entries: RawEntry[]): void {
    for (const entry of entries) {
      if (this.halt.signal.aborted) return;
      const job = parseJob(entry);
      if (!job) {
        this.warn(`dropped a malformed job '${entry[0]}' from '${this.redis.stream}'`);
        void this.redis.command('drop', ['XACK', this.redis.stream, GROUP, String(entry[0])]).catch(() => {});
        continue;
      }
      if (this.jobs.has(job.id)) continue;
      const done = this.process(job).finally(() => {
        this.jobs.delete(job.id);
        this.slotFreed.wake();
      });
      this.jobs.set(job.id, { job, done });
    }
  }

  /** A job's attempts, until its final outcome (settled) or until it is lost (left pending). */
  private async process(job: Job): Promise<void> {
    const { retry } = this.context.options;
    const attemptsKey = this.registry.key('attempts');
    try {
      let done = Number(
        await this.retrying(job, 'attempts', () =>
          this.redis.command('attempts', ['HGET', attemptsKey, job.id]),
        ),
      );
      let item: DeliveryItem | undefined;
      for (;;) {
        const record = await this.retrying(job, 'subscription', () => this.registry.get(job.sub));
        if (!record?.status.active) break;
        item ??=
          job.kind === 'gap'
            ? this.attempts.gap(record, job.position)
            : { kind: 'event', event: { position: job.position, occurrence: JSON.parse(job.payload) } };
        if (done >= retry.attempts) {
          await this.attempts.abandon(record);
          break;
        }
        done = Number(
          await this.retrying(job, 'attempts', () =>
            this.redis.command('attempts', ['HINCRBY', attemptsKey, job.id, '1']),
          ),
        );
        const outcome = await this.attempts.post(record, item, job.after, job.lost.signal);
        if (job.lost.signal.aborted) throw LOST;
        if (outcome.kind === 'delivered' || outcome.kind === 'rejected') break;
        if (outcome.kind === 'oversized') {
          // Never sent, so it leaves the gap sent in its place all the attempts (here).
          await this.attempts.abandon(record);
          item = outcome.gap;
          done -= 1;
          continue;
        }
        if (outcome.kind === 'final' || done >= retry.attempts) {
          await this.attempts.abandon(record);
          break;
        }
        await sleep(this.attempts.delay(done), job.lost.signal);
      }
      const open = this.registry.key('open', job.sub);
      await this.retrying(job, 'settle', () =>
        this.redis.script(
          'settle',
          SETTLE,
          [this.redis.stream, open, attemptsKey],
          [GROUP, job.id, job.member],
        ),
      );
    } catch (error) {
      if (error !== LOST) this.warn(`webhook delivery ${job.id} of ${job.sub} failed: ${describe(error)}`);
    }
  }

  /** Runs `work` until Redis answers; throws LOST once the job is lost. */
  private async retrying<T>(job: Job, what: string, work: () => Promise<T>): Promise<T> {
    for (let failures = 0; ; failures += 1) {
      if (job.lost.signal.aborted) throw LOST;
      try {
        return await work();
      } catch (error) {
        if (failures === 0) {
          this.warn(`webhook delivery ${job.id} of ${job.sub}: ${what} failed, retrying: ${describe(error)}`);
        }
        await sleep(backoff(failures + 1), job.lost.signal);
      }
    }
  }

  /** Re-claims the jobs in flight so no one takes them over; stops those another instance took. */
  private async keepJobs(): Promise<void> {
    if (this.jobs.size === 0) return;
    try {
      const lost = (await this.redis.script(
        'keep',
        KEEP,
        [this.redis.stream],
        [GROUP, this.settings.consumer, ...this.jobs.keys()],
      )) as string[];
      for (const id of lost) this.jobs.get(String(id))?.job.lost.abort();
    } catch {
      // Redis is away: the consumer loop reports it; the jobs keep trying.
    }
  }

  /** Failures are errors: deliveries wait until they pass. */
  private warn(message: string): void {
    this.context.logger().error(`${STORE} (${this.settings.consumer}): ${message}`);
  }
}

/** 100 ms doubling up to MAX_BACKOFF_MS. */
const backoff = (failures: number) => Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(failures, 10));

/** A stream entry as Redis sends it: its id and flat field/value list (null once deleted). */
type RawEntry = [string, string[] | null];

/** XREADGROUP's entries: RESP2 `[[stream, entries]]`, RESP3 `{stream: entries}`, or null. */
function streamEntries(reply: unknown): RawEntry[] {
  if (!reply) return [];
  const streams: unknown[] = Array.isArray(reply)
    ? reply.map((stream) => (stream as [string, RawEntry[]])[1])
    : reply instanceof Map
      ? [...reply.values()]
      : Object.values(reply as object);
  return streams.flat() as RawEntry[];
}

function parseJob([id, flat]: RawEntry): Job | undefined {
  const fields = fieldsOf(flat ?? []);
  const sub = fields.get('sub');
  const kind = fields.get('kind');
  if (!sub || (kind !== 'event' && kind !== 'gap')) return undefined;
  const after = fields.get('after') ?? '';
  return {
    id: String(id),
    sub,
    member: `${fields.get('seq')}:${after}`,
    after,
    kind,
    position: fields.get('position') ?? '',
    payload: fields.get('payload') ?? '',
    lost: new AbortController(),
  };
}
