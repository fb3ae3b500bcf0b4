/**
 * The wire of the MCP Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`, the 2026-07-28
 * form), shared by the client and the server: identifiers, method and notification names, the
 * task shapes and the zod schemas of every params object.
 *
 * Invariants: definitions only, no client or server behaviour. Object schemas are loose (unknown
 * members pass through) so either side accepts what a newer peer adds.
 */
import { z } from 'zod';

/** The extension identifier, a key of `capabilities.extensions`. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** The per-request `_meta` key that carries the client's capabilities on 2026-07-28. */
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

export const TASKS_METHODS = {
  get: 'tasks/get',
  update: 'tasks/update',
  cancel: 'tasks/cancel',
} as const;
export type TasksMethod = (typeof TASKS_METHODS)[keyof typeof TASKS_METHODS];

/** The notification that pushes a task's state (a `DetailedTask`) on a `subscriptions/listen` stream. */
export const TASKS_NOTIFICATION = 'notifications/tasks';

/** The `subscriptions/listen` filter member (and acknowledgement member) naming the followed tasks. */
export const LISTEN_TASK_IDS_KEY = 'taskIds';

/**
 * The tool `_meta` key that says whether a tool may answer with a task (`optional` or `required`):
 * the 2026-07-28 wire has no `execution.taskSupport`, which the SDK removes from tool lists.
 */
export const TASK_SUPPORT_META_KEY = 'mastra/taskSupport';

/** JSON-RPC code of a request the server cannot serve without a capability the client did not declare. */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

/** The `data` of that error for this extension, exactly as the specification shows it. */
export const TASKS_REQUIRED_DATA = { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } };

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** One server-to-client request a task waits on (an `elicitation/create`, in this package). */
export interface TaskInputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** A JSON-RPC error object, as a `failed` task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** The task metadata every task answer carries. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** From creation, integer milliseconds; null for unlimited. */
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** A task with its status's payload inlined, as `tasks/get` and `notifications/tasks` carry it. */
export interface DetailedTask extends Task {
  inputRequests?: Record<string, TaskInputRequest>;
  result?: Record<string, unknown>;
  error?: TaskError;
  /** Result metadata: this package puts the tool's last progress report under {@link TASK_PROGRESS_META_KEY}. */
  _meta?: Record<string, unknown>;
}

/**
 * The `_meta` key of a task's last progress report (`{ progress, total? }`, as a tool reported it):
 * a task has no progress fields, and a `notifications/progress` cannot outlive the request that
 * created the task, so the task's state carries it beside `statusMessage`.
 */
export const TASK_PROGRESS_META_KEY = 'mastra/progress';

export interface TaskProgress {
  progress: number;
  total?: number;
}

/** The progress a task's state carries, when it carries a well-formed one. */
export function taskProgressOf(task: { _meta?: unknown }): TaskProgress | undefined {
  const meta = task._meta as Record<string, unknown> | undefined;
  const value = meta?.[TASK_PROGRESS_META_KEY] as { progress?: unknown; total?: unknown } | undefined;
  if (typeof value?.progress !== 'number' || !Number.isFinite(value.progress)) return undefined;
  const { total } = value;
  return typeof total === 'number' && Number.isFinite(total)
    ? { progress: value.progress, total }
    : { progress: value.progress };
}

const TaskId = z.string().min(1).max(256);

/** `params.notifications.taskIds` of a `subscriptions/listen` request. */
export const ListenTaskIdsSchema = z.array(TaskId);

export const GetTaskParamsSchema = z.looseObject({ taskId: TaskId });
export const CancelTaskParamsSchema = z.looseObject({ taskId: TaskId });
/** `inputResponses` is not here: the SDK lifts it out of the params (`ctx.mcpReq.inputResponses`). */
export const UpdateTaskParamsSchema = z.looseObject({ taskId: TaskId });

const TaskStatusSchema = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** A `tasks/get` answer (and a `notifications/tasks` payload): the task with its status's payload. */
export const DetailedTaskSchema = z.looseObject({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.number().nullable(),
  pollIntervalMs: z.number().optional(),
  inputRequests: z
    .record(
      z.string(),
      z.looseObject({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() }),
    )
    .optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/** The empty acknowledgement of `tasks/update` and `tasks/cancel`. */
export const TaskAckSchema = z.looseObject({});

/** Whether per-request client capabilities (the `_meta` envelope's value) declare the extension. */
export function declaresTasks(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION_ID in extensions;
}

/** Client capabilities with the extension declared besides what they declare. */
export function withTasksDeclared<T extends { extensions?: object }>(capabilities: T): T {
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION_ID]: {} } };
}
