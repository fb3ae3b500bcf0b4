/**
 * `notifications/tasks` on one server connection. The tasks being followed are named in the
 * connection's managed `subscriptions/listen` filter (`taskIds`); each notification goes to the
 * followers of its task. A follower polls at the server's interval until the open stream told it
 * something about its task, and only as a backstop after that: the server then pushes each change.
 */
import type { Client } from '@modelcontextprotocol/client';
import { type DetailedTask, TASKS_EXTENSION_ID } from '../../shared/tasks-wire.js';

/** Whether the connected server offers the extension (it is served on 2026-07-28 only). */
export function offersTasks(client: Client): boolean {
  return (
    client.getProtocolEra() === 'modern' &&
    TASKS_EXTENSION_ID in (client.getServerCapabilities()?.extensions ?? {})
  );
}

/** A pushed state, or undefined when the stream ended (the follower polls now instead of waiting). */
export type TaskPushListener = (task: DetailedTask | undefined) => void;

export class TaskPush {
  private readonly followers = new Map<string, Set<TaskPushListener>>();
  /** Tasks the open listen stream told something about. */
  private readonly told = new Set<string>();

  /** `changed`: the followed tasks changed, so the listen filter must follow. */
  constructor(private readonly changed: () => void) {}

  /** The followed task ids, sorted (the listen filter's `taskIds`). */
  get taskIds(): string[] {
    return [...this.followers.keys()].sort();
  }

  /** Calls `onTask` with each state pushed for `taskId` until the returned function is called. */
  follow(taskId: string, onTask: TaskPushListener): () => void {
    const set = this.followers.get(taskId) ?? new Set();
    const added = set.size === 0;
    this.followers.set(taskId, set.add(onTask));
    if (added) this.changed();
    return () => {
      if (!set.delete(onTask) || set.size > 0) return;
      this.followers.delete(taskId);
      this.told.delete(taskId);
      // A task no longer followed stays in the stream's filter until the next task is added (a
      // finished task is told no more): one listen request per task, not two. The last one closes it.
      if (this.followers.size === 0) this.changed();
    };
  }

  /** A `notifications/tasks` arrived. */
  deliver(task: DetailedTask): void {
    const set = this.followers.get(task.taskId);
    if (!set) return;
    this.told.add(task.taskId);
    for (const onTask of [...set]) onTask(task);
  }

  /** Whether the open stream pushes `taskId`'s changes (it told something about it). */
  pushes(taskId: string): boolean {
    return this.told.has(taskId);
  }

  /**
   * The listen stream was replaced or `ended`: nothing is known to be pushed any more. A new stream
   * tells each followed task's state when it opens; after an end, followers waiting for pushes
   * that will not come poll at once.
   */
  streamChanged(ended: boolean): void {
    const waiting = ended ? [...this.told].flatMap((taskId) => [...(this.followers.get(taskId) ?? [])]) : [];
    this.told.clear();
    for (const onTask of waiting) onTask(undefined);
  }
}
