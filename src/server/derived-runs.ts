/**
 * How workflow runs go for `run_<workflow>` (a new run), `resume_<workflow>` (a suspended run the
 * caller continues) and a task another instance lost. A run that suspends asks its caller for the
 * step's resume data when the caller can be asked (`invocation.elicits`: a task's input request
 * or an `input_required` round on 2026-07-28, `elicitation/create` on a 2025 session) and resumes
 * with the answer; otherwise the suspended run is what the call ends with, and the tool's result
 * says how to resume it (workflow-tools.ts). A run resumes from its snapshot, which only a Mastra
 * instance's storage keeps: without one a suspended run fails naming the fix instead of asking.
 * A run started by an authenticated caller is its principal's (the run's `resourceId`): nobody
 * else resumes it. A task cancelled or expired cancels its run.
 */
import type { Workflow } from '@mastra/core/workflows';
import { MCPErrorCode, mcpError } from '../errors.js';
import { principalOf } from './auth/principal.js';
import { ToolArgumentsError } from './tool-entry.js';
import type { ToolInvocation } from './tool-invocation.js';
import { EMPTY_OBJECT_SCHEMA, normalizeSchema } from './tool-schema.js';
import type { ElicitationRequest } from './types.js';

export type RunResult = Awaited<ReturnType<Awaited<ReturnType<Workflow['createRun']>>['start']>>;
type WorkflowRun = Awaited<ReturnType<Workflow['createRun']>>;

/** What resume_<workflow> is called with (workflow-tools.ts checks the shape). */
export interface ResumeArguments {
  runId: string;
  /** The suspended step's id (a nested one as `parent.child`); default: the one suspended. */
  step?: string | undefined;
  resumeData?: Record<string, unknown> | undefined;
}

/** A step as this file reads it: its schemas, and the steps of a nested workflow. */
export interface StepLike {
  resumeSchema?: unknown;
  suspendSchema?: unknown;
  steps?: Record<string, StepLike>;
}

/** The step at `path` (a nested workflow's steps by their parent's id), if the workflow has it. */
export function stepAt(workflow: Workflow, path: readonly string[]): StepLike | undefined {
  let steps = workflow.steps as Record<string, StepLike> | undefined;
  let step: StepLike | undefined;
  for (const id of path) {
    step = steps && Object.hasOwn(steps, id) ? steps[id] : undefined;
    steps = step?.steps;
  }
  return step;
}

/** The JSON Schema of the data a suspended step resumes with (any object when it declares none). */
export function resumeSchemaAt(workflow: Workflow, path: readonly string[]): Record<string, unknown> {
  const schema = stepAt(workflow, path)?.resumeSchema;
  return schema ? normalizeSchema(schema).json : EMPTY_OBJECT_SCHEMA;
}

/** What a suspended step said (its suspend payload's `message` or `reason`), if it said something. */
export function suspendText(result: RunResult, path: readonly string[]): string | undefined {
  const step = (result.steps as Record<string, { suspendPayload?: unknown }> | undefined)?.[
    path.at(-1) ?? ''
  ];
  const said = step?.suspendPayload as { message?: unknown; reason?: unknown } | undefined;
  const text = typeof said?.message === 'string' ? said.message : said?.reason;
  return typeof text === 'string' ? text : undefined;
}

function failed(key: string, cause: unknown): Error {
  // A run's error may arrive serialized (a plain { message } object), not as an Error.
  const reason = (cause as { message?: unknown } | undefined)?.message;
  return mcpError(
    MCPErrorCode.SERVER_WORKFLOW_FAILED,
    `Workflow '${key}' failed: ${typeof reason === 'string' ? reason : String(cause)}`,
    { workflowKey: key },
    cause,
  );
}

/** The run's snapshot is in a Mastra instance's storage; without one it cannot resume. */
function requireStorage(key: string, workflow: Workflow, what: string): void {
  if (workflow.mastra?.getStorage()) return;
  throw mcpError(
    MCPErrorCode.SERVER_WORKFLOW_FAILED,
    `Workflow '${key}' ${what} and cannot resume: it keeps no snapshot (register it on a Mastra instance with storage)`,
    { workflowKey: key },
  );
}

const ownerOf = (invocation: ToolInvocation) => principalOf(invocation.mcp?.extra.authInfo);

export async function runWorkflow(
  key: string,
  workflow: Workflow,
  inputData: unknown,
  invocation: ToolInvocation,
): Promise<RunResult> {
  const owner = ownerOf(invocation);
  const run = await workflow.createRun(owner ? { resourceId: owner } : {});
  invocation.task?.workflowRun(key, run.runId);
  return drive(key, workflow, run, invocation, (common) => run.start({ inputData, ...common }));
}

/**
 * Continues a suspended run with the caller's data (`resume_<workflow>`). What is wrong with the
 * arguments (no suspended run of this caller by that id, a step that is not suspended, data the
 * step's resume schema refuses) is the caller's to fix, so it is a ToolArgumentsError.
 */
export async function continueWorkflow(
  key: string,
  workflow: Workflow,
  toolName: string,
  { runId, step, resumeData = {} }: ResumeArguments,
  invocation: ToolInvocation,
): Promise<RunResult> {
  requireStorage(key, workflow, `was asked to resume run '${runId}'`);
  const state = await workflow.getWorkflowRunById(runId);
  // Another principal's run is answered like an unknown one: its existence is not told.
  if (!state || (state.resourceId ?? undefined) !== ownerOf(invocation)) {
    throw new ToolArgumentsError(toolName, [
      `runId: workflow '${key}' has no run '${runId}' of this caller (it never existed, its snapshot is gone, or another caller started it)`,
    ]);
  }
  if (state.status !== 'suspended') {
    throw new ToolArgumentsError(toolName, [`runId: run '${runId}' is ${state.status}, not suspended`]);
  }
  const suspended = Object.keys(state.suspendedPaths ?? {});
  const path = step?.split('.');
  if (path && !suspended.includes(path[0] ?? '')) {
    throw new ToolArgumentsError(toolName, [
      `step: '${step}' is not suspended in run '${runId}' (suspended: ${suspended.join(', ') || 'none'})`,
    ]);
  }
  const schema = stepAt(workflow, path ?? suspended.slice(0, 1))?.resumeSchema;
  if (schema && (path || suspended.length === 1)) {
    const outcome = await normalizeSchema(schema).validate(resumeData);
    if ('issues' in outcome) {
      throw new ToolArgumentsError(
        toolName,
        outcome.issues.map((issue) => `resumeData: ${issue}`),
      );
    }
  }
  const run = await workflow.createRun({ runId });
  invocation.task?.workflowRun(key, runId);
  return drive(key, workflow, run, invocation, (common) =>
    run.resume({ ...(path ? { step: path } : {}), resumeData, ...common }),
  );
}

/**
 * Takes over a run another instance drove as a task, from its snapshot: a suspended run asks for
 * its resume data again, a finished one answers with its result. A run that was in the middle of
 * a step when its instance stopped cannot be continued safely and fails naming it.
 */
export async function resumeWorkflow(
  key: string,
  workflow: Workflow,
  runId: string,
  invocation: ToolInvocation,
): Promise<RunResult> {
  const state = await workflow.getWorkflowRunById(runId);
  if (!state) throw failed(key, new Error(`its run ${runId} is not in the Mastra storage`));
  const run = await workflow.createRun({ runId });
  return drive(key, workflow, run, invocation, async () => {
    if (state.status === 'suspended' || state.status === 'success' || state.status === 'failed') {
      const suspended = Object.keys(state.suspendedPaths ?? {}).map((stepId) => [stepId]);
      return { ...state, suspended } as unknown as RunResult;
    }
    throw failed(key, new Error(`its run ${runId} was ${state.status} when the instance driving it stopped`));
  });
}

/** The question a suspended step asks: what it said, and its resume schema. */
function resumeQuestion(
  key: string,
  workflow: Workflow,
  path: string[],
  result: RunResult,
): ElicitationRequest {
  return {
    message:
      suspendText(result, path) ?? `Workflow '${key}' is waiting for input at step '${path.join('.')}'`,
    requestedSchema: resumeSchemaAt(workflow, path) as ElicitationRequest['requestedSchema'],
  };
}

/** Starts (or resumes) the run with `begin`; a suspended run asks for its resume data when it can, and resumes. */
async function drive(
  key: string,
  workflow: Workflow,
  run: WorkflowRun,
  invocation: ToolInvocation,
  begin: (common: { requestContext: ToolInvocation['requestContext'] }) => Promise<RunResult>,
): Promise<RunResult> {
  const common = {
    requestContext: invocation.requestContext,
    ...(invocation.tracingContext ? { tracingContext: invocation.tracingContext } : {}),
  };
  // A task cancelled or expired cancels its run; one released by a closing instance leaves it to resume.
  const stop = () => {
    if (!invocation.task?.released) void run.cancel().catch(() => {});
  };
  if (invocation.task) invocation.signal?.addEventListener('abort', stop, { once: true });
  try {
    let result = await begin(common);
    while (result.status === 'suspended') {
      const path = result.suspended[0] ?? [];
      requireStorage(key, workflow, `suspended at step '${path.join('.')}'`);
      // Nobody to ask: the suspended run is the result, which says how to resume it.
      if (!invocation.elicits || !invocation.mcp) return result;
      const answer = await invocation.mcp.elicitation.sendRequest(
        resumeQuestion(key, workflow, path, result),
      );
      if (answer.action !== 'accept') {
        await run.cancel();
        throw mcpError(
          MCPErrorCode.SERVER_WORKFLOW_FAILED,
          `Workflow '${key}' was cancelled: its input request at step '${path.join('.')}' was ${answer.action === 'decline' ? 'declined' : 'cancelled'}`,
          { workflowKey: key },
        );
      }
      result = await run.resume({ step: path, resumeData: answer.content ?? {}, ...common });
    }
    if (result.status === 'failed') throw failed(key, result.error);
    return result;
  } finally {
    invocation.signal?.removeEventListener('abort', stop);
  }
}
