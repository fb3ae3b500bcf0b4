/**
 * The SDK's client refuses a `tools/call` answered with a task (`resultType: 'task'`, the Tasks
 * extension), so this guard, between the transport and the SDK, turns such an answer into a
 * result the SDK accepts: no content, the task under {@link TASK_HANDLE_META_KEY} in `_meta`. Only
 * answers to a `tools/call` that declared the extension are turned: a task sent to a call that
 * did not declare it breaks the specification and fails as the SDK fails it. A listen request
 * following tasks gets the extension declared on its way out.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  declaresTasks,
  LISTEN_TASK_IDS_KEY,
  type Task,
  withTasksDeclared,
} from '../../shared/tasks-wire.js';
import { interceptIncoming } from '../transport/intercept.js';

/** Where the turned result carries its task; it never leaves this process. */
export const TASK_HANDLE_META_KEY = 'mastra-mcp/task';

type RequestId = string | number;

function declaringToolCall(message: JSONRPCMessage): RequestId | undefined {
  const request = message as {
    id?: RequestId;
    method?: string;
    params?: { _meta?: Record<string, unknown> };
  };
  if (request.method !== 'tools/call' || request.id === undefined) return undefined;
  return declaresTasks(request.params?._meta?.[CLIENT_CAPABILITIES_META_KEY]) ? request.id : undefined;
}

/**
 * A `subscriptions/listen` request naming tasks must declare the extension, which the SDK's
 * envelope (the client's own capabilities) does not: it is added to that request alone.
 */
function listenDeclaringTasks(message: JSONRPCMessage): JSONRPCMessage {
  const request = message as {
    method?: string;
    params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> };
  };
  const params = request.params;
  if (request.method !== 'subscriptions/listen' || !params?.notifications?.[LISTEN_TASK_IDS_KEY])
    return message;
  const declared = withTasksDeclared((params._meta?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as object);
  return {
    ...message,
    params: { ...params, _meta: { ...params._meta, [CLIENT_CAPABILITIES_META_KEY]: declared } },
  } as JSONRPCMessage;
}

/** Requests remembered at most; one never answered (its call timed out) is forgotten oldest first. */
const MAX_PENDING = 10_000;

export function guardTaskResults<T extends Transport>(transport: T): T {
  // tools/call requests in flight that may be answered with a task; each response removes its own.
  const declaring = new Set<RequestId>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const id = declaringToolCall(message);
    if (id !== undefined) {
      declaring.add(id);
      if (declaring.size > MAX_PENDING) declaring.delete(declaring.values().next().value as RequestId);
    }
    return send(listenDeclaringTasks(message), options);
  };
  return interceptIncoming(transport, (message) => {
    const response = message as { id?: RequestId; result?: Record<string, unknown> };
    if (response.id === undefined || !declaring.delete(response.id)) return message;
    const { result } = response;
    if (result?.resultType !== 'task' || typeof result.taskId !== 'string') return message;
    const { resultType: _resultType, _meta, ...task } = result;
    return {
      ...message,
      result: {
        resultType: 'complete',
        content: [],
        _meta: { ...(_meta as object), [TASK_HANDLE_META_KEY]: task },
      },
    } as JSONRPCMessage;
  });
}

/** The task a turned result carries, if it is one. */
export function taskIn(result: { _meta?: Record<string, unknown> }): Task | undefined {
  return result._meta?.[TASK_HANDLE_META_KEY] as Task | undefined;
}
