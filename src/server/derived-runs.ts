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

export async function runWorkflow(
  key: string,
  workflow: Workflow,
  inputData: unknown,
  invocation: ToolInvocation,
): Promise<RunResult> {
  const run = await workflow.createRun();
  const common = {
    requestContext: invocation.requestContext,
    ...(invocation.tracingContext ? { tracingContext: invocation.tracingContext } : {}),
  };
  const stop = () => void run.cancel().catch(() => {});
  if (invocation.task) invocation.signal?.addEventListener('abort', stop, { once: true });
  try {
    let result = await run.start({ inputData, ...common });
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
