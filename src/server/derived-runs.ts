/**
 * How the derived tools run: `run_<workflow>` starts a workflow run, `ask_<agent>` asks an agent.
 * Called synchronously they answer with what the run ended with, as before. Run as a task they do
 * what a task is for: a workflow that suspends asks the client for its resume data (an input
 * request built from the suspended step's resume schema) and resumes, and cancelling the task
 * cancels the run; an agent streams, and what it has written so far is the task's status message.
 */
import type { Agent } from '@mastra/core/agent';
import type { Workflow } from '@mastra/core/workflows';
import { MCPErrorCode, mcpError } from '../errors.js';
import type { ToolInvocation } from './tool-invocation.js';
import { EMPTY_OBJECT_SCHEMA, normalizeSchema } from './tool-schema.js';
import type { ElicitationRequest } from './types.js';

/** How often a streaming agent's text so far is written to its task's status message. */
const STATUS_INTERVAL_MS = 250;
/** How much of the agent's latest text the status message shows. */
const STATUS_TEXT_LENGTH = 200;

type RunResult = Awaited<ReturnType<Awaited<ReturnType<Workflow['createRun']>>['start']>>;

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

/** The question a suspended step asks: its suspend payload's message or reason, its resume schema. */
function resumeQuestion(
  key: string,
  workflow: Workflow,
  path: string[],
  payload: unknown,
): ElicitationRequest {
  const stepId = path.at(-1) ?? '';
  const said = payload as { message?: unknown; reason?: unknown } | undefined;
  const text = typeof said?.message === 'string' ? said.message : said?.reason;
  const step = (workflow.steps as Record<string, { resumeSchema?: unknown }> | undefined)?.[stepId];
  const schema = step?.resumeSchema ? normalizeSchema(step.resumeSchema).json : EMPTY_OBJECT_SCHEMA;
  return {
    message: typeof text === 'string' ? text : `Workflow '${key}' is waiting for input at step '${stepId}'`,
    requestedSchema: schema as ElicitationRequest['requestedSchema'],
  };
}

type WorkflowRun = Awaited<ReturnType<Workflow['createRun']>>;

export async function runWorkflow(
  key: string,
  workflow: Workflow,
  inputData: unknown,
  invocation: ToolInvocation,
): Promise<RunResult> {
  const run = await workflow.createRun();
  invocation.task?.workflowRun(key, run.runId);
  return drive(key, workflow, run, invocation, (common) => run.start({ inputData, ...common }));
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

/** Starts (or resumes) the run with `begin`; as a task, a suspended run asks for its resume data and resumes. */
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
    while (invocation.task && result.status === 'suspended' && invocation.mcp) {
      const path = result.suspended[0] ?? [];
      if (!workflow.mastra?.getStorage()) {
        // The run resumes from its snapshot, which only a Mastra instance's storage keeps.
        throw mcpError(
          MCPErrorCode.SERVER_WORKFLOW_FAILED,
          `Workflow '${key}' suspended at step '${path.join('.')}' and cannot resume: it keeps no snapshot (register it on a Mastra instance with storage)`,
          { workflowKey: key },
        );
      }
      const payload = (result.steps[path.at(-1) ?? ''] as { suspendPayload?: unknown } | undefined)
        ?.suspendPayload;
      const answer = await invocation.mcp.elicitation.sendRequest(
        resumeQuestion(key, workflow, path, payload),
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

export async function askAgent(agent: Agent, message: string, invocation: ToolInvocation): Promise<unknown> {
  const options = {
    requestContext: invocation.requestContext,
    ...(invocation.signal ? { abortSignal: invocation.signal } : {}),
    ...(invocation.tracingContext ? { tracingContext: invocation.tracingContext } : {}),
  };
  const progress = invocation.mcp?.progress;
  if (!invocation.task || !progress) return await agent.generate(message, options);
  const output = await agent.stream(message, options);
  let text = '';
  let reported = 0;
  for await (const delta of output.textStream) {
    text += delta;
    if (Date.now() - reported < STATUS_INTERVAL_MS) continue;
    reported = Date.now();
    const latest = text.length > STATUS_TEXT_LENGTH ? `…${text.slice(-STATUS_TEXT_LENGTH)}` : text;
    await progress({ progress: text.length, message: `${agent.name} is answering: ${latest}` });
  }
  // What generate() answers: the same full output, its error thrown.
  const full = await output.getFullOutput();
  if (full.error) throw full.error;
  return full;
}
