/**
 * The derived tools as tasks over real HTTP: a `run_<workflow>` task that suspends asks a caller
 * that declares elicitation for its resume data and resumes (and tells one that does not how to
 * resume it), and is cancelled with its run; an `ask_<agent>` task streams what the agent writes
 * into its status message and ends with the synchronous tool's result, and an agent whose model
 * cannot stream (the README's mock) answers as it does without tasks.
 */
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { MockLanguageModelV2, simulateReadableStream } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallingModel } from '../../examples/mock-model.js';
import { InMemoryMCPTaskStore, MCPServer } from '../../src/index.js';
import { lonePayment as lone, payment } from '../fixtures/payment-workflow.js';
import { TASKS_DECLARED as TASKS, type TaskReply } from '../fixtures/task-tools.js';
import { modernRequest, replyOf, serveHttp, serveReplaceable } from '../helpers.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

type Reply = TaskReply & { result?: { statusMessage?: string } };

/** The capabilities of a task caller that can be asked questions (form elicitation). */
const ASKING = { ...TASKS, elicitation: { form: {} } };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const stepAborts: string[] = [];

const waitStep = createStep({
  id: 'wait',
  inputSchema: z.object({}),
  outputSchema: z.object({ done: z.boolean() }),
  execute: async ({ abortSignal }) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      abortSignal.addEventListener('abort', () => {
        clearTimeout(timer);
        stepAborts.push('wait');
        resolve();
      });
    });
    return { done: true };
  },
});

const waiting = createWorkflow({
  id: 'waiting',
  description: 'Waits a long time',
  inputSchema: z.object({}),
  outputSchema: z.object({ done: z.boolean() }),
})
  .then(waitStep)
  .commit();

/** A model that writes `words` one by one, `delayMs` apart, whether streamed or not. */
function writingModel(words: string[], delayMs: number) {
  const usage = { inputTokens: 1, outputTokens: words.length, totalTokens: words.length + 1 };
  return new MockLanguageModelV2({
    doGenerate: async () => ({
      rawCall: { rawPrompt: null, rawSettings: {} },
      finishReason: 'stop',
      usage,
      content: [{ type: 'text', text: words.join('') }],
      warnings: [],
    }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunkDelayInMs: delayMs,
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          ...words.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: 'stop', usage },
        ],
      }),
    }),
  });
}

const WORDS = ['The ', 'payment ', 'was ', 'checked ', 'twice ', 'and ', 'is ', 'fine.'];

const writer = new Agent({
  id: 'writer',
  name: 'Writer',
  description: 'Writes a careful answer',
  instructions: 'Answer.',
  model: writingModel(WORDS, 120),
});

// The README's kind of mock: it implements generate only (its doStream throws "Not implemented").
const lookup = createTool({
  id: 'lookup',
  description: 'Looks a payment up',
  inputSchema: z.object({ id: z.string() }),
  execute: async ({ id }) => ({ id, state: 'paid' }),
});
const clerk = new Agent({
  id: 'clerk',
  name: 'Clerk',
  description: 'Looks payments up',
  instructions: 'Look it up.',
  // A fresh one per call: the mock counts its turns (first a tool call, then the answer).
  model: () =>
    toolCallingModel(
      'lookup',
      { id: 'p-1' },
      { answer: (part) => `Found ${JSON.stringify(part?.output?.value)}` },
    ),
  tools: { lookup },
});

async function setup({ mastra = true } = {}) {
  // Resuming a run needs its snapshot, which a Mastra instance's storage keeps.
  if (mastra) new Mastra({ workflows: { payment, waiting }, logger: false });
  const server = new MCPServer({
    name: 'derived',
    version: '1.0.0',
    tools: {},
    workflows: { payment, waiting },
    agents: { writer, clerk },
    tasks: { pollIntervalMs: 50 },
  });
  const http = await serveHttp(server);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  let id = 0;
  const rpc = async (method: string, params: Record<string, unknown>, capabilities: object = ASKING) =>
    replyOf<Reply>(
      await fetch(
        http.mcpUrl,
        modernRequest(method, params, { id: ++id, capabilities: capabilities as Record<string, unknown> }),
      ),
    );
  const status = (taskId: string) => rpc('tasks/get', { taskId });
  return { rpc, status };
}

describe('derived tools as tasks', () => {
  it('run_<workflow>: a suspended step asks for its resume data through the task, and the run resumes', async () => {
    const { rpc, status } = await setup();
    const listed = (await rpc('tools/list', {})).result?.tools as {
      name: string;
      _meta?: Record<string, unknown>;
    }[];
    expect(listed.find((tool) => tool.name === 'run_payment')?._meta?.['mastra/taskSupport']).toBe(
      'optional',
    );
    const created = await rpc('tools/call', { name: 'run_payment', arguments: { amount: 30 } });
    const taskId = String(created.result?.taskId);
    expect(created.result?.resultType).toBe('task');
    const asking = await eventually('the approval question', async () => {
      const reply = await status(taskId);
      return reply.result?.status === 'input_required' && reply.result;
    });
    const [key, request] =
      Object.entries(asking.inputRequests as Record<string, { params: Record<string, unknown> }>)[0] ?? [];
    expect(request?.params).toMatchObject({
      message: 'Approve a payment of 30?',
      requestedSchema: {
        type: 'object',
        properties: { approver: { type: 'string', description: 'Who approves' } },
      },
    });
    await rpc('tasks/update', {
      taskId,
      inputResponses: { [String(key)]: { action: 'accept', content: { approver: 'Ada' } } },
    });
    const done = await eventually('the resumed run to finish', async () => {
      const reply = await status(taskId);
      return reply.result?.status === 'completed' && reply.result;
    });
    // The workflow's output, as its output schema says.
    expect(done.result).toMatchObject({ structuredContent: { paid: 30, approvedBy: 'Ada' } });
    expect(textOf(done.result)).toBe('{"paid":30,"approvedBy":"Ada"}');
  });

  it('run_<workflow>: a task caller that declares no elicitation is told how to resume, and resume_<workflow> finishes the run', async () => {
    const { rpc, status } = await setup();
    const finished = async (taskId: string) =>
      (
        await eventually('the task to complete', async () => {
          const reply = await status(taskId);
          return reply.result?.status === 'completed' && reply.result;
        })
      ).result as { isError?: boolean; structuredContent?: unknown };
    const started = await rpc('tools/call', { name: 'run_payment', arguments: { amount: 8 } }, TASKS);
    const told = await finished(String(started.result?.taskId));
    expect(told.isError).toBe(true);
    const runId = /call tool 'resume_payment' with the arguments \{"runId":"([\w-]+)"/.exec(
      textOf(told),
    )?.[1];
    expect(runId).toEqual(expect.any(String));
    const resumed = await rpc(
      'tools/call',
      { name: 'resume_payment', arguments: { runId, resumeData: { approver: 'Gus' } } },
      TASKS,
    );
    expect(await finished(String(resumed.result?.taskId))).toMatchObject({
      structuredContent: { paid: 8, approvedBy: 'Gus' },
    });
  });

  it('run_<workflow>: a declined question cancels the run and completes the task with a tool error', async () => {
    const { rpc, status } = await setup();
    const taskId = String(
      (await rpc('tools/call', { name: 'run_payment', arguments: { amount: 1 } })).result?.taskId,
    );
    const asking = await eventually('the question', async () => {
      const reply = await status(taskId);
      return reply.result?.status === 'input_required' && reply.result;
    });
    const key = Object.keys(asking.inputRequests as object)[0] as string;
    await rpc('tasks/update', { taskId, inputResponses: { [key]: { action: 'decline' } } });
    const done = await eventually('the task to end', async () => {
      const reply = await status(taskId);
      return reply.result?.status === 'completed' && reply.result;
    });
    expect(done.result).toMatchObject({ isError: true });
    expect(textOf(done.result)).toContain(
      "Workflow 'payment' was cancelled: its input request at step 'approve' was declined",
    );
  });

  it('run_<workflow>: a run that cannot resume (no Mastra storage) says so instead of asking', async () => {
    const server = new MCPServer({
      name: 'lone',
      version: '1.0.0',
      tools: {},
      workflows: { lone },
      tasks: {},
    });
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const call = async (method: string, params: Record<string, unknown>, id: number) =>
      replyOf<Reply>(await fetch(http.mcpUrl, modernRequest(method, params, { id, capabilities: ASKING })));
    const taskId = String(
      (await call('tools/call', { name: 'run_lone', arguments: { amount: 2 } }, 1)).result?.taskId,
    );
    const done = await eventually('the task to end', async () => {
      const reply = await call('tasks/get', { taskId }, 2);
      return reply.result?.status === 'completed' && reply.result;
    });
    expect(textOf(done.result)).toContain(
      "Workflow 'lone' suspended at step 'approve' and cannot resume: it keeps no snapshot (register it on a Mastra instance with storage)",
    );
  });

  it('run_<workflow>: tasks/cancel cancels the workflow run', async () => {
    const { rpc, status } = await setup();
    const taskId = String((await rpc('tools/call', { name: 'run_waiting', arguments: {} })).result?.taskId);
    await rpc('tasks/cancel', { taskId });
    await eventually('the running step to see its abort', () => stepAborts.includes('wait'));
    expect((await status(taskId)).result?.status).toBe('cancelled');
  });

  it('ask_<agent>: streams what the agent writes into the status message and ends with the synchronous result', async () => {
    const { rpc, status } = await setup();
    const taskId = String(
      (await rpc('tools/call', { name: 'ask_writer', arguments: { message: 'Is it paid?' } })).result?.taskId,
    );
    const partial = await eventually('a partial answer in the status message', async () => {
      const reply = await status(taskId);
      const message = reply.result?.statusMessage;
      return (
        reply.result?.status === 'working' && message?.startsWith('Writer is answering: The ') && message
      );
    });
    expect(partial.length).toBeLessThan('Writer is answering: '.length + WORDS.join('').length);
    const done = await eventually('the answer', async () => {
      const reply = await status(taskId);
      return reply.result?.status === 'completed' && reply.result;
    });
    const sync = await rpc('tools/call', { name: 'ask_writer', arguments: { message: 'Is it paid?' } }, {});
    expect(textOf(done.result)).toBe(WORDS.join(''));
    expect(textOf(done.result)).toBe(textOf(sync.result));
  });

  it('ask_<agent>: a model that cannot stream (the README mock) answers as a task as it does without tasks', async () => {
    const { rpc, status } = await setup();
    const ask = { name: 'ask_clerk', arguments: { message: 'Is p-1 paid?' } };
    const sync = await rpc('tools/call', ask, {});
    expect(sync.result).toMatchObject({ structuredContent: { text: 'Found {"id":"p-1","state":"paid"}' } });
    // Twice: the first task finds out that the model cannot stream, the second knows it.
    for (let round = 0; round < 2; round++) {
      const taskId = String((await rpc('tools/call', ask)).result?.taskId);
      const done = await eventually('the answer', async () => {
        const reply = await status(taskId);
        return reply.result?.status === 'completed' && reply.result;
      });
      const { content, structuredContent } = sync.result as Record<string, unknown>;
      expect(done.result).toMatchObject({ content, structuredContent });
    }
  });

  it('run_<workflow>: a task survives a server restart: the next server takes the run over from its snapshot', async () => {
    new Mastra({ workflows: { payment }, logger: false });
    const store = new InMemoryMCPTaskStore();
    const requestState = { key: 'a-shared-key-of-at-least-32-bytes!!', instanceId: 'one' };
    const build = () =>
      new MCPServer({
        id: 'restart',
        name: 'restart',
        version: '1.0.0',
        tools: {},
        workflows: { payment },
        requestState,
        tasks: { store, pollIntervalMs: 50 },
      });
    let server = build();
    const http = await serveReplaceable(() => server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    let id = 0;
    const rpc = async (method: string, params: Record<string, unknown>) =>
      replyOf<Reply>(
        await fetch(http.mcpUrl, modernRequest(method, params, { id: ++id, capabilities: ASKING })),
      );
    const taskId = String(
      (await rpc('tools/call', { name: 'run_payment', arguments: { amount: 70 } })).result?.taskId,
    );
    const before = await eventually('the question before the restart', async () => {
      const reply = await rpc('tasks/get', { taskId });
      return reply.result?.status === 'input_required' && reply.result;
    });
    await server.close();
    server = build();
    // The first poll after the restart finds nobody running it: the new server takes it over.
    const after = await eventually('the question asked again by the new server', async () => {
      const reply = await rpc('tasks/get', { taskId });
      return reply.result?.status === 'input_required' && reply.result;
    });
    const [oldKey] = Object.keys(before.inputRequests as object);
    const [newKey, request] =
      Object.entries(after.inputRequests as Record<string, { params: { message: string } }>)[0] ?? [];
    expect(newKey).not.toBe(oldKey);
    expect(request?.params.message).toBe('Approve a payment of 70?');
    await rpc('tasks/update', {
      taskId,
      inputResponses: { [String(newKey)]: { action: 'accept', content: { approver: 'Lee' } } },
    });
    const done = await eventually('the run to finish on the new server', async () => {
      const reply = await rpc('tasks/get', { taskId });
      return reply.result?.status === 'completed' && reply.result;
    });
    expect(done.result).toMatchObject({ structuredContent: { paid: 70, approvedBy: 'Lee' } });
  });
});
