/**
 * The tools a workflow is published as. `run_<key>` starts a run with the workflow's input;
 * `resume_<key>`, published when a step declares a suspend or resume schema (the steps that wait
 * for someone), continues a suspended run for a caller that could not be asked for the data. Both
 * advertise the workflow's output schema when it describes an object (MCP carries structured
 * content as an object; any other output is text only) and answer with the run's output, the same
 * on both eras. A run that stayed suspended answers with an error result that tells the caller how
 * to go on: the tool, its arguments and the JSON Schema of the data. It is an error result because
 * a result that is not one must match the output schema (clients check it).
 */
import type { Workflow } from '@mastra/core/workflows';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MCPErrorCode, mcpError } from '../errors.js';
import {
  continueWorkflow,
  type ResumeArguments,
  type RunResult,
  resumeSchemaAt,
  runWorkflow,
  type StepLike,
  suspendText,
} from './derived-runs.js';
import { convertSchema, ToolArgumentsError, type ToolEntry, wireDefinition } from './tool-entry.js';
import { errorResult, valueResult } from './tool-result.js';
import {
  EMPTY_OBJECT_SCHEMA,
  type JsonSchema,
  normalizedOnFirstUse,
  normalizeSchema,
  outputJsonSchema,
} from './tool-schema.js';

const resumeInput = normalizedOnFirstUse(() =>
  z.object({
    runId: z.string().describe('The suspended run, as the run_ tool reported it'),
    step: z
      .string()
      .optional()
      .describe('The suspended step (a nested one as parent.child); default: the one step that is suspended'),
    resumeData: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("The data the step asks for, matching the step's resume schema"),
  }),
);

/** Whether a step (a nested workflow's steps included) declares a suspend or resume schema. */
function waitsForSomeone(steps: Record<string, StepLike> | undefined, seen = new Set<object>()): boolean {
  for (const step of Object.values(steps ?? {})) {
    if (!step || seen.has(step)) continue;
    seen.add(step);
    if (step.resumeSchema || step.suspendSchema || waitsForSomeone(step.steps, seen)) return true;
  }
  return false;
}

/** The workflow's output schema as advertised: an object one only. */
function advertisedOutput(key: string, workflow: Workflow): JsonSchema | undefined {
  if (!workflow.outputSchema) return undefined;
  const json = convertSchema(`Workflow '${key}'`, 'outputSchema', () =>
    outputJsonSchema(workflow.outputSchema),
  );
  return json.type === 'object' ? json : undefined;
}

type Outcome = RunResult & { runId?: string };

/** What a caller that cannot be asked is told about a suspended run: how to resume it, when it can. */
function howToResume(
  key: string,
  workflow: Workflow,
  result: Extract<Outcome, { status: 'suspended' }>,
  resumeTool: string | undefined,
): string {
  const path = result.suspended[0] ?? [];
  const step = path.join('.');
  const said = suspendText(result, path);
  const head =
    `Workflow '${key}' suspended at step '${step}'${said ? ` (${said})` : ''}, waiting for input; ` +
    'this call cannot ask for it (the client declared no form elicitation, or the server answers statelessly).';
  if (!resumeTool) {
    return `${head} Run ${result.runId} stays suspended: resuming it needs a client that supports elicitation.`;
  }
  const call = JSON.stringify({ runId: result.runId, step }).slice(0, -1);
  const { $schema: _dialect, ...schema } = resumeSchemaAt(workflow, path);
  return (
    `${head} To continue the run, call tool '${resumeTool}' with the arguments ${call},"resumeData":DATA} ` +
    `where DATA is an object matching this JSON Schema: ${JSON.stringify(schema)}`
  );
}

/** A run's outcome as the call's result: its output, or how to resume it. */
function runResult(
  key: string,
  workflow: Workflow,
  resumeTool: string | undefined,
  structured: boolean,
): (output: unknown) => CallToolResult {
  return (output) => {
    const result = output as Outcome;
    if (result.status === 'success') return valueResult(result.result, structured);
    if (result.status === 'suspended') return errorResult(howToResume(key, workflow, result, resumeTool));
    return errorResult(`Workflow '${key}' ended ${result.status} (run ${result.runId})`);
  };
}

/** `run_<key>`, and `resume_<key>` when a step waits for someone. */
export function workflowEntries(key: string, workflow: Workflow): ToolEntry[] {
  const description = workflow.description;
  if (!description?.trim()) {
    throw mcpError(
      MCPErrorCode.SERVER_WORKFLOW_DESCRIPTION_MISSING,
      `Workflow '${workflow.id ?? key}' (key '${key}') must have a non-empty description to be exposed as tool 'run_${key}'`,
      { workflowKey: key },
    );
  }
  const name = `run_${key}`;
  const input = workflow.inputSchema
    ? convertSchema(`Workflow '${key}'`, 'inputSchema', () => normalizeSchema(workflow.inputSchema))
    : undefined;
  const outputSchema = advertisedOutput(key, workflow);
  const resumeName = waitsForSomeone(workflow.steps as Record<string, StepLike>)
    ? `resume_${key}`
    : undefined;
  const toResult = runResult(key, workflow, resumeName, outputSchema !== undefined);
  const run: ToolEntry = {
    name,
    kind: 'workflow',
    source: workflow,
    definition: wireDefinition(name, {
      description,
      inputSchema: input?.json ?? EMPTY_OBJECT_SCHEMA,
      outputSchema,
    }),
    async invoke(args, invocation) {
      let inputData: unknown = args ?? {};
      if (input) {
        const outcome = await input.validate(inputData);
        if ('issues' in outcome) throw new ToolArgumentsError(name, outcome.issues);
        inputData = outcome.value;
      }
      return await runWorkflow(key, workflow, inputData, invocation);
    },
    toResult,
  };
  if (!resumeName) return [run];
  const resume: ToolEntry = {
    name: resumeName,
    kind: 'workflow',
    source: workflow,
    definition: wireDefinition(resumeName, {
      description: `Continues a run of ${name} that suspended waiting for input, with the data its step asks for (${name}'s answer names the run, the step and the data). ${description}`,
      inputSchema: resumeInput().json,
      outputSchema,
    }),
    async invoke(args, invocation) {
      const outcome = await resumeInput().validate(args ?? {});
      if ('issues' in outcome) throw new ToolArgumentsError(resumeName, outcome.issues);
      return await continueWorkflow(key, workflow, resumeName, outcome.value as ResumeArguments, invocation);
    },
    toResult,
  };
  return [run, resume];
}
