/**
 * `notifications/tasks`: the listen streams of this instance that follow tasks. A stream is told
 * each task's state once when it starts following (the task may have moved on between the
 * client's last look and its listen), then after every change any instance makes (the store's
 * `changed`), the same detailed task `tasks/get` would answer. A task that reached a terminal
 * status is dropped from the streams after it was told.
 *
 * A change announced while the task was being read is read again afterwards, so the last state
 * told is the last one stored; a task is read once more when a stream starts following it, for a
 * change made between the stream's first read and its acknowledgement. A task whose instance died changes no more by itself: while
 * streams follow unfinished tasks, they are checked every `sweepMs` the way `tasks/get` checks
 * them, which fails them (or lets this instance take them over) and so tells the streams.
 */
import { isTerminal } from '../../shared/tasks-wire.js';
import type { MCPStoredTask, MCPTaskStore } from './types.js';

export type WireTask = Record<string, unknown> & { taskId: string };

interface Follower {
  send(task: WireTask): void;
  /** Task id to the JSON last told, so a re-read that found nothing new is not told again. */
  told: Map<string, string>;
}

export interface FollowerDeps {
  store: MCPTaskStore;
  /** The task as the wire shows it. */
  wire(task: MCPStoredTask): WireTask;
  /** Checks an unfinished task the way `tasks/get` does (an orphan is failed or taken over). */
  check(task: MCPStoredTask): Promise<void>;
  sweepMs: number;
  onerror(error: unknown): void;
}

export class TaskFollowers {
  private readonly followers = new Set<Follower>();
  /** Per followed task: the streams following it. */
  private readonly byTask = new Map<string, Set<Follower>>();
  /** Tasks being read, and whether another change came in meanwhile. */
  private readonly reading = new Map<string, { again: boolean }>();
  private unwatch: (() => void) | undefined;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly deps: FollowerDeps) {}

  /** Streams following tasks on this instance (for tests and introspection). */
  get size(): number {
    return this.followers.size;
  }

  /** Tells `send` each of `tasks` now and after each change; the returned function stops it. */
  follow(tasks: MCPStoredTask[], send: (task: WireTask) => void): () => void {
    const follower: Follower = { send, told: new Map() };
    this.followers.add(follower);
    for (const task of tasks) {
      if (!isTerminal(task.status)) {
        const set = this.byTask.get(task.taskId) ?? new Set();
        this.byTask.set(task.taskId, set.add(follower));
      }
      this.tell(follower, task);
    }
    this.unwatch ??= this.deps.store.watch({ changed: (taskId) => this.changed(taskId) });
    if (!this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), this.deps.sweepMs);
      this.sweeper.unref();
    }
    // `tasks` were read before this stream was acknowledged: a change made since then was told to
    // nobody, so each unfinished task is read once more now that changes reach this stream.
    for (const task of tasks) if (!isTerminal(task.status)) this.changed(task.taskId);
    return () => this.unfollow(follower);
  }

  /** Stops every stream's following (the server is closing). */
  close(): void {
    for (const follower of [...this.followers]) this.unfollow(follower);
  }

  private unfollow(follower: Follower): void {
    if (!this.followers.delete(follower)) return;
    for (const taskId of follower.told.keys()) this.drop(taskId, follower);
    if (this.followers.size > 0) return;
    this.unwatch?.();
    this.unwatch = undefined;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private drop(taskId: string, follower: Follower): void {
    const set = this.byTask.get(taskId);
    if (!set?.delete(follower) || set.size > 0) return;
    this.byTask.delete(taskId);
  }

  private tell(follower: Follower, task: MCPStoredTask): void {
    const wire = this.deps.wire(task);
    const json = JSON.stringify(wire);
    if (follower.told.get(task.taskId) === json) return;
    if (isTerminal(task.status)) {
      // Told for the last time: nothing of it is kept (a result can be large).
      follower.told.delete(task.taskId);
      this.drop(task.taskId, follower);
    } else follower.told.set(task.taskId, json);
    try {
      follower.send(wire);
    } catch (error) {
      this.deps.onerror(error);
    }
  }

  private changed(taskId: string): void {
    if (!this.byTask.has(taskId)) return;
    const reading = this.reading.get(taskId);
    if (reading) {
      reading.again = true;
      return;
    }
    void this.read(taskId);
  }

  private async read(taskId: string): Promise<void> {
    const state = { again: false };
    this.reading.set(taskId, state);
    try {
      do {
        state.again = false;
        const task = await this.deps.store.get(taskId);
        for (const follower of [...(this.byTask.get(taskId) ?? [])]) {
          // A task whose outcome the store dropped for a bound has nothing left to tell.
          if (task && task.droppedBy === undefined) this.tell(follower, task);
          else this.drop(taskId, follower);
        }
      } while (state.again && this.byTask.has(taskId));
    } catch (error) {
      this.deps.onerror(error);
    } finally {
      this.reading.delete(taskId);
    }
  }

  private sweep(): void {
    for (const taskId of this.byTask.keys()) {
      void this.deps.store
        .get(taskId)
        .then((task) => (task ? this.deps.check(task) : this.changed(taskId)))
        .catch((error: unknown) => this.deps.onerror(error));
    }
  }
}
