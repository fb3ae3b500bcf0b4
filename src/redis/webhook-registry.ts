/**
 * Webhook subscriptions in Redis, shared by every instance of a server: one hash per subscription
 * (`<prefix>sub:<id>`, expiring with the subscription through PEXPIREAT), sorted sets indexing the
 * live ones by expiry (`<prefix>subs` for the cap, `<prefix>event:<name>` for fan-out,
 * `<prefix>suspended`), and `<prefix>verified:<digest>` for (principal, URL) pairs that passed the
 * handshake. Everything that reads then writes runs as one Lua script, so the cap holds across
 * instances and a write never resurrects a subscription that expired or was removed meanwhile.
 *
 * The delivery queue (webhook-queue.ts) keeps two fields here: `last` (the position of the newest
 * occurrence enqueued) and `seq`, plus `<prefix>open:<id>`, the unsettled jobs as `<seq>:<after>`
 * scored by seq; the watermark is the `after` of the oldest unsettled job, else `last`.
 */
import { createHash } from 'node:crypto';
import type { WebhookRecord, WebhookRefresh, WebhookRegistry, WebhookReport } from '../server/store-kit.js';
import type { DeliveryStatus, WebhookErrorCategory } from '../shared/events-wire.js';
import { type RedisCommandClient, runCommand } from './command.js';
import type { RedisScript } from './script.js';
import { COUNTS, CREATE, DELETE, GET, LIST, REFRESH, REPORT } from './webhook-scripts.js';

const STORE = 'RedisWebhookRegistry';

export interface RedisWebhookRegistryOptions {
  client: RedisCommandClient;
  keyPrefix: string;
  timeoutMs: number;
}

export class RedisWebhookRegistry implements WebhookRegistry {
  readonly keyPrefix: string;
  private readonly client: RedisCommandClient;
  private readonly timeoutMs: number;
  private known = { subscriptions: 0, suspended: 0 };

  constructor(options: RedisWebhookRegistryOptions) {
    this.client = options.client;
    this.keyPrefix = options.keyPrefix;
    this.timeoutMs = options.timeoutMs;
  }

  /** The full key of one of the registry's keys. */
  key(...parts: string[]): string {
    return this.keyPrefix + parts.join(':');
  }

  counts() {
    return { ...this.known };
  }

  /** Reads the counts again (they are cached for the synchronous `stats()`). */
  async sync(): Promise<void> {
    const [subscriptions, suspended] = (await this.eval(
      'counts',
      COUNTS,
      [this.key('subs'), this.key('suspended')],
      [String(Date.now())],
    )) as [number, number];
    this.known = { subscriptions: Number(subscriptions), suspended: Number(suspended) };
  }

  async get(id: string) {
    const reply = await this.eval('get', GET, [this.key('sub', id), this.key('open', id)], []);
    return reply ? decodeRecord(id, reply as RecordReply) : undefined;
  }

  async list(name?: string) {
    const index = name === undefined ? this.key('subs') : this.key('event', name);
    const reply = (await this.eval(
      'list',
      LIST,
      [index],
      [String(Date.now()), this.keyPrefix],
    )) as RecordReply[];
    return reply.map((entry) => decodeRecord(undefined, entry));
  }

  async create(record: WebhookRecord, max: number) {
    const { id } = record;
    const fields = {
      id,
      principal: record.principal,
      url: record.url,
      name: record.name,
      args: JSON.stringify(record.args),
      secret: record.secret,
      expiresAt: String(record.expiresAt),
      active: '1',
      abandoned: '0',
      last: record.watermark,
      seq: '0',
    };
    const outcome = (await this.eval(
      'create',
      CREATE,
      [
        this.key('sub', id),
        this.key('subs'),
        this.key('event', record.name),
        this.key('open', id),
        this.key('suspended'),
      ],
      [String(Date.now()), String(max), String(record.expiresAt), id, ...Object.entries(fields).flat()],
    )) as 'created' | 'exists' | 'full';
    await this.sync().catch(() => {});
    return outcome;
  }

  async refresh(id: string, change: WebhookRefresh) {
    const reply = await this.eval(
      'refresh',
      REFRESH,
      [this.key('sub', id), this.key('subs'), this.key('suspended'), this.key('open', id)],
      [change.secret, String(change.graceUntil), String(change.expiresAt), id, this.keyPrefix],
    );
    if (!reply) return undefined;
    await this.sync().catch(() => {});
    return decodeRecord(id, reply as RecordReply);
  }

  async delete(id: string) {
    const removed = await this.eval(
      'delete',
      DELETE,
      [this.key('sub', id), this.key('subs'), this.key('suspended'), this.key('open', id)],
      [id, this.keyPrefix],
    );
    await this.sync().catch(() => {});
    return Number(removed) === 1;
  }

  async report(id: string, report: WebhookReport) {
    await this.eval(
      'report',
      REPORT,
      [this.key('sub', id), this.key('suspended')],
      [
        report.kind,
        new Date().toISOString(),
        report.kind === 'failed' ? report.error : '',
        String(report.kind === 'abandoned' ? report.suspendAfter : 0),
        id,
      ],
    );
    if (report.kind === 'abandoned') await this.sync().catch(() => {});
  }

  async verified(key: string) {
    const full = this.verifiedKey(key);
    return (await this.run('verified', full, ['GET', full])) !== null;
  }

  async markVerified(key: string, ttlMs: number) {
    const full = this.verifiedKey(key);
    await this.run('markVerified', full, ['SET', full, '1', 'PX', String(Math.max(1, Math.round(ttlMs)))]);
  }

  /** Runs a script; errors name the operation and its first key. */
  private eval(operation: string, script: RedisScript, keys: string[], args: string[]): Promise<unknown> {
    return script.run(this.client, keys, args, this.subject(operation, keys[0] ?? ''), this.timeoutMs);
  }

  private run(operation: string, key: string, command: string[]): Promise<unknown> {
    return runCommand(this.client, command, this.subject(operation, key), this.timeoutMs);
  }

  private subject(operation: string, key: string) {
    return { store: STORE, operation, key, keyPrefix: this.keyPrefix };
  }

  private verifiedKey(key: string): string {
    return this.key('verified', createHash('sha256').update(key).digest('hex').slice(0, 32));
  }
}

/** HGETALL's flat field/value list, and the oldest unsettled job (`[]` or `['<seq>:<after>']`). */
type RecordReply = [string[], string[]];

/** A hash or stream entry's flat field/value list as a map. */
export function fieldsOf(flat: unknown[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), String(flat[i + 1]));
  return fields;
}

function decodeRecord(id: string | undefined, [flat, oldest]: RecordReply): WebhookRecord {
  const fields = fieldsOf(flat);
  const text = (field: string) => fields.get(field) ?? '';
  const optional = (field: string) => fields.get(field) ?? null;
  const prevSecret = fields.get('prevSecret');
  const open = oldest[0];
  const status: DeliveryStatus = {
    active: text('active') === '1',
    lastDeliveryAt: optional('lastDeliveryAt'),
    lastError: optional('lastError') as WebhookErrorCategory | null,
    failedSince: optional('failedSince'),
  };
  return {
    id: id ?? text('id'),
    principal: text('principal'),
    url: text('url'),
    name: text('name'),
    args: JSON.parse(text('args') || '{}') as Record<string, unknown>,
    secret: text('secret'),
    previous: prevSecret ? { secret: prevSecret, until: Number(text('prevUntil')) } : undefined,
    expiresAt: Number(text('expiresAt')),
    status,
    abandonedInRow: Number(text('abandoned')),
    watermark: open === undefined ? text('last') : open.slice(open.indexOf(':') + 1),
  };
}
