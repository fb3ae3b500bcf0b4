/**
 * `MCPTaskStore` in Redis, shared by every instance of one MCPServer id: any instance answers
 * `tasks/get`, `tasks/update` and `tasks/cancel` for any task, and the instance running a task
 * hears the answers and cancels other instances received.
 *
 * Layout under `<keyPrefix><serverId>:`: `task:<taskId>` (the task as JSON, expiring at its
 * `expiresAt`), `instance:<instanceId>` (a heartbeat key that expires unless renewed: an instance
 * whose key is gone stopped, and its unfinished tasks are reported failed), and the pub/sub
 * channel `signals` (answers and cancels for the instance running the task, and each applied
 * update, published by the update script itself, for the instances whose listen streams follow it).
 *
 * Every write resolves once Redis acknowledged it (a task is stored before its CreateTaskResult
 * is sent). An update is one script that keeps a terminal status as it is, so a cancel that won
 * the race is what every instance reads. Signals use pub/sub, which is at most once: an answer
 * lost while the running instance reconnects to Redis is sent again by the client, which polls
 * and sees the input request still pending.
 */
import type {
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskUpdate,
} from '../server/tasks/types.js';
import { DEFAULT_REDIS_TIMEOUT_MS, type RedisCommandClient, runCommand } from './command.js';
import { invalidOption, positiveOption, type RedisOperation } from './errors.js';
import type { RedisSubscriberClient } from './event-bus.js';
import { RedisScript } from './script.js';

const STORE = 'RedisMCPTaskStore';

/**
 * Applies an update unless the task is terminal (or, with ARGV[3], runs on another instance);
 * answers the task as stored after it (or nil).
 */
const UPDATE = new RedisScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local task = cjson.decode(raw)
local status = task['status']
if status == 'completed' or status == 'failed' or status == 'cancelled' then return raw end
if ARGV[3] ~= '' and task['instanceId'] ~= ARGV[3] then return raw end
local change = cjson.decode(ARGV[1])
for key, value in pairs(change['set']) do task[key] = value end
for _, key in ipairs(change['unset']) do task[key] = nil end
task['lastUpdatedAt'] = ARGV[2]
local stored = cjson.encode(task)
redis.call('SET', KEYS[1], stored, 'KEEPTTL')
redis.call('PUBLISH', ARGV[4], ARGV[5])
return stored
`);

export interface RedisMCPTaskStoreOptions {
  /** Runs the commands; may be shared with other stores. */
  client: RedisCommandClient;
  /** Hears other instances' answers and cancels; may be shared with a `RedisMCPServerEventBus`. */
  subscriber: RedisSubscriberClient;
  /** The MCPServer's `id`, identical on every instance: it separates servers sharing one Redis. */
  serverId: string;
  /** Default `mastra-mcp:tasks:`; keys are `<keyPrefix><serverId>:...`. */
  keyPrefix?: string;
  /** How long one operation may wait for Redis before it fails with `MCP_REDIS_UNAVAILABLE` (default 2000). */
  timeoutMs?: number;
  /** Problems of the signal channel (nothing else is reported here). Default: `console.warn`. */
  onError?: (error: Error) => void;
}

export class RedisMCPTaskStore implements MCPTaskStore {
  readonly keyPrefix: string;
  private readonly client: RedisCommandClient;
  private readonly subscriber: RedisSubscriberClient;
  private readonly base: string;
  private readonly channel: string;
  private readonly timeoutMs: number;
  private readonly onError: (error: Error) => void;
  private readonly listeners = new Set<MCPTaskStoreListener>();
  private subscribed: Promise<void> | undefined;

  constructor(options: RedisMCPTaskStoreOptions) {
    if (!options?.client) invalidOption(STORE, 'client', 'must be a connected node-redis client');
    if (!options.subscriber)
      invalidOption(
        STORE,
        'subscriber',
        'must be a connected node-redis client of its own (client.duplicate())',
      );
    if (typeof options.serverId !== 'string' || options.serverId === '')
      invalidOption(STORE, 'serverId', "must be the MCPServer's id (a non-empty string)");
    this.client = options.client;
    this.subscriber = options.subscriber;
    this.keyPrefix = options.keyPrefix ?? 'mastra-mcp:tasks:';
    this.base = `${this.keyPrefix}${options.serverId}:`;
    this.channel = `${this.base}signals`;
    this.timeoutMs = positiveOption(STORE, 'timeoutMs', options.timeoutMs) ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.onError = options.onError ?? ((error) => console.warn(error.message));
  }

  async create(task: MCPStoredTask): Promise<void> {
    const expiry = task.expiresAt === undefined ? [] : ['PXAT', String(task.expiresAt)];
    await this.command('create', `task:${task.taskId}`, (key) => [
      'SET',
      key,
      JSON.stringify(task),
      ...expiry,
    ]);
  }

  async get(taskId: string): Promise<MCPStoredTask | undefined> {
    const raw = await this.command('get', `task:${taskId}`, (key) => ['GET', key]);
    return typeof raw === 'string' ? (JSON.parse(raw) as MCPStoredTask) : undefined;
  }

  async update(
    taskId: string,
    update: MCPTaskUpdate,
    expect?: { instanceId: string },
  ): Promise<MCPStoredTask | undefined> {
    const set: Record<string, unknown> = {};
    const unset: string[] = [];
    for (const [key, value] of Object.entries(update)) {
      if (value === undefined) unset.push(key);
      else set[key] = value;
    }
    // cjson encodes an empty table as an object; the task's own fields are never arrays.
    const change = JSON.stringify({ set, unset: unset.length > 0 ? unset : {} });
    const key = `${this.base}task:${taskId}`;
    const raw = await UPDATE.run(
      this.client,
      [key],
      [
        change,
        new Date().toISOString(),
        expect?.instanceId ?? '',
        this.channel,
        JSON.stringify({ taskId, changed: true }),
      ],
      this.subject('update', key),
      this.timeoutMs,
    );
    return typeof raw === 'string' ? (JSON.parse(raw) as MCPStoredTask) : undefined;
  }

  async signal(taskId: string, signal: MCPTaskSignal): Promise<void> {
    await runCommand(
      this.client,
      ['PUBLISH', this.channel, JSON.stringify({ taskId, signal })],
      this.subject('signal', this.channel),
      this.timeoutMs,
    );
  }

  watch(listener: MCPTaskStoreListener): () => void {
    this.listeners.add(listener);
    this.subscribed ??= this.subscriber
      .subscribe(this.channel, this.deliver)
      .catch((error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error))));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      const subscribed = this.subscribed;
      this.subscribed = undefined;
      void subscribed?.then(() => this.subscriber.unsubscribe(this.channel, this.deliver)).catch(() => {});
    };
  }

  async heartbeat(instanceId: string, ttlMs: number): Promise<void> {
    await this.command('heartbeat', `instance:${instanceId}`, (key) => [
      'SET',
      key,
      '1',
      'PX',
      String(ttlMs),
    ]);
  }

  async isAlive(instanceId: string): Promise<boolean> {
    return (await this.command('isAlive', `instance:${instanceId}`, (key) => ['EXISTS', key])) === 1;
  }

  async release(instanceId: string): Promise<void> {
    await this.command('release', `instance:${instanceId}`, (key) => ['DEL', key]);
  }

  private readonly deliver = (message: string): void => {
    let parsed: { taskId?: unknown; signal?: MCPTaskSignal; changed?: unknown };
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const { taskId, signal } = parsed;
    if (typeof taskId !== 'string') return;
    for (const listener of [...this.listeners]) {
      if (signal) listener.signal?.(taskId, signal);
      else if (parsed.changed === true) listener.changed?.(taskId);
    }
  };

  private command(operation: string, key: string, args: (fullKey: string) => string[]): Promise<unknown> {
    const full = this.base + key;
    return runCommand(this.client, args(full), this.subject(operation, full), this.timeoutMs);
  }

  private subject(operation: string, key: string): RedisOperation {
    return { store: STORE, operation, key, keyPrefix: this.keyPrefix };
  }
}
