/**
 * The default task store: one process's memory. A task is kept until its `expiresAt` (a timer set
 * for the next expiry drops it, unref'd and stopped once nothing is left to expire), within bounds
 * no caller can push past:
 *
 * - `maxTasks` tasks in all: beyond it the task that finished first is forgotten, and a store full
 *   of unfinished ones refuses new tasks (the server's own caps keep it from getting there);
 * - `maxFinishedTasksPerPrincipal` finished tasks per principal (the task's owner; anonymous
 *   callers share one budget), forgotten the same way;
 * - what finished tasks hold, as JSON: `maxFinishedTaskBytes` in all and
 *   `maxFinishedTaskBytesPerPrincipal` per principal. Beyond them the tasks that finished first
 *   lose their result, error and status message and keep a note of the bound (`droppedBy`), so
 *   `tasks/get` can say why the result is gone. The task that just finished is kept whole even
 *   when it alone is over a bound: its caller can still read it, until the next one finishes.
 */
import { MCPErrorCode, mcpError } from '../../errors.js';
import { assertOptions, number, type OptionsOf, object } from '../../shared/options.js';
import { isTerminal } from '../../shared/tasks-wire.js';
import { positiveOption } from './options.js';
import type {
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskUpdate,
} from './types.js';

export interface InMemoryMCPTaskStoreOptions {
  /** Tasks kept, finished ones included; beyond it the oldest finished one is forgotten. Default 10 000. */
  maxTasks?: number;
  /** Finished tasks kept per principal (anonymous callers share one budget); the oldest go first. Default 1000. */
  maxFinishedTasksPerPrincipal?: number;
  /**
   * Bytes (as JSON) finished tasks hold in all; beyond it the oldest lose their result and
   * `tasks/get` answers -32602 naming this option. Default 256 MiB.
   */
  maxFinishedTaskBytes?: number;
  /** The same per principal (anonymous callers share one budget). Default 32 MiB. */
  maxFinishedTaskBytesPerPrincipal?: number;
}

const STORE = 'InMemoryMCPTaskStore';
/** Each bound's range is positiveOption()'s to check. */
const OPTIONS = object(
  {
    maxTasks: number,
    maxFinishedTasksPerPrincipal: number,
    maxFinishedTaskBytes: number,
    maxFinishedTaskBytesPerPrincipal: number,
  } satisfies OptionsOf<InMemoryMCPTaskStoreOptions>,
  STORE,
);
const MiB = 1024 * 1024;
/** The budget key of tasks without an owner (owners are prefixed principals, never empty). */
const ANONYMOUS = '';
/** Expiry sweeps run at most this often: tasks expiring close together go in one sweep. */
const SWEEP_INTERVAL_MS = 1000;
/** setTimeout's longest delay; a later expiry is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Finished tasks in the order they finished, and those still holding their outcome with its size. */
class Finished {
  readonly ids = new Set<string>();
  readonly held = new Map<string, number>();
  bytes = 0;

  add(taskId: string, bytes: number): void {
    this.ids.add(taskId);
    this.held.set(taskId, bytes);
    this.bytes += bytes;
  }

  /** The task's outcome is gone: its bytes no longer count. */
  release(taskId: string): void {
    this.bytes -= this.held.get(taskId) ?? 0;
    this.held.delete(taskId);
  }

  delete(taskId: string): void {
    this.release(taskId);
    this.ids.delete(taskId);
  }
}

export class InMemoryMCPTaskStore implements MCPTaskStore {
  private readonly tasks = new Map<string, MCPStoredTask>();
  private readonly listeners = new Set<MCPTaskStoreListener>();
  private readonly finished = new Finished();
  private readonly finishedBy = new Map<string, Finished>();
  private readonly maxTasks: number;
  private readonly maxFinishedTasksPerPrincipal: number;
  private readonly maxFinishedTaskBytes: number;
  private readonly maxFinishedTaskBytesPerPrincipal: number;
  private sweeper: NodeJS.Timeout | undefined;
  private sweepAt = Number.POSITIVE_INFINITY;

  constructor(options: InMemoryMCPTaskStoreOptions = {}) {
    assertOptions(OPTIONS, options, {
      where: STORE,
      label: `the ${STORE} options`,
      code: MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
    });
    const option = (field: keyof InMemoryMCPTaskStoreOptions, fallback: number) =>
      positiveOption(STORE, options[field], fallback, field);
    this.maxTasks = option('maxTasks', 10_000);
    this.maxFinishedTasksPerPrincipal = option('maxFinishedTasksPerPrincipal', 1000);
    this.maxFinishedTaskBytes = option('maxFinishedTaskBytes', 256 * MiB);
    this.maxFinishedTaskBytesPerPrincipal = option('maxFinishedTaskBytesPerPrincipal', 32 * MiB);
  }

  /** Tasks held, expired ones not yet swept included (for tests and introspection). */
  get size(): number {
    return this.tasks.size;
  }

  /** Bytes finished tasks hold, as JSON (for tests and introspection). */
  get finishedBytes(): number {
    return this.finished.bytes;
  }

  async create(task: MCPStoredTask): Promise<void> {
    if (this.tasks.size >= this.maxTasks) {
      const oldest = this.finished.ids.values().next();
      if (oldest.done) {
        throw mcpError(
          MCPErrorCode.SERVER_TASKS_STORE_FULL,
          `The in-memory task store holds ${this.maxTasks} unfinished tasks (its maxTasks option); finish or cancel some first`,
          { limit: 'maxTasks' },
        );
      }
      this.forget(oldest.value);
    }
    const stored = { ...task };
    this.tasks.set(task.taskId, stored);
    if (isTerminal(stored.status)) this.finish(stored);
    this.expireAt(stored.expiresAt);
  }

  async get(taskId: string): Promise<MCPStoredTask | undefined> {
    const task = this.live(taskId);
    return task ? { ...task } : undefined;
  }

  async update(
    taskId: string,
    update: MCPTaskUpdate,
    expect?: { instanceId: string },
  ): Promise<MCPStoredTask | undefined> {
    const task = this.live(taskId);
    if (!task) return undefined;
    if (isTerminal(task.status) || (expect && task.instanceId !== expect.instanceId)) return { ...task };
    for (const [key, value] of Object.entries(update) as [keyof MCPTaskUpdate, unknown][]) {
      if (value === undefined) delete task[key];
      else (task as unknown as Record<string, unknown>)[key] = value;
    }
    task.lastUpdatedAt = new Date().toISOString();
    if (isTerminal(task.status)) this.finish(task);
    for (const listener of [...this.listeners]) listener.changed?.(taskId);
    return { ...task };
  }

  async signal(taskId: string, signal: MCPTaskSignal): Promise<void> {
    for (const listener of [...this.listeners]) listener.signal?.(taskId, signal);
  }

  watch(listener: MCPTaskStoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets every task and stops the expiry timer. */
  async close(): Promise<void> {
    for (const taskId of [...this.tasks.keys()]) this.forget(taskId);
    this.stopSweeping();
  }

  private live(taskId: string): MCPStoredTask | undefined {
    const task = this.tasks.get(taskId);
    if (task?.expiresAt !== undefined && task.expiresAt <= Date.now()) {
      this.forget(taskId);
      return undefined;
    }
    return task;
  }

  /** Counts a task that just finished, then brings its principal and the store back within bounds. */
  private finish(task: MCPStoredTask): void {
    const bytes = Buffer.byteLength(JSON.stringify(task));
    const key = task.owner ?? ANONYMOUS;
    const own = this.finishedBy.get(key) ?? new Finished();
    this.finishedBy.set(key, own);
    own.add(task.taskId, bytes);
    this.finished.add(task.taskId, bytes);
    const keep = task.taskId;
    for (const taskId of own.ids) {
      if (own.ids.size <= this.maxFinishedTasksPerPrincipal) break;
      if (taskId !== keep) this.forget(taskId);
    }
    this.dropWhile(own, this.maxFinishedTaskBytesPerPrincipal, 'maxFinishedTaskBytesPerPrincipal', keep);
    this.dropWhile(this.finished, this.maxFinishedTaskBytes, 'maxFinishedTaskBytes', keep);
  }

  /** Drops the outcome of `finished`'s oldest tasks (never `keep`'s) until they hold at most `max` bytes. */
  private dropWhile(finished: Finished, max: number, option: string, keep: string): void {
    for (const taskId of finished.held.keys()) {
      if (finished.bytes <= max) return;
      if (taskId !== keep) this.drop(taskId, option);
    }
  }

  /** Keeps the finished task without its outcome, noting the bound that dropped it. */
  private drop(taskId: string, option: string): void {
    const task = this.tasks.get(taskId);
    if (!task) return;
    const { result: _result, error: _error, statusMessage: _message, ...rest } = task;
    this.tasks.set(taskId, { ...rest, droppedBy: option });
    this.finished.release(taskId);
    this.finishedBy.get(task.owner ?? ANONYMOUS)?.release(taskId);
  }

  private forget(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (!task) return;
    this.tasks.delete(taskId);
    this.finished.delete(taskId);
    const key = task.owner ?? ANONYMOUS;
    const own = this.finishedBy.get(key);
    own?.delete(taskId);
    if (own?.ids.size === 0) this.finishedBy.delete(key);
    if (this.tasks.size === 0) this.stopSweeping();
  }

  /** Sweeps at `expiresAt` unless a sweep comes sooner. */
  private expireAt(expiresAt: number | undefined): void {
    if (expiresAt === undefined || expiresAt >= this.sweepAt) return;
    clearTimeout(this.sweeper);
    this.sweepAt = expiresAt;
    this.sweeper = setTimeout(
      () => this.sweep(),
      Math.min(Math.max(0, expiresAt - Date.now()), MAX_TIMER_MS),
    );
    this.sweeper.unref();
  }

  private stopSweeping(): void {
    clearTimeout(this.sweeper);
    this.sweeper = undefined;
    this.sweepAt = Number.POSITIVE_INFINITY;
  }

  private sweep(): void {
    this.stopSweeping();
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [taskId, task] of this.tasks) {
      if (task.expiresAt === undefined) continue;
      if (task.expiresAt <= now) this.forget(taskId);
      else next = Math.min(next, task.expiresAt);
    }
    if (next !== Number.POSITIVE_INFINITY) this.expireAt(Math.max(next, now + SWEEP_INTERVAL_MS));
  }
}
