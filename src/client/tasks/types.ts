/** The public types of `mcpClient.tasks` (the Tasks extension, SEP-2663, as a requester). */
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/client';
import type { DetailedTask } from '../../shared/tasks-wire.js';

/** A task as a server reports it: status, timestamps, TTL, poll interval, and its status's payload. */
export type MCPTask = DetailedTask;

/** What `tasks.start()` resolves with: the task to keep (its id outlives the process), or the result the server answered with at once. */
export type MCPTaskStart =
  | { taskId: string; task: MCPTask; result?: undefined }
  | { taskId?: undefined; result: CallToolResult };

export interface MCPTaskWaitOptions {
  /** Stops waiting and cancels the task (`tasks/cancel`). */
  signal?: AbortSignal;
  /** Each new status or status message. */
  onStatus?: (task: MCPTask) => void;
}

/** `mcpClient.tasks`: long-running tool calls by task id, for work that outlives a connection or a process. */
export interface MCPClientTasks {
  /**
   * Calls `toolName` (the server's own name, not `server_tool`) declaring the Tasks extension.
   * Rejects with MCP_CLIENT_TASKS_NOT_SUPPORTED on a server that does not offer the extension.
   */
  start(
    serverName: string,
    toolName: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<MCPTaskStart>;
  /** The task now (`tasks/get`); MCP_CLIENT_TASK_NOT_FOUND once the server no longer knows it. */
  get(serverName: string, taskId: string, options?: { signal?: AbortSignal }): Promise<MCPTask>;
  /** Answers input requests of an `input_required` task (`tasks/update`): key to elicitation result. */
  update(serverName: string, taskId: string, inputResponses: Record<string, ElicitResult>): Promise<void>;
  /** Asks the server to cancel the task (`tasks/cancel`). */
  cancel(serverName: string, taskId: string): Promise<void>;
  /**
   * Follows the task to its end, answering its input requests with the server's `inputRequests`
   * handler: the tool's result once `completed`; MCP_CLIENT_TASK_FAILED or
   * MCP_CLIENT_TASK_CANCELLED otherwise.
   */
  wait(serverName: string, taskId: string, options?: MCPTaskWaitOptions): Promise<CallToolResult>;
}
