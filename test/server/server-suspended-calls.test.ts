import type {
  CallToolResult,
  ElicitResult,
  InputRequiredResult,
  ServerContext,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InputRequest, InputTarget } from '../../src/server/input-requests.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { type RunHandle, SuspendedCalls } from '../../src/server/suspended-calls.js';
import type { ElicitationRequest } from '../../src/server/types.js';

/** The fields of the SDK's handler context that SuspendedCalls reads; `subject` authenticates the caller. */
async function round(
  calls: SuspendedCalls,
  state?: string,
  inputResponses?: Record<string, unknown>,
  subject?: string,
  capabilities: Record<string, unknown> = { elicitation: {} },
) {
  const verified = state === undefined ? undefined : await calls.codec.verify(state, {} as ServerContext);
  return {
    mcpReq: {
      requestState: () => verified,
      inputResponses,
      signal: new AbortController().signal,
      envelope: { 'io.modelcontextprotocol/clientCapabilities': capabilities },
    },
    ...(subject ? { http: { authInfo: { token: 't', clientId: 'c', scopes: [], extra: { subject } } } } : {}),
  } as unknown as ServerContext;
}

const question: ElicitationRequest = {
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

/** What a `tools/call` of `name` suspends as. */
const toolCall = (name: string): InputTarget => ({ method: 'tools/call', name });

function askingTool(seen: string[]) {
  return async (run: RunHandle) => {
    const answer = (await run.ask({ method: 'elicitation/create', params: question })) as ElicitResult;
    seen.push(answer.action);
    return {
      content: [{ type: 'text', text: `hello ${answer.content?.name ?? answer.action}` }],
    } as CallToolResult;
  };
}

const asInputRequired = (value: unknown) => value as InputRequiredResult & { requestState: string };

afterEach(() => {
  vi.useRealTimers();
});

describe('SuspendedCalls', () => {
  it('parks a tool on its question and resumes the same run with the answer, once', async () => {
    const calls = new SuspendedCalls();
    const seen: string[] = [];
    const first = asInputRequired(await calls.serve(await round(calls), toolCall('greet'), askingTool(seen)));
    expect(first.resultType ?? 'input_required').toBe('input_required');
    const key = Object.keys(first.inputRequests ?? {})[0] as string;
    expect(first.inputRequests?.[key]).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Name?' },
    });

    const done = await calls.serve(
      await round(calls, first.requestState, { [key]: { action: 'accept', content: { name: 'Ada' } } }),
      toolCall('greet'),
      () => Promise.reject(new Error('a retry must not start the tool again')),
    );
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
    expect(seen).toEqual(['accept']);

    await expect(
      calls.serve(
        await round(calls, first.requestState, { [key]: { action: 'accept', content: { name: 'Eve' } } }),
        toolCall('greet'),
        askingTool(seen),
      ),
    ).rejects.toThrow(/not waiting any more/);
  });

  it('asks again when the retry carries no answer, and refuses answers of the wrong shape or schema', async () => {
    const calls = new SuspendedCalls();
    const first = asInputRequired(await calls.serve(await round(calls), toolCall('greet'), askingTool([])));
    const key = Object.keys(first.inputRequests ?? {})[0] as string;
    const again = asInputRequired(
      await calls.serve(await round(calls, first.requestState, {}), toolCall('greet'), askingTool([])),
    );
    expect(Object.keys(again.inputRequests ?? {})).toEqual([key]);
    await expect(
      calls.serve(
        await round(calls, again.requestState, { [key]: { action: 'maybe' } }),
        toolCall('greet'),
        askingTool([]),
      ),
    ).rejects.toThrow(/inputResponses\.elicitation-1 is not an elicitation result.*action/);
    await expect(
      calls.serve(
        await round(calls, again.requestState, { [key]: { action: 'accept', content: { name: 7 } } }),
        toolCall('greet'),
        askingTool([]),
      ),
    ).rejects.toThrow(/does not match the requested schema.*name/);
    await expect(
      calls.serve(
        await round(calls, again.requestState, { [key]: { action: 'decline' } }),
        toolCall('other-tool'),
        askingTool([]),
      ),
    ).rejects.toThrow(/Tool 'other-tool'/);
  });

  it('cancels a question nobody answers in time, and refuses the late answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calls = new SuspendedCalls();
    const seen: string[] = [];
    const first = asInputRequired(await calls.serve(await round(calls), toolCall('greet'), askingTool(seen)));
    vi.advanceTimersByTime(DEFAULT_LIMITS.suspendedCallTimeoutMs);
    await vi.waitFor(() => expect(seen).toEqual(['cancel']));
    const key = Object.keys(first.inputRequests ?? {})[0] as string;
    await expect(
      calls.serve(
        await round(calls, first.requestState, { [key]: { action: 'accept', content: { name: 'Late' } } }),
        toolCall('greet'),
        askingTool(seen),
      ),
    ).rejects.toThrow(/not waiting any more/);
  });

  it('cancelAll releases every suspended tool', async () => {
    const calls = new SuspendedCalls();
    const seen: string[] = [];
    await calls.serve(await round(calls), toolCall('a'), askingTool(seen));
    await calls.serve(await round(calls), toolCall('b'), askingTool(seen));
    calls.cancelAll();
    await vi.waitFor(() => expect(seen).toEqual(['cancel', 'cancel']));
  });

  it('refuses a question beyond the server and per-principal budgets, and counts a freed place again', async () => {
    const limits = { maxSuspendedCalls: 3, maxSuspendedCallsPerPrincipal: 2, suspendedCallTimeoutMs: 60_000 };
    const calls = new SuspendedCalls(undefined, limits);
    const seen: string[] = [];
    const failed: string[] = [];
    const tool = async (run: RunHandle) => {
      try {
        return await askingTool(seen)(run);
      } catch (error) {
        failed.push((error as Error).message);
        return { content: [], isError: true } as CallToolResult;
      }
    };
    const ann = [
      asInputRequired(
        await calls.serve(await round(calls, undefined, undefined, 'ann'), toolCall('greet'), tool),
      ),
      asInputRequired(
        await calls.serve(await round(calls, undefined, undefined, 'ann'), toolCall('greet'), tool),
      ),
    ];
    await expect(
      calls.serve(await round(calls, undefined, undefined, 'ann'), toolCall('greet'), tool),
    ).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(
        /Tool 'greet'.*2 calls of this caller.*limits\.maxSuspendedCallsPerPrincipal/,
      ),
    });
    await calls.serve(await round(calls), toolCall('greet'), tool);
    await expect(calls.serve(await round(calls), toolCall('greet'), tool)).rejects.toThrow(
      /3 calls.*limits\.maxSuspendedCalls\b/,
    );
    await vi.waitFor(() => expect(failed).toHaveLength(2));
    expect(calls.size).toBe(3);

    const key = Object.keys(ann[0]?.inputRequests ?? {})[0] as string;
    await calls.serve(
      await round(
        calls,
        ann[0]?.requestState,
        { [key]: { action: 'accept', content: { name: 'Ann' } } },
        'ann',
      ),
      toolCall('greet'),
      tool,
    );
    expect(calls.size).toBe(2);
    await calls.serve(await round(calls, undefined, undefined, 'ann'), toolCall('greet'), tool);
    expect(calls.size).toBe(3);
    calls.cancelAll();
  });

  it("refuses another principal's retry as unknown state and leaves the call waiting", async () => {
    const calls = new SuspendedCalls();
    const seen: string[] = [];
    const first = asInputRequired(
      await calls.serve(await round(calls, undefined, undefined, 'ann'), toolCall('greet'), askingTool(seen)),
    );
    const key = Object.keys(first.inputRequests ?? {})[0] as string;
    const answer = (name: string) => ({ [key]: { action: 'accept', content: { name } } });
    for (const thief of ['bob', undefined]) {
      await expect(
        calls.serve(
          await round(calls, first.requestState, answer('Mallory'), thief),
          toolCall('greet'),
          askingTool(seen),
        ),
      ).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/not waiting any more for this caller/),
      });
    }
    expect(seen).toEqual([]);
    const done = await calls.serve(
      await round(calls, first.requestState, answer('Ann'), 'ann'),
      toolCall('greet'),
      askingTool(seen),
    );
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'hello Ann' }] });
  });

  /** A `greet` run parked on its question, its first request's signal `first`'s. */
  async function parkGreeting(calls: SuspendedCalls, first: AbortController, ownSignal: boolean) {
    const ctx = await round(calls);
    (ctx.mcpReq as { signal: AbortSignal }).signal = first.signal;
    let run: RunHandle | undefined;
    const start = (handle: RunHandle) => {
      run = handle;
      return askingTool([])(handle);
    };
    const parked = asInputRequired(await calls.serve(ctx, toolCall('greet'), start, { ownSignal }));
    const key = Object.keys(parked.inputRequests ?? {})[0] as string;
    const answer = { [key]: { action: 'accept', content: { name: 'Ada' } } };
    const resume = async () =>
      calls.serve(await round(calls, parked.requestState, answer), toolCall('greet'), askingTool([]), {
        ownSignal,
      });
    return { run: run as RunHandle, resume };
  }

  it("aborts the run with its first round's request only while that round is in flight", async () => {
    const calls = new SuspendedCalls();
    const first = new AbortController();
    const { run, resume } = await parkGreeting(calls, first, true);
    // An instance per request may close (and abort the request's signal) after the answer.
    first.abort(new Error('connection closed'));
    expect(run.signal.aborted).toBe(false);
    expect(await resume()).toMatchObject({ content: [{ text: 'hello Ada' }] });

    const cancelled = new AbortController();
    const cancelledCtx = await round(calls);
    (cancelledCtx.mcpReq as { signal: AbortSignal }).signal = cancelled.signal;
    const result = await calls.serve(cancelledCtx, toolCall('greet'), async (handle) => {
      cancelled.abort(new Error('client went away'));
      return { content: [{ type: 'text', text: String(handle.signal.aborted) }] } as CallToolResult;
    });
    expect(result).toMatchObject({ content: [{ text: 'true' }] });
  });

  it("keeps its request's signal where the instance outlives the answer (stdio), and takes no controller of its own", async () => {
    const calls = new SuspendedCalls();
    const first = new AbortController();
    const { run, resume } = await parkGreeting(calls, first, false);
    expect(run.signal).toBe(first.signal);
    expect(await resume()).toMatchObject({ content: [{ text: 'hello Ada' }] });
    expect(calls.size).toBe(0);
  });
});

const ALL = { elicitation: {}, sampling: {}, roots: {} };
const elicit = { method: 'elicitation/create', params: question } as const;
const sample: InputRequest = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 9 },
};
const roots = { method: 'roots/list' } as const;
const sampled = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
const keysOf = (value: unknown) => Object.keys(asInputRequired(value).inputRequests ?? {});
const done = (text: string) => ({ content: [{ type: 'text', text }] }) as CallToolResult;

describe('SuspendedCalls: several questions, keys and kinds', () => {
  it('sends the questions of one stretch in one round, and one asked after I/O in the next', async () => {
    const calls = new SuspendedCalls();
    const first = await calls.serve(
      await round(calls, undefined, undefined, undefined, ALL),
      toolCall('t'),
      async (run) => {
        const name = run.ask(elicit, 'name');
        await Promise.resolve();
        const where = run.ask(roots);
        await Promise.all([name, where]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const said = await run.ask(sample);
        return done(JSON.stringify(said));
      },
    );
    expect(keysOf(first)).toEqual(['name', 'roots-1']);
    expect(asInputRequired(first).inputRequests?.name).toMatchObject({ method: 'elicitation/create' });
    const second = await calls.serve(
      await round(
        calls,
        asInputRequired(first).requestState,
        { name: { action: 'accept', content: { name: 'Ada' } }, 'roots-1': { roots: [] } },
        undefined,
        ALL,
      ),
      toolCall('t'),
      () => Promise.reject(new Error('not started again')),
    );
    expect(keysOf(second)).toEqual(['sampling-1']);
    const result = await calls.serve(
      await round(calls, asInputRequired(second).requestState, { 'sampling-1': sampled }, undefined, ALL),
      toolCall('t'),
      () => Promise.reject(new Error('not started again')),
    );
    expect(result).toMatchObject({ content: [{ text: expect.stringContaining('"model":"m"') }] });
    expect(calls.size).toBe(0);
  });

  it('refuses at once what the round did not declare (-32021); the tool goes on with the rest', async () => {
    const calls = new SuspendedCalls();
    const refusals: unknown[] = [];
    const first = await calls.serve(await round(calls), toolCall('t'), async (run) => {
      const [, name] = await Promise.allSettled([
        run.ask(sample).catch((error) => refusals.push(error)),
        run.ask(elicit),
      ]);
      return done(name.status);
    });
    expect(keysOf(first)).toEqual(['elicitation-1']);
    expect(refusals).toEqual([
      expect.objectContaining({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
        message: expect.stringMatching(/'sampling-1'.*tool 't' asked for input; declare sampling/),
      }),
    ]);
  });

  it('refuses a key used before in the call (across rounds too) and an empty one, naming it', async () => {
    const calls = new SuspendedCalls();
    const refusals: string[] = [];
    const refused = (promise: Promise<unknown>) =>
      promise.catch((error: { id: string; message: string }) =>
        refusals.push(`${error.id} ${error.message}`),
      );
    const first = await calls.serve(await round(calls), toolCall('t'), async (run) => {
      await run.ask(elicit, 'k');
      await refused(run.ask(elicit, 'k'));
      await refused(run.ask(elicit, ''));
      return done('ok');
    });
    expect(keysOf(first)).toEqual(['k']);
    await calls.serve(
      await round(calls, asInputRequired(first).requestState, { k: { action: 'decline' } }),
      toolCall('t'),
      () => Promise.reject(new Error('not started again')),
    );
    expect(refusals).toEqual([
      expect.stringMatching(
        /^MCP_SERVER_INVALID_INPUT_KEY Tool 't': the input request key 'k' was already used in this call/,
      ),
      expect.stringMatching(
        /^MCP_SERVER_INVALID_INPUT_KEY Tool 't': an input request key must be a non-empty string/,
      ),
    ]);
  });

  it('unanswered in time: an elicitation is cancelled, sampling and roots reject naming key and limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calls = new SuspendedCalls();
    const outcomes: string[] = [];
    const note = (promise: Promise<unknown>) =>
      promise.then(
        (answer) => outcomes.push(JSON.stringify(answer)),
        (error: { id: string; message: string }) => outcomes.push(`${error.id} ${error.message}`),
      );
    await calls.serve(
      await round(calls, undefined, undefined, undefined, ALL),
      toolCall('t'),
      async (run) => {
        await Promise.all([note(run.ask(elicit)), note(run.ask(sample)), note(run.ask(roots))]);
        return done('over');
      },
    );
    vi.advanceTimersByTime(DEFAULT_LIMITS.suspendedCallTimeoutMs);
    await vi.waitFor(() => expect(outcomes).toHaveLength(3));
    expect(outcomes).toEqual([
      '{"action":"cancel"}',
      expect.stringMatching(
        /^MCP_SERVER_INPUT_REQUEST_UNANSWERED Tool 't': input request 'sampling-1' \(sampling\/createMessage\) was not answered: .*limits\.suspendedCallTimeoutMs/,
      ),
      expect.stringMatching(
        /^MCP_SERVER_INPUT_REQUEST_UNANSWERED Tool 't': input request 'roots-1' \(roots\/list\)/,
      ),
    ]);
  });

  it("names a prompt in its errors, and a prompt's state resumes no tool call", async () => {
    const calls = new SuspendedCalls();
    const prompt: InputTarget = { method: 'prompts/get', name: 'brief' };
    const first = asInputRequired(
      await calls.serve(await round(calls, undefined, undefined, undefined, ALL), prompt, async (run) => {
        await run.ask(sample);
        return { messages: [] };
      }),
    );
    await expect(
      calls.serve(await round(calls, first.requestState, { 'sampling-1': { text: 'no' } }), prompt, vi.fn()),
    ).rejects.toThrow(/^Prompt 'brief': inputResponses\.sampling-1 is not a sampling result/);
    await expect(
      calls.serve(
        await round(calls, first.requestState, { 'sampling-1': sampled }),
        toolCall('brief'),
        vi.fn(),
      ),
    ).rejects.toThrow(/^Tool 'brief': the suspended call this answer belongs to is not waiting any more/);
    expect(
      await calls.serve(
        await round(calls, first.requestState, { 'sampling-1': sampled }, undefined, ALL),
        prompt,
        vi.fn(),
      ),
    ).toEqual({ messages: [] });
  });
});
