/**
 * What another instance's task can be continued with here: a `run_<workflow>` task whose workflow
 * keeps its runs in a Mastra instance's storage is resumed from its snapshot (derived-runs.ts);
 * any other task that lost its instance cannot be, and is reported failed.
 */
import { RequestContext } from '@mastra/core/request-context';
import type { Workflow } from '@mastra/core/workflows';
import { resumeWorkflow } from '../derived-runs.js';
import { runTool } from '../protocol-server.js';
import type { ToolRegistry } from '../registry.js';
import type { ErrorReporting } from '../request-errors.js';
import { taskToolContext } from '../tool-context.js';
import type { ToolEntry } from '../tool-entry.js';
import type { ToolInvocation } from '../tool-invocation.js';
import type { TaskResumer } from './task-run.js';

export function workflowResumer(registry: () => ToolRegistry, reporting: () => ErrorReporting): TaskResumer {
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
        // It was asking (a run in a step is not taken over), so its caller declared elicitation.
        elicits: true,
        ...(workflow.mastra ? { mastra: workflow.mastra } : {}),
      };
      // Run as the tool itself runs, its invoke resuming instead of starting: errors are shaped,
      // logged and redacted alike.
      const resuming: ToolEntry = {
        ...entry,
        invoke: (_args, at) => resumeWorkflow(key, workflow, runId, at),
      };
      return (await runTool(resuming, undefined, invocation, reporting(), { forTask: true })) as Record<
        string,
        unknown
      >;
    };
  };
}
