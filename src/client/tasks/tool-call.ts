/**
 * A tool call on a server that offers the Tasks extension: the call declares the extension, and
 * an answer that is a task is followed to its end (follow.ts), its status changes reported as
 * progress updates (`progressToken` the task id; `progress`/`total` as the tool reported them, or
 * a count of the updates while it reported none). The SDK checks structured output only on a
 * direct answer, so with the extension declared the output is checked here instead, the same way,
 * on whichever result the call ends with.
 */
import type { RequestContext } from '@mastra/core/request-context';
import type {
  CallToolRequest,
  CallToolResult,
  JsonSchemaType,
  RequestOptions,
} from '@modelcontextprotocol/client';
import { taskProgressOf } from '../../shared/tasks-wire.js';
import type { ServerConnection } from '../connection.js';
import { fire } from '../sdk-client.js';
import type { MCPToolDefinition } from '../tools/definition.js';
import { followTask } from './follow.js';
import { declaringTasks } from './requests.js';
import { offersTasks } from './task-push.js';
import { taskIn } from './task-results.js';

export interface TaskAwareCall {
  name: string;
  arguments: Record<string, unknown>;
  meta: Record<string, unknown> | undefined;
  definition: MCPToolDefinition;
  signal?: AbortSignal | undefined;
}

/** The SDK's rule for structured output, on `result`. */
function checkOutput(
  connection: ServerConnection,
  definition: MCPToolDefinition,
  result: CallToolResult,
): void {
  const schema = definition.outputSchema;
  if (!schema || result.isError) return;
  if (result.structuredContent === undefined)
    throw new Error(`Tool ${definition.name} has an output schema but did not return structured content`);
  const validator = connection.jsonSchemaValidator.getValidator(schema as JsonSchemaType);
  const outcome = validator(result.structuredContent);
  if (!outcome.valid)
    throw new Error(`Structured content does not match the tool's output schema: ${outcome.errorMessage}`);
}

/** The definitions the SDK's `callTool` is given for a tool, made once per definition. */
const sdkDefinitions = new WeakMap<MCPToolDefinition, { checked: object; unchecked: object }>();

/**
 * What the SDK's `callTool` is given as the tool's definition. It checks structured output
 * against `outputSchema` (`unchecked` leaves it out: with tasks declared it is checked here), and
 * on 2026-07-28 it walks `inputSchema` on every call for `x-mcp-header` declarations to mirror as
 * request headers: a schema that declares none is left out, so that walk is not paid per call.
 */
function sdkDefinitionsOf(definition: MCPToolDefinition): { checked: object; unchecked: object } {
  let made = sdkDefinitions.get(definition);
  if (!made) {
    const { inputSchema, outputSchema: _checkedHere, ...rest } = definition;
    const mirrors = JSON.stringify(inputSchema ?? {}).includes('"x-mcp-header"');
    const unchecked = mirrors ? { ...rest, inputSchema } : rest;
    made = {
      checked: definition.outputSchema ? { ...unchecked, outputSchema: definition.outputSchema } : unchecked,
      unchecked,
    };
    sdkDefinitions.set(definition, made);
  }
  return made;
}

/**
 * Calls the tool (through `connection.run`, with `requestContext`); on a server that offers tasks
 * the call declares them, and a task answer is followed outside the call's own operation.
 */
export async function callToolFollowingTasks(
  connection: ServerConnection,
  call: TaskAwareCall,
  requestContext?: RequestContext | null,
): Promise<CallToolResult> {
  const { name, meta, definition, signal } = call;
  const given = sdkDefinitionsOf(definition);
  // Built by assignment, not spreads: this runs on every call, mostly before V8 has optimised it.
  const { answer, declared } = await connection.run(async (client) => {
    const declared = offersTasks(client);
    const _meta = declared ? declaringTasks(connection, meta) : meta;
    const params: CallToolRequest['params'] = { name, arguments: call.arguments };
    if (_meta) params._meta = _meta;
    const options: RequestOptions & { toolDefinition?: unknown } = { timeout: connection.timeout };
    if (signal) options.signal = signal;
    options.toolDefinition = declared ? given.unchecked : given.checked;
    const answer = await client.callTool(params, options as never);
    return { answer: answer as CallToolResult, declared };
  }, requestContext);
  if (!declared) return answer;
  const task = taskIn(answer);
  let updates = 0;
  const result = task
    ? await followTask(connection, task, {
        ...(signal ? { signal } : {}),
        what: `MCP tool '${name}' on server '${connection.name}'`,
        onStatus: (state) => {
          // The tool's own progress report when the task carries one, else a count of the updates.
          const reported = taskProgressOf(state);
          updates = reported?.progress ?? updates + 1;
          fire(connection, connection.handlers.progress, {
            progressToken: state.taskId,
            progress: updates,
            ...(reported?.total !== undefined ? { total: reported.total } : {}),
            message: state.statusMessage ?? state.status,
          });
        },
      })
    : answer;
  checkOutput(connection, definition, result);
  return result;
}
