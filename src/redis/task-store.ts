/**
 * `MCPTaskStore` in Redis, shared by every instance of one MCPServer id: any instance answers
 * `tasks/get`, `tasks/update` and `tasks/cancel` for any task, and the instance running a task
 * hears the answers and cancels other instances received.
 *
 * Layout under `<keyPrefix><serverId>:`: `task:<taskId>` (a hash: each field's JSON, opaque to
 * the scripts, so results come back exactly; expiring at its `expiresAt`), the accounting of
 * finished tasks (`held*`, see task-store-scripts.ts), `instance:<instanceId>` (a heartbeat key
 * that expires unless renewed: an instance whose key is gone stopped, and its unfinished tasks are
 * reported failed), and the pub/sub channel `signals` (answers and cancels for the instance
 * running the task, and each applied update, published by the update script itself, for the
 * instances whose listen streams follow it).
 *
 * Every write resolves once Redis acknowledged it (a task is stored before its CreateTaskResult
 * is sent). An update is one script that keeps a terminal status as it is, so a cancel that won
 * the race is what every instance reads; the update that finishes a task also keeps finished
 * tasks within their bounds (count and bytes, per server and per principal), deleting the ones
 * that expire first. Signals use pub/sub, which is at most once: an answer lost while the running
 * instance reconnects to Redis is sent again by the client, which polls and sees the input
 * request still pending.
 */

import { asError } from '../errors.js';
import type {
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskUpdate,
} from '../server/store-kit.js';
import { DEFAULT_REDIS_TIMEOUT_MS, type RedisCommandClient, runCommand } from './command.js';
import { invalidOption, positiveOption, type RedisOperation } from './errors.js';
import type { RedisSubscriberClient } from './event-bus.js';
import type { RedisScript } from './script.js';
import { CREATE, UPDATE } from './task-store-scripts.js';
import { fieldsOf } from './webhook-registry.js';

const STORE = 'RedisMCPTaskStore';

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
  /**
   * Bytes finished tasks of this server id hold, counted as their fields' JSON (Redis' own
   * overhead, about 1.1 KiB a task with its accounting, comes on top: `maxFinishedTasks` bounds
   * it); beyond it the tasks that finished first are deleted, and `tasks/get` answers -32602 as
   * for an unknown task. Default 256 MiB.
   */
  maxFinishedTaskBytes?: number;
  /** The same per principal (anonymous callers share one budget). Default 32 MiB. */
  maxFinishedTaskBytesPerPrincipal?: number;
  /** Finished tasks of this server id kept; beyond it, as above. Default 10 000. */
  maxFinishedTasks?: number;
  /** The same per principal (anonymous callers share one budget). Default 1000. */
  maxFinishedTasksPerPrincipal?: number;
}

const MiB = 1024 * 1024;

export class RedisMCPTaskStore implements MCPTaskStore {
  readonly keyPrefix: string;
  private readonly client: RedisCommandClient;
  private readonly subscriber: RedisSubscriberClient;
  private readonly base: string;
  private readonly channel: string;
  private readonly timeoutMs: number;
  private readonly onError: (error: Error) => void;
  /** The bounds of finished tasks, as the update script takes them (ARGV 7 to 10). */
  private readonly bounds: string[];
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
    const bound = (field: keyof RedisMCPTaskStoreOptions & `max${string}`, fallback: number) =>
      String(positiveOption(STORE, field, options[field], true) ?? fallback);
    this.bounds = [
      bound('maxFinishedTaskBytes', 256 * MiB),
      bound('maxFinishedTaskBytesPerPrincipal', 32 * MiB),
      bound('maxFinishedTasks', 10_000),
      bound('maxFinishedTasksPerPrincipal', 1000),
    ];
  }

  async create(task: MCPStoredTask): Promise<void> {
    const key = this.taskKey(task.taskId);
    await this.script('create', CREATE, key, [String(task.expiresAt ?? ''), ...encode(task)]);
  }

  async get(taskId: string): Promise<MCPStoredTask | undefined> {
    return decode(await this.command('get', `task:${taskId}`, (key) => ['HGETALL', key]));
  }

  async update(
    taskId: string,
    update: MCPTaskUpdate,
    expect?: { instanceId: string },
  ): Promise<MCPStoredTask | undefined> {
    const removed = Object.entries(update)
      .filter(([, value]) => value === undefined)
      .map(([field]) => field);
    const key = this.taskKey(taskId);
    const reply = await this.script('update', UPDATE, key, [
      taskId,
      expect ? JSON.stringify(expect.instanceId) : '',
      JSON.stringify(new Date().toISOString()),
      this.channel,
      JSON.stringify({ taskId, changed: true }),
      this.base,
      ...this.bounds,
      String(removed.length),
      ...removed,
      ...encode(update),
    ]);
    return decode(reply);
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
      .catch((error: unknown) => this.onError(asError(error)));
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

  private taskKey(taskId: string): string {
    return `${this.base}task:${taskId}`;
  }

  private command(operation: string, key: string, args: (fullKey: string) => string[]): Promise<unknown> {
    const full = this.base + key;
    return runCommand(this.client, args(full), this.subject(operation, full), this.timeoutMs);
  }

  private script(operation: string, script: RedisScript, key: string, args: string[]): Promise<unknown> {
    return script.run(this.client, [key], args, this.subject(operation, key), this.timeoutMs);
  }

  private subject(operation: string, key: string): RedisOperation {
    return { store: STORE, operation, key, keyPrefix: this.keyPrefix };
  }
}

/** The fields of `task` set to a value, each with its JSON, as HSET takes them. */
function encode(task: object): string[] {
  return Object.entries(task).flatMap(([field, value]) =>
    value === undefined ? [] : [field, JSON.stringify(value)],
  );
}

/**
 * A task hash, as a script answers it (a flat field/value list) or HGETALL as node-redis hands it
 * over (an object, or a Map with RESP3); undefined when there is none.
 */
function decode(reply: unknown): MCPStoredTask | undefined {
  const fields: Iterable<[unknown, unknown]> = Array.isArray(reply)
    ? fieldsOf(reply)
    : reply instanceof Map
      ? reply
      : Object.entries(reply ?? {});
  const task: Record<string, unknown> = {};
  for (const [field, json] of fields) task[String(field)] = JSON.parse(String(json));
  return Object.keys(task).length > 0 ? (task as unknown as MCPStoredTask) : undefined;
}
