/**
 * The default task store: one process's memory. Expired tasks are dropped on the next access
 * after their `expiresAt`; beyond `maxTasks` the oldest finished task goes first, and a store full
 * of unfinished ones refuses new tasks (the server's own caps keep it from getting there).
 */
import { MCPErrorCode, mcpError } from '../../errors.js';
import { isTerminal } from '../../shared/tasks-wire.js';
import type {
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskUpdate,
} from './types.js';

export interface InMemoryMCPTaskStoreOptions {
  /** Tasks kept, finished ones included. Default 10 000. */
  maxTasks?: number;
}

/** Expired tasks are looked for at most this often. */
const SWEEP_INTERVAL_MS = 1000;

export class InMemoryMCPTaskStore implements MCPTaskStore {
  private readonly tasks = new Map<string, MCPStoredTask>();
  private readonly listeners = new Set<MCPTaskStoreListener>();
  private readonly maxTasks: number;
  private nextSweep = 0;

  constructor(options: InMemoryMCPTaskStoreOptions = {}) {
    this.maxTasks = Math.max(1, options.maxTasks ?? 10_000);
  }

  /** Tasks held, expired ones not yet swept included (for tests and introspection). */
  get size(): number {
    return this.tasks.size;
  }

  async create(task: MCPStoredTask): Promise<void> {
    this.sweep();
    if (this.tasks.size >= this.maxTasks && !this.dropOldestFinished()) {
      throw mcpError(
        MCPErrorCode.SERVER_TASKS_STORE_FULL,
        `The in-memory task store holds ${this.maxTasks} unfinished tasks (its maxTasks option); finish or cancel some first`,
        { limit: 'maxTasks' },
      );
    }
    this.tasks.set(task.taskId, { ...task });
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

  private live(taskId: string): MCPStoredTask | undefined {
    this.sweep();
    const task = this.tasks.get(taskId);
    if (task?.expiresAt !== undefined && task.expiresAt <= Date.now()) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  private sweep(): void {
    const now = Date.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [taskId, task] of this.tasks) {
      if (task.expiresAt !== undefined && task.expiresAt <= now) this.tasks.delete(taskId);
    }
  }

  /** Map order is creation order: the first finished task found is the oldest. */
  private dropOldestFinished(): boolean {
    for (const [taskId, task] of this.tasks) {
      if (isTerminal(task.status)) {
        this.tasks.delete(taskId);
        return true;
      }
    }
    return false;
  }
}
