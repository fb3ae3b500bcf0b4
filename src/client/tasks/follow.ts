/**
 * Follows one task to its end: takes the states the server pushes on the connection's listen
 * stream (`notifications/tasks`), and polls `tasks/get` at the server's `pollIntervalMs` until a
 * push arrived for it (then only as a backstop, every ten intervals); answers each
 * new input request once (keys are unique over a task's life) through what answers its kind
 * (task-input.ts) and `tasks/update`, reports status and progress changes, and resolves with the
 * tool's result once `completed`. `failed` and `cancelled` reject with the task's error. The abort
 * signal cancels the task (`tasks/cancel`). A poll that cannot reach the server is retried by task
 * id, through reconnects and server restarts, until the outage lasts longer than the connection
 * allows (`max(60 s, 3 × timeout)`).
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { sleep } from '../../shared/sleep.js';
import { type DetailedTask, type Task, taskProgressOf } from '../../shared/tasks-wire.js';
import type { ServerConnection } from '../connection.js';
import { findCause, messageOf } from '../errors.js';
import { cancelTask, getTask, updateTask } from './requests.js';
import { answerTaskInput } from './task-input.js';

/** Polls no faster than this, whatever the server suggests. */
const MIN_POLL_INTERVAL_MS = 50;
/** The interval when the server suggests none. */
const DEFAULT_POLL_INTERVAL_MS = 1000;
/** The longest wait between retries of a poll that failed to reach the server. */
const MAX_RETRY_DELAY_MS = 10_000;
/**
 * While the listen stream pushes a task's changes, polls still run this many intervals apart (and
 * at least `MIN_BACKSTOP_MS`): a push can be lost (a stream replaced, a pub/sub message dropped).
 */
const BACKSTOP_INTERVALS = 10;
const MIN_BACKSTOP_MS = 5000;

export interface FollowOptions {
  /** Cancels the task (`tasks/cancel`) and rejects with its reason. */
  signal?: AbortSignal;
  /** Each new status, status message or progress report. */
  onStatus?: (task: DetailedTask) => void;
  /** What the task is, for messages: `MCP tool 'x' on server 'y'`, or the task alone. */
  what?: string;
}

function describe(connection: ServerConnection, taskId: string, what: string | undefined): string {
  return `${what ?? `MCP server '${connection.name}'`}: task ${taskId}`;
}

/** The terminal task as its result, or the error it ended with. */
function settledResult(
  connection: ServerConnection,
  task: DetailedTask,
  what?: string,
): CallToolResult | undefined {
  const label = describe(connection, task.taskId, what);
  const details = { server: connection.name, taskId: task.taskId };
  if (task.status === 'completed') {
    // The result as a direct answer gives it: `resultType` frames the task's payload, not the tool's.
    const { resultType: _framing, ...result } = task.result ?? { content: [] };
    return result as CallToolResult;
  }
  if (task.status === 'failed') {
    const error = task.error ?? { code: -32603, message: task.statusMessage ?? 'no error was given' };
    throw mcpError(
      MCPErrorCode.CLIENT_TASK_FAILED,
      `${label} failed: ${error.message} (JSON-RPC ${error.code})`,
      {
        ...details,
        code: error.code,
        ...(error.data !== undefined ? { data: JSON.stringify(error.data) } : {}),
      },
    );
  }
  if (task.status === 'cancelled') {
    throw mcpError(
      MCPErrorCode.CLIENT_TASK_CANCELLED,
      `${label} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
      details,
    );
  }
  return undefined;
}

/**
 * Answers the input requests not answered yet, each once (task-input.ts); one that cannot be
 * answered (no handler, a denial, a failure) cancels the task, which would wait for it in vain.
 */
async function answer(
  connection: ServerConnection,
  task: DetailedTask,
  answered: Set<string>,
  signal: AbortSignal,
  label: string,
): Promise<void> {
  const pending = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
  if (pending.length === 0) return;
  const inputResponses: Record<string, unknown> = {};
  for (const [key, request] of pending) {
    answered.add(key);
    try {
      inputResponses[key] = await answerTaskInput(connection, key, request, signal, label);
    } catch (error) {
      if (!signal.aborted) await cancelTask(connection, task.taskId).catch(() => {});
      throw error;
    }
  }
  await updateTask(connection, task.taskId, inputResponses, signal);
}

/** Whether `error` came from the server (it answered), rather than from reaching it. */
function fromServer(error: unknown): boolean {
  return findCause(error, ProtocolError) !== undefined;
}

export async function followTask(
  connection: ServerConnection,
  created: Task,
  { signal, onStatus, what }: FollowOptions = {},
): Promise<CallToolResult> {
  const label = describe(connection, created.taskId, what);
  // Waits end when the caller gives up or the client disconnects, whichever comes first.
  const stopped = signal ? AbortSignal.any([signal, connection.closedSignal]) : connection.closedSignal;
  const answered = new Set<string>();
  const outageLimit = Math.max(60_000, 3 * connection.timeout);
  let task: DetailedTask = created;
  let seen = '';
  let failingSince: number | undefined;
  const cancel = () => void cancelTask(connection, created.taskId).catch(() => {});
  signal?.addEventListener('abort', cancel, { once: true });
  // States the server pushes (notifications/tasks) end the wait for the next poll.
  let pushed: DetailedTask | undefined;
  let wake: (() => void) | undefined;
  const unfollow = connection.taskPush.follow(created.taskId, (next) => {
    pushed = next ?? pushed;
    wake?.();
  });
  try {
    for (;;) {
      stopped.throwIfAborted();
      const state = `${task.status}\u0000${task.statusMessage ?? ''}\u0000${JSON.stringify(taskProgressOf(task) ?? null)}`;
      if (state !== seen) {
        seen = state;
        onStatus?.(task);
      }
      const settled = settledResult(connection, task, what);
      if (settled) return settled;
      if (task.status === 'input_required') await answer(connection, task, answered, stopped, label);
      const interval = Math.max(MIN_POLL_INTERVAL_MS, task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
      const delay =
        failingSince !== undefined
          ? Math.min(MAX_RETRY_DELAY_MS, interval * 2)
          : connection.taskPush.pushes(created.taskId)
            ? Math.max(MIN_BACKSTOP_MS, BACKSTOP_INTERVALS * interval)
            : interval;
      if (!pushed)
        await sleep(delay, stopped, (done) => {
          wake = done;
        });
      wake = undefined;
      stopped.throwIfAborted();
      if (pushed) {
        task = pushed;
        pushed = undefined;
        continue;
      }
      try {
        task = await getTask(connection, created.taskId, signal);
        failingSince = undefined;
      } catch (error) {
        stopped.throwIfAborted();
        if (fromServer(error)) throw notFoundOr(error, connection, created.taskId, label);
        failingSince ??= Date.now();
        if (Date.now() - failingSince > outageLimit) throw error;
        connection.log('warning', `${label}: polling failed, retrying: ${messageOf(error)}`);
      }
    }
  } finally {
    unfollow();
    signal?.removeEventListener('abort', cancel);
  }
}

/** A server error on a poll: -32602 means the task is gone (expired, unknown, another caller's). */
export function notFoundOr(
  error: unknown,
  connection: ServerConnection,
  taskId: string,
  label: string,
): unknown {
  const code = findCause(error, ProtocolError)?.code;
  if (code !== -32602) return error;
  return mcpError(
    MCPErrorCode.CLIENT_TASK_NOT_FOUND,
    `${label} is not known to the server any more (it expired, was never created, or belongs to another caller): ${messageOf(error)}`,
    { server: connection.name, taskId },
    error,
  );
}
