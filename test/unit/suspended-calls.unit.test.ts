/**
 * Suspended calls (src/server/suspended-calls.ts) as a tool's questions reach a client, in
 * process: at 2026-07-28 each question suspends the run behind an input_required answer and the
 * retry resumes the same run; on the 2025 handshake the same tool asks through
 * elicitation/create. The client's answers arrive in order, no call is left suspended after an
 * answered run, and a decline ends the questions. The store itself is tested in
 * test/server/server-suspended-calls.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MCPInputRequest } from '../../src/client/types.js';
import { MCPServer } from '../../src/index.js';
import { contactTool } from '../fixtures/tools.js';
import { inProcessClient } from '../support/in-process.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function setup(protocolVersion: '2026-07-28' | 'legacy', answer: (request: MCPInputRequest) => object) {
  const server = new MCPServer({ name: 'asks', version: '1.0.0', tools: { contactTool } });
  cleanups.push(() => server.close());
  const asked: string[] = [];
  const { mcp } = inProcessClient({
    asks: {
      server,
      definition: {
        protocolVersion,
        inputRequests: (request: MCPInputRequest) => {
          asked.push(request.params.message);
          return answer(request);
        },
      },
    },
  });
  cleanups.push(() => mcp.disconnect());
  const call = async (args: object) => {
    const tools = await mcp.listTools();
    const tool = tools.asks_contactTool as {
      execute(input: object, context: object): Promise<unknown>;
    };
    return textOf(await tool.execute(args, {}));
  };
  /** Calls the server holds suspended (SuspendedCalls.size). */
  const suspended = () => (server as unknown as { suspended: { size: number } }).suspended.size;
  return { call, asked, suspended };
}

describe.each(['2026-07-28', 'legacy'] as const)('a tool that asks, at %s', (protocolVersion) => {
  it('gets each answer in order, and leaves nothing suspended', async () => {
    const answers = [{ name: 'Ada' }, { ok: true }];
    const { call, asked, suspended } = setup(protocolVersion, () => ({
      action: 'accept',
      content: answers.shift(),
    }));
    expect(await call({ reason: 'For the invoice.' })).toBe('Collected {"name":"Ada"} confirmed=true');
    expect(asked).toEqual(['Please provide your contact information. For the invoice.', 'Confirm?']);
    expect(suspended()).toBe(0);
  });

  it('asks nothing more once the caller declines', async () => {
    const { call, asked } = setup(protocolVersion, () => ({ action: 'decline' }));
    // How the decline reaches the caller differs by era (a failed call at 2026-07-28, the tool's text on 2025).
    await call({}).catch(() => undefined);
    expect(asked).toEqual(['Please provide your contact information']);
  });
});
