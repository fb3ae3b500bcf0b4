import type { CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUSPENDED_CALL_TTL_SECONDS, SuspendedCalls } from './suspended-calls.js';
import type { ElicitationRequest } from './types.js';

/** The two fields of the SDK's handler context that SuspendedCalls reads. */
async function round(calls: SuspendedCalls, state?: string, inputResponses?: Record<string, unknown>) {
  const verified = state === undefined ? undefined : await calls.codec.verify(state, {} as ServerContext);
  return {
    mcpReq: { requestState: () => verified, inputResponses },
  } as unknown as ServerContext;
}

const question: ElicitationRequest = {
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

function askingTool(seen: string[]) {
  return async (
    elicit: (request: ElicitationRequest) => Promise<{ action: string; content?: Record<string, unknown> }>,
  ) => {
    const answer = await elicit(question);
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
    const first = asInputRequired(await calls.serve(await round(calls), 'greet', askingTool(seen)));
    expect(first.resultType ?? 'input_required').toBe('input_required');
    const key = Object.keys(first.inputRequests ?? {})[0] as string;
    expect(first.inputRequests?.[key]).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Name?' },
    });

    const done = await calls.serve(
      await round(calls, first.requestState, { [key]: { action: 'accept', content: { name: 'Ada' } } }),
      'greet',
      () => Promise.reject(new Error('a retry must not start the tool again')),
    );
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
    expect(seen).toEqual(['accept']);

    await expect(
      calls.serve(
        await round(calls, first.requestState, { [key]: { action: 'accept', content: { name: 'Eve' } } }),
        'greet',
        askingTool(seen),
      ),
    ).rejects.toThrow(/not waiting any more/);
  });

  it('asks again when the retry carries no answer, and refuses answers of the wrong shape or schema', async () => {
    const calls = new SuspendedCalls();
    const first = asInputRequired(await calls.serve(await round(calls), 'greet', askingTool([])));
    const key = Object.keys(first.inputRequests ?? {})[0] as string;
    const again = asInputRequired(
      await calls.serve(await round(calls, first.requestState, {}), 'greet', askingTool([])),
    );
    expect(Object.keys(again.inputRequests ?? {})).toEqual([key]);
    await expect(
      calls.serve(
        await round(calls, again.requestState, { [key]: { action: 'maybe' } }),
        'greet',
        askingTool([]),
      ),
    ).rejects.toThrow(/inputResponses\.elicitation-1 is not an elicitation result.*action/);
    await expect(
      calls.serve(
        await round(calls, again.requestState, { [key]: { action: 'accept', content: { name: 7 } } }),
        'greet',
        askingTool([]),
      ),
    ).rejects.toThrow(/does not match the requested schema.*name/);
    await expect(
      calls.serve(
        await round(calls, again.requestState, { [key]: { action: 'decline' } }),
        'other-tool',
        askingTool([]),
      ),
    ).rejects.toThrow(/Tool 'other-tool'/);
  });

  it('cancels a question nobody answers in time, and refuses the late answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calls = new SuspendedCalls();
    const seen: string[] = [];
    const first = asInputRequired(await calls.serve(await round(calls), 'greet', askingTool(seen)));
    vi.advanceTimersByTime(SUSPENDED_CALL_TTL_SECONDS * 1000);
    await vi.waitFor(() => expect(seen).toEqual(['cancel']));
    const key = Object.keys(first.inputRequests ?? {})[0] as string;
    await expect(
      calls.serve(
        await round(calls, first.requestState, { [key]: { action: 'accept', content: { name: 'Late' } } }),
        'greet',
        askingTool(seen),
      ),
    ).rejects.toThrow(/not waiting any more/);
  });

  it('cancelAll releases every suspended tool', async () => {
    const calls = new SuspendedCalls();
    const seen: string[] = [];
    await calls.serve(await round(calls), 'a', askingTool(seen));
    await calls.serve(await round(calls), 'b', askingTool(seen));
    calls.cancelAll();
    await vi.waitFor(() => expect(seen).toEqual(['cancel', 'cancel']));
  });
});
