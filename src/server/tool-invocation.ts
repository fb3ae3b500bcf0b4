/** What one run of a published tool is given (tool-entry.ts runs it; derived-runs.ts reads it). */
import type { Mastra } from '@mastra/core/mastra';
import type { TracingContext } from '@mastra/core/observability';
import type { RequestContext } from '@mastra/core/request-context';
import type { MCPToolContext } from './types.js';

export interface ToolInvocation {
  requestContext: RequestContext;
  mcp?: MCPToolContext;
  mastra?: Mastra;
  messages?: unknown[];
  toolCallId?: string;
  signal?: AbortSignal;
  /** The span the run nests under (an MCP request's tool span), when the server is traced. */
  tracingContext?: TracingContext;
  /** The call runs as a task (derived-runs.ts: a workflow's run is stored with it, an agent streams). */
  task?: TaskHooks;
  /**
   * The caller can be asked for input during this call (`mcp.elicitation` reaches it: it declared
   * form elicitation), so a workflow that suspends asks for its resume data instead of answering
   * how to resume it.
   */
  elicits?: boolean;
}

/** What a run that is (or becomes) a task reports about itself. */
export interface TaskHooks {
  /** The workflow run a `run_<workflow>` task drives: stored with the task, so another instance can resume it. */
  workflowRun(key: string, runId: string): void;
  /** The run stopped because its instance is closing, leaving the task to be taken over: its work is not cancelled. */
  readonly released: boolean;
}
