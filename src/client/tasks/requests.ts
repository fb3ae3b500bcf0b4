/**
 * The Tasks extension's requests on one server connection: every one declares the extension in
 * its per-request client capabilities (the client's own plus `io.modelcontextprotocol/tasks`) and
 * routes by task id (`Mcp-Name`), as the specification asks of HTTP clients. The connection
 * reconnects first when it was lost, so a task outlives a dropped connection.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type DetailedTask,
  DetailedTaskSchema,
  TASKS_METHODS,
  TaskAckSchema,
  withTasksDeclared,
} from '../../shared/tasks-wire.js';
import type { ServerConnection } from '../connection.js';
import { clientCapabilitiesOf } from '../sdk-client.js';

/** `meta` (the connection's request `_meta`) with the client's capabilities, the extension declared. */
export function declaringTasks(
  connection: ServerConnection,
  meta?: Record<string, unknown>,
): Record<string, unknown> {
  return { ...meta, [CLIENT_CAPABILITIES_META_KEY]: withTasksDeclared(clientCapabilitiesOf(connection)) };
}

function taskRequest<T>(
  connection: ServerConnection,
  method: string,
  params: Record<string, unknown> & { taskId: string },
  schema: { '~standard': { validate: (value: unknown) => unknown } },
  signal?: AbortSignal,
): Promise<T> {
  return connection.run(
    (client) =>
      client.request(
        { method, params: { ...params, _meta: declaringTasks(connection, connection.requestMeta()) } },
        schema as never,
        {
          timeout: connection.timeout,
          headers: { 'mcp-name': params.taskId },
          ...(signal ? { signal } : {}),
        },
      ) as Promise<T>,
    null,
    signal,
  );
}

export function getTask(
  connection: ServerConnection,
  taskId: string,
  signal?: AbortSignal,
): Promise<DetailedTask> {
  return taskRequest(connection, TASKS_METHODS.get, { taskId }, DetailedTaskSchema, signal);
}

export async function updateTask(
  connection: ServerConnection,
  taskId: string,
  inputResponses: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<void> {
  await taskRequest(connection, TASKS_METHODS.update, { taskId, inputResponses }, TaskAckSchema, signal);
}

export async function cancelTask(
  connection: ServerConnection,
  taskId: string,
  signal?: AbortSignal,
): Promise<void> {
  await taskRequest(connection, TASKS_METHODS.cancel, { taskId }, TaskAckSchema, signal);
}
