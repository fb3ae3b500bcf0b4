/**
 * A `run_<workflow>` whose step suspends, without the `tasks` option, for each kind of caller over
 * real transports: a 2026-07-28 caller that declares elicitation gets an input request (MCPClient),
 * a 2025 one `elicitation/create` with the step's resume schema (the SDK v1 client, over HTTP and
 * stdio), and both runs resume with the answer. A caller that supports neither (the SDK v1 client
 * without elicitation, MCPClient without an input handler, the MCP Inspector's CLI on both eras)
 * is told how to resume the run, and `resume_<workflow>` continues it. What is wrong with a resume
 * call is told to the caller even with `redactErrors`; nobody resumes another principal's run.
 */
import { Mastra } from '@mastra/core/mastra';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, MCPErrorCode, type MCPInputRequest, MCPServer } from '../../src/index.js';
import { lonePayment as lone, payment } from '../fixtures/payment-workflow.js';
import { bearerAuth, connectHttp, type HttpHarness, modernRequest, replyOf, serveHttp } from '../helpers.js';
import { inspectorCli } from '../support/inspector.js';
import { rejectionOf, textOf } from '../support/results.js';

type CallResult = {
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
};

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let server: MCPServer;
let http: HttpHarness;
beforeAll(async () => {
  // The default storage of a Mastra instance keeps the snapshots suspended runs resume from.
  new Mastra({ workflows: { payment }, logger: false });
  server = new MCPServer({
    name: 'payments',
    version: '1.0.0',
    tools: {},
    workflows: { payment },
    // What a resume call gets wrong is the caller's to fix: it is told even so.
    redactErrors: true,
  });
  http = await serveHttp(server, { before: bearerAuth });
});
afterAll(async () => {
  await http.close();
  await server.close();
});

/** The run id and the resume call a suspended run's result names. */
function resumeCallIn(text: string): { tool: string; runId: string } {
  const match = /call tool '(\w+)' with the arguments \{"runId":"([\w-]+)"/.exec(text);
  if (!match) throw new Error(`no resume call in: ${text}`);
  return { tool: match[1] as string, runId: match[2] as string };
}

const APPROVE_SCHEMA = {
  type: 'object',
  properties: { approver: { type: 'string', description: 'Who approves' } },
  required: ['approver'],
};

async function v1Client(elicitation: boolean): Promise<ClientV1> {
  const client = new ClientV1(
    { name: 'sdk-v1', version: '1.0.0' },
    { capabilities: elicitation ? { elicitation: {} } : {} },
  );
  cleanups.push(() => client.close());
  return client;
}

/** Answers every elicitation/create with an approver, remembering what was asked. */
function approveAs(client: ClientV1, approver: string): Array<Record<string, unknown>> {
  const asked: Array<Record<string, unknown>> = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { approver } };
  });
  return asked;
}

describe('a suspended run_<workflow> asks a caller that declares elicitation', () => {
  it("2026-07-28 (MCPClient with an inputRequests handler): an input request with the step's resume schema; the answer resumes the run", async () => {
    const asked: MCPInputRequest['params'][] = [];
    const mcp = new MCPClient({
      id: `suspend-modern-${Math.random()}`,
      servers: {
        payments: {
          url: http.mcpUrl,
          inputRequests: async ({ params }) => {
            asked.push(params);
            return { action: 'accept', content: { approver: 'Ada' } };
          },
        },
      },
    });
    cleanups.push(() => mcp.disconnect());
    const { payments_run_payment } = await mcp.listTools();
    expect(await payments_run_payment?.execute?.({ amount: 30 }, {} as never)).toEqual({
      paid: 30,
      approvedBy: 'Ada',
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: 'Approve a payment of 30?', requestedSchema: APPROVE_SCHEMA });
  });

  it('2025 (the SDK v1 client over Streamable HTTP): elicitation/create with the resume schema; the answer resumes the run', async () => {
    const client = await v1Client(true);
    const asked = approveAs(client, 'Bo');
    await client.connect(new HttpTransportV1(http.mcpUrl));
    const result = await client.callTool({ name: 'run_payment', arguments: { amount: 12 } });
    expect(result.structuredContent).toEqual({ paid: 12, approvedBy: 'Bo' });
    expect(asked).toEqual([
      expect.objectContaining({ message: 'Approve a payment of 12?', requestedSchema: APPROVE_SCHEMA }),
    ]);
  });

  it('2025 (the SDK v1 client over stdio): the same question, the same resumed run', async () => {
    const client = await v1Client(true);
    const asked = approveAs(client, 'Cy');
    await client.connect(
      new StdioTransportV1({
        command: process.execPath,
        args: ['--import', 'tsx', 'test/fixtures/workflow-stdio-server.ts'],
        stderr: 'pipe',
      }),
    );
    const result = await client.callTool({ name: 'run_payment', arguments: { amount: 7 } });
    expect(result.structuredContent).toEqual({ paid: 7, approvedBy: 'Cy' });
    expect(asked).toHaveLength(1);
  });

  it('a workflow without storage says it cannot resume instead of asking', async () => {
    const bare = new MCPServer({ name: 'bare', version: '1.0.0', tools: {}, workflows: { lone } });
    const bareHttp = await serveHttp(bare);
    const client = await connectHttp(bareHttp.mcpUrl, 'modern');
    cleanups.push(
      () => bareHttp.close(),
      () => bare.close(),
      () => client.close(),
    );
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept', content: { approver: 'x' } };
    });
    const result = await client.callTool({ name: 'run_lone', arguments: { amount: 2 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Tool 'run_lone' failed: Workflow 'lone' suspended at step 'approve' and cannot resume: it keeps no snapshot (register it on a Mastra instance with storage)",
    );
    expect(asked).toBe(0);
  });
});

describe('a suspended run_<workflow> tells a caller that supports neither how to resume it', () => {
  it('the SDK v1 client without elicitation: an error result naming resume_payment, its arguments and the data schema; resume_payment finishes the run', async () => {
    const client = await v1Client(false);
    await client.connect(new HttpTransportV1(http.mcpUrl));
    const suspended = (await client.callTool({
      name: 'run_payment',
      arguments: { amount: 5 },
    })) as CallResult;
    expect(suspended.isError).toBe(true);
    expect(suspended.structuredContent).toBeUndefined();
    const text = textOf(suspended);
    expect(text).toContain("Workflow 'payment' suspended at step 'approve' (Approve a payment of 5?)");
    expect(text).toContain(
      `"resumeData":DATA} where DATA is an object matching this JSON Schema: ${JSON.stringify(APPROVE_SCHEMA)}`,
    );
    const { tool, runId } = resumeCallIn(text);
    expect(tool).toBe('resume_payment');
    const resumed = await client.callTool({
      name: tool,
      arguments: { runId, step: 'approve', resumeData: { approver: 'Dee' } },
    });
    expect(resumed.structuredContent).toEqual({ paid: 5, approvedBy: 'Dee' });
  });

  it('MCPClient without an input handler: a MastraError that says how; the resume tool continues the run', async () => {
    const mcp = new MCPClient({
      id: `suspend-neither-${Math.random()}`,
      servers: { payments: { url: http.mcpUrl } },
    });
    cleanups.push(() => mcp.disconnect());
    const tools = await mcp.listTools();
    const error = await rejectionOf(
      tools.payments_run_payment?.execute?.({ amount: 9 }, {} as never) ?? Promise.resolve(),
    );
    expect(error).toMatchObject({ id: MCPErrorCode.CLIENT_TOOL_ERROR });
    const { tool, runId } = resumeCallIn(String((error as Error).message));
    expect(
      await tools[`payments_${tool}`]?.execute?.({ runId, resumeData: { approver: 'Eve' } }, {} as never),
    ).toEqual({
      paid: 9,
      approvedBy: 'Eve',
    });
  });

  it.each(['legacy', 'modern'])(
    'the MCP Inspector CLI (%s era): the suspended call says how, and a second call resumes',
    async (era) => {
      const call = (tool: string, args: Record<string, unknown>) =>
        inspectorCli([
          '--protocol-era',
          era,
          http.mcpUrl.href,
          '--method',
          'tools/call',
          '--tool-name',
          tool,
          '--tool-args-json',
          JSON.stringify(args),
        ]);
      const suspended = await call('run_payment', { amount: 40 });
      expect(suspended.output.result?.isError).toBe(true);
      const { tool, runId } = resumeCallIn(textOf(suspended.output.result));
      const resumed = await call(tool, { runId, resumeData: { approver: 'Flo' } });
      expect(resumed.code).toBe(0);
      expect(resumed.output.result?.structuredContent).toEqual({ paid: 40, approvedBy: 'Flo' });
    },
  );
});

describe('resume_<workflow> refuses what it cannot do, naming the argument', () => {
  /** A 2026-07-28 tools/call without elicitation, as `subject` when given. */
  async function call(name: string, args: Record<string, unknown>, subject?: string): Promise<CallResult> {
    const reply = await replyOf<{ result: CallResult }>(
      await fetch(
        http.mcpUrl,
        modernRequest(
          'tools/call',
          { name, arguments: args },
          subject ? { headers: { authorization: `Bearer ${subject}` } } : {},
        ),
      ),
    );
    return reply.result;
  }

  it("an unknown run, a step that is not suspended, data the resume schema refuses, a finished run, another caller's run", async () => {
    const { runId } = resumeCallIn(textOf(await call('run_payment', { amount: 3 }, 'alice')));
    const refusal = async (args: Record<string, unknown>, subject?: string) => {
      const result = await call('resume_payment', args, subject);
      expect(result.isError).toBe(true);
      return textOf(result);
    };
    expect(await refusal({ runId: 'no-such-run' }, 'alice')).toBe(
      "Invalid arguments for tool 'resume_payment': runId: workflow 'payment' has no run 'no-such-run' of this caller (it never existed, its snapshot is gone, or another caller started it)",
    );
    // Another principal's run (and an anonymous caller's attempt) looks like an unknown one.
    for (const subject of ['mallory', undefined]) {
      expect(await refusal({ runId, resumeData: { approver: 'M' } }, subject)).toContain(
        `has no run '${runId}' of this caller`,
      );
    }
    expect(await refusal({ runId, step: 'pay' }, 'alice')).toBe(
      `Invalid arguments for tool 'resume_payment': step: 'pay' is not suspended in run '${runId}' (suspended: approve)`,
    );
    expect(await refusal({ runId, resumeData: { approver: 42 } }, 'alice')).toMatch(
      /^Invalid arguments for tool 'resume_payment': resumeData: approver: .*string/,
    );
    const done = await call('resume_payment', { runId, resumeData: { approver: 'Al' } }, 'alice');
    expect(done.structuredContent).toEqual({ paid: 3, approvedBy: 'Al' });
    expect(await refusal({ runId, resumeData: { approver: 'Al' } }, 'alice')).toBe(
      `Invalid arguments for tool 'resume_payment': runId: run '${runId}' is success, not suspended`,
    );
  });
});
