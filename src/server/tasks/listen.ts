/**
 * The task part of a `subscriptions/listen` request (`params.notifications.taskIds`). The SDK
 * serves listen streams and drops filter members it does not know, so each transport takes the
 * task ids out of the request, hands the SDK the rest, adds the task ids this server agreed to
 * follow to the SDK's acknowledgement, and sends `notifications/tasks` on the same stream. This
 * module holds what both transports share: reading the request and shaping what they write.
 */
import { type AuthInfo, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { SUBSCRIPTION_ID_META_KEY } from '../../shared/events-wire.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  declaresTasks,
  LISTEN_TASK_IDS_KEY,
  ListenTaskIdsSchema,
  TASKS_NOTIFICATION,
} from '../../shared/tasks-wire.js';
import { describeIssues } from '../issues.js';
import type { WireTask } from './followers.js';
import type { MCPStoredTask } from './types.js';

export const LISTEN_METHOD = 'subscriptions/listen';
export const ACKNOWLEDGED_NOTIFICATION = 'notifications/subscriptions/acknowledged';

type RequestId = string | number;

/** What a transport needs of the server's tasks (TasksService). */
export interface TaskListenHost {
  /** The tasks the request may follow (the caller's); -32021 or -32602 when it is refused. */
  listenable(request: TaskListenRequest, authInfo: AuthInfo | undefined): Promise<MCPStoredTask[]>;
  /** Sends each task's state through `send` now and after each change, until the returned function is called. */
  follow(tasks: MCPStoredTask[], send: (task: WireTask) => void): () => void;
}

export interface TaskListenRequest {
  id: RequestId;
  /** The task ids asked for, each once. */
  taskIds: string[];
  /** Whether the request declared the extension in its client capabilities. */
  declared: boolean;
  /** The request without `taskIds`: what the SDK serves. */
  rest: Record<string, unknown>;
}

/**
 * The listen request's task part, or undefined when `message` is not a listen request naming
 * tasks; -32602 naming the field when `taskIds` is not a list of task ids.
 */
export function taskListenRequest(message: unknown): TaskListenRequest | undefined {
  const request = message as {
    method?: unknown;
    id?: unknown;
    params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> };
  };
  if (typeof message !== 'object' || message === null || request.method !== LISTEN_METHOD) return undefined;
  const { id, params } = request;
  const notifications = params?.notifications;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (typeof notifications !== 'object' || notifications === null) return undefined;
  if (!(LISTEN_TASK_IDS_KEY in notifications)) return undefined;
  const { [LISTEN_TASK_IDS_KEY]: asked, ...others } = notifications;
  const parsed = ListenTaskIdsSchema.safeParse(asked);
  if (!parsed.success) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params for subscriptions/listen: ${describeIssues(parsed.error.issues, ['params', 'notifications', LISTEN_TASK_IDS_KEY])}`,
    );
  }
  return {
    id,
    taskIds: [...new Set(parsed.data)],
    declared: declaresTasks(params?._meta?.[CLIENT_CAPABILITIES_META_KEY]),
    rest: { ...request, params: { ...params, notifications: others } },
  };
}

interface Acknowledgement {
  method?: unknown;
  params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> };
}

/** The listen request a message acknowledges (its subscription id), or undefined for any other message. */
export function acknowledgedListen(message: unknown): RequestId | undefined {
  const notification = message as Acknowledgement | undefined;
  if (notification?.method !== ACKNOWLEDGED_NOTIFICATION) return undefined;
  return notification.params?._meta?.[SUBSCRIPTION_ID_META_KEY] as RequestId | undefined;
}

/** The SDK's acknowledgement of `id` with the followed task ids added, or undefined for any other message. */
export function withTaskIds(message: unknown, id: RequestId, taskIds: string[]): unknown {
  if (acknowledgedListen(message) !== id) return undefined;
  const notification = message as Acknowledgement;
  const params = notification.params;
  return {
    ...notification,
    params: { ...params, notifications: { ...params?.notifications, [LISTEN_TASK_IDS_KEY]: taskIds } },
  };
}

/** `notifications/tasks` for `task` on the listen stream `id`. */
export function taskNotification(task: WireTask, id: RequestId) {
  return {
    jsonrpc: '2.0' as const,
    method: TASKS_NOTIFICATION,
    params: { ...task, _meta: { ...(task._meta as object | undefined), [SUBSCRIPTION_ID_META_KEY]: id } },
  };
}
