/**
 * What another instance's task can be continued with here: a `run_<workflow>` task whose workflow
 * keeps its runs in a Mastra instance's storage is resumed from its snapshot (derived-runs.ts);
 * any other task that lost its instance cannot be, and is reported failed.
 */
import { RequestContext } from '@mastra/core/request-context';
import type { Workflow } from '@mastra/core/workflows';
import { resumeWorkflow } from '../derived-runs.js';
import type { ToolRegistry } from '../registry.js';
import { protocolErrorIn } from '../request-errors.js';
import { taskToolContext } from '../tool-context.js';
import type { ToolInvocation } from '../tool-invocation.js';
import { errorResult, toCallToolResult } from '../tool-result.js';
import type { TaskResumer } from './task-run.js';

export function workflowResumer(registry: () => ToolRegistry): TaskResumer {
  return (task) => {
    if (!task.workflow) return undefined;
    const { key, runId } = task.workflow;
    const entry = registry().get(`run_${key}`);
    const workflow = entry?.kind === 'workflow' ? (entry.source as Workflow) : undefined;
    if (!entry || !workflow?.mastra?.getStorage()) return undefined;
    return async (run) => {
      // The request that created the task is gone: the tool context has the task, nothing else.
      const extra = {
        signal: run.signal,
        requestId: task.taskId,
        sendNotification: async () => {},
        sendRequest: async () => {
          throw new Error('a resumed task has no request to send on');
        },
      };
      const invocation: ToolInvocation = {
        requestContext: new RequestContext(),
        mcp: taskToolContext(extra as never, run),
        signal: run.signal,
        task: run,
        ...(workflow.mastra ? { mastra: workflow.mastra } : {}),
      };
      try {
        return toCallToolResult(entry, await resumeWorkflow(key, workflow, runId, invocation)) as Record<
          string,
          unknown
        >;
      } catch (error) {
        // As when the tool runs directly: a thrown error is a tool error, a ProtocolError fails the task.
        if (run.signal.aborted || protocolErrorIn(error)) throw error;
        return errorResult(
          `Tool '${entry.name}' failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    };
  };
}
