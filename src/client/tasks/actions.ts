/**
 * `mcpClient.tasks`: the Tasks extension's requests by server name and task id. A task id is all a
 * later process needs: `wait()` in a new process follows a task another one started.
 */
import { MastraError } from '@mastra/core/error';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import type { ConnectionLookup } from '../actions.js';
import { wrap } from '../actions.js';
import type { ServerConnection } from '../connection.js';
import { followTask, notFoundOr } from './follow.js';
import { cancelTask, declaringTasks, getTask, updateTask } from './requests.js';
import { offersTasks } from './task-push.js';
import { taskIn } from './task-results.js';
import type { MCPClientTasks } from './types.js';

/** Runs `operation` once the server is known to offer the extension. */
async function withTasks<T>(connection: ServerConnection, operation: () => Promise<T>): Promise<T> {
  const offered = await connection.run(async (client) => offersTasks(client));
  if (!offered) {
    throw mcpError(
      MCPErrorCode.CLIENT_TASKS_NOT_SUPPORTED,
      `MCP server '${connection.name}' does not offer the Tasks extension (io.modelcontextprotocol/tasks on protocol 2026-07-28)`,
      { server: connection.name },
    );
  }
  return operation();
}

/** A server error on a task request, as the task's error (not found) or wrapped naming what was done. */
function failure(connection: ServerConnection, what: string, taskId: string, error: unknown): unknown {
  const found = notFoundOr(error, connection, taskId, `MCP server '${connection.name}': task ${taskId}`);
  return found === error
    ? wrap(MCPErrorCode.CLIENT_TOOL_CALL_FAILED, what, connection, error, { taskId })
    : found;
}

export function taskActions(lookup: ConnectionLookup): MCPClientTasks {
  const on = async <T>(
    serverName: string,
    what: string,
    taskId: string,
    operation: (c: ServerConnection) => Promise<T>,
  ) => {
    const connection = lookup.get(serverName);
    try {
      return await withTasks(connection, () => operation(connection));
    } catch (error) {
      // A request cut short by disconnect() fails for that reason; the package's own errors
      // (task, connection) already name the server.
      connection.closedSignal.throwIfAborted();
      if (error instanceof MastraError) throw error;
      throw failure(connection, what, taskId, error);
    }
  };
  return {
    start: async (serverName, toolName, args = {}, options = {}) => {
      const connection = lookup.get(serverName);
      const sendOptions = {
        timeout: connection.timeout,
        ...(options.signal ? { signal: options.signal } : {}),
      };
      const answer = await withTasks(connection, () =>
        connection.run(
          async (client) => {
            // The listed definition (the SDK's cached tools/list) mirrors the tool's x-mcp-header
            // parameters as Mcp-Param-* headers, as a tool's execute does; without its output
            // schema, which a task answer (no output yet) cannot pass.
            const { tools } = await client.listTools(undefined, sendOptions);
            const listed = tools.find((tool) => tool.name === toolName);
            const { outputSchema: _unchecked, ...toolDefinition } = listed ?? {
              name: toolName,
              inputSchema: { type: 'object' as const },
            };
            return client.callTool(
              {
                name: toolName,
                arguments: args,
                _meta: declaringTasks(connection, connection.requestMeta()),
              },
              { ...sendOptions, toolDefinition: toolDefinition as Tool },
            );
          },
          null,
          options.signal,
        ),
      ).catch((error: unknown) => {
        if (error instanceof MastraError) throw error;
        throw wrap(MCPErrorCode.CLIENT_TOOL_CALL_FAILED, `tools/call of '${toolName}'`, connection, error, {
          tool: toolName,
        });
      });
      const task = taskIn(answer);
      if (!task) return { result: answer as CallToolResult };
      const { taskId } = task;
      return { taskId, task };
    },
    get: (serverName, taskId, options = {}) =>
      on(serverName, `tasks/get of ${taskId}`, taskId, (connection) =>
        getTask(connection, taskId, options.signal),
      ),
    update: (serverName, taskId, inputResponses) =>
      on(serverName, `tasks/update of ${taskId}`, taskId, (connection) =>
        updateTask(connection, taskId, inputResponses),
      ),
    cancel: (serverName, taskId) =>
      on(serverName, `tasks/cancel of ${taskId}`, taskId, (connection) => cancelTask(connection, taskId)),
    wait: (serverName, taskId, options = {}) =>
      on(serverName, `waiting for task ${taskId}`, taskId, async (connection) =>
        followTask(connection, await getTask(connection, taskId, options.signal), options),
      ),
  };
}
