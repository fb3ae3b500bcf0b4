/**
 * A task outlives the client process that started it: one process starts a workflow that
 * suspends for approval and exits; a second process, which never saw the call, answers the
 * approval with tasks/update and gets the workflow's result. Both are real MCPClient processes
 * over HTTP.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Mastra } from '@mastra/core/mastra';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPServer } from '../../src/index.js';
import { serveHttp } from '../helpers.js';

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL('../fixtures/task-client-process.ts', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const decide = createStep({
  id: 'decide',
  inputSchema: z.object({ amount: z.number() }),
  outputSchema: z.object({ amount: z.number(), approver: z.string() }),
  resumeSchema: z.object({ approver: z.string() }),
  suspendSchema: z.object({ message: z.string() }),
  execute: async ({ inputData, resumeData, suspend }) => {
    if (!resumeData) return await suspend({ message: `Approve ${inputData.amount}?` });
    return { amount: inputData.amount, approver: resumeData.approver };
  },
});

const approval = createWorkflow({
  id: 'approval',
  description: 'Waits for someone to approve an amount',
  inputSchema: z.object({ amount: z.number() }),
  outputSchema: z.object({ amount: z.number(), approver: z.string() }),
})
  .then(decide)
  .commit();

async function client(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CLIENT, ...args], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

describe('a task across client processes', () => {
  it('is started by one process and resumed and finished by another', async () => {
    new Mastra({ workflows: { approval }, logger: false });
    const server = new MCPServer({
      name: 'approvals',
      version: '1.0.0',
      tools: {},
      workflows: { approval },
      tasks: { pollIntervalMs: 50 },
    });
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const { taskId } = await client('start', http.mcpUrl.href);
    expect(taskId).toEqual(expect.any(String));
    const { result } = await client('finish', http.mcpUrl.href, String(taskId));
    expect(result).toMatchObject({
      structuredContent: { amount: 120, approver: 'second process (Approve 120?)' },
    });
  });
});
