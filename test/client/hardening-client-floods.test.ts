/**
 * MCPClient against servers that flood it (issue 25, items 7 and 9): a `tools/list` of thousands
 * of distinct patterns, and answers and notifications larger than `maxMessageBytes`. The servers
 * are fixtures/flood-server.ts in child processes, over stdio and over Streamable HTTP in both
 * eras (the answer as a JSON body and as an event of a stream), and an MCPServer's legacy SSE
 * endpoint on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTool } from '@mastra/core/tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type LogMessage,
  type MastraMCPServerDefinition,
  MCPClient,
  MCPErrorCode,
  MCPServer,
  type MCPTool,
} from '../../src/index.js';
import { clientsDisconnectedAfterEach, pidRecorder, run } from '../fixtures/client-harness.js';
import { serveHttp } from '../helpers.js';
import { rejectionOf, textOf } from '../support/results.js';

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/flood-server.ts');
const MiB = 2 ** 20;

const { clients, children } = clientsDisconnectedAfterEach();
const records: LogMessage[] = [];
let nextId = 0;

afterEach(() => {
  records.length = 0;
});

function client(servers: Record<string, MastraMCPServerDefinition>): MCPClient {
  const mcp = new MCPClient({
    id: `floods-${process.pid}-${++nextId}`,
    registerProcessHooks: false,
    timeout: 30_000,
    servers,
  });
  clients.push(mcp);
  return mcp;
}

/** Every record of every server goes to `records`, and each child's pid to `children`. */
const logger = pidRecorder(children).logger;
const recorded = (entry: LogMessage) => {
  records.push(entry);
  logger(entry);
};

function floodStdio(
  args: string[],
  extra: Partial<MastraMCPServerDefinition> = {},
): MastraMCPServerDefinition {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE, ...args],
    logger: recorded,
    ...extra,
  } as MastraMCPServerDefinition;
}

const warnings = (server: string, pattern: RegExp) =>
  records
    .filter((entry) => entry.level === 'warning' && entry.serverName === server)
    .map((entry) => entry.message)
    .filter((message) => pattern.test(message));

const messageOf = (outcome: unknown) => (outcome as { message?: string } | undefined)?.message ?? '';

describe('the patterns of a hostile tools/list', () => {
  it('compile to at most maxPatternInstructions per server, warned once; a shared pattern compiles once', async () => {
    const mcp = client({
      // 300 tools × 5 distinct patterns of some 35 instructions: over 50,000 instructions.
      distinct: floodStdio(['--tools', '300'], { maxPatternInstructions: 2000 }),
      // The same five patterns in every tool: some 175 instructions in all.
      shared: floodStdio(['--tools', '300', '--shared'], { maxPatternInstructions: 2000 }),
    });
    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(errors).toEqual({});
    expect(Object.keys(tools)).toHaveLength(2 * 302);
    // A second listing adds no warning: the budget is the server's, and its patterns were counted.
    await mcp.listTools();

    const budget = /maxPatternInstructions \(2000 RE2 instructions\).* not checked by the client/;
    expect(warnings('distinct', budget)).toHaveLength(1);
    expect(warnings('distinct', /./)).toHaveLength(1);
    expect(warnings('shared', /./)).toEqual([]);

    // The first tools' patterns were compiled and are checked; the last ones' were not.
    expect(messageOf(await rejectionOf(run(tools.distinct_t0, { a0: 'NOT-A-MATCH' })))).toMatch(
      /must match pattern/,
    );
    expect(textOf(await run(tools.distinct_t299, { a0: 'NOT-A-MATCH' }))).toBe('called t299');
    expect(messageOf(await rejectionOf(run(tools.shared_t299, { a0: 'NOT-A-MATCH' })))).toMatch(
      /must match pattern/,
    );
    expect(textOf(await run(tools.shared_t299, { a0: 'abc-0' }))).toBe('called t299');
  });
});

/** The error a call over the bound fails with, as the caller reads it. */
const overBound = (server: string, bound: string) =>
  new RegExp(
    `MCP server '${server}': the answer to tools/call 'big' is larger than ${bound} \\(maxMessageBytes\\), so the client dropped it; raise maxMessageBytes in this server's definition`,
  );
const droppedNotification = (bound: string) =>
  new RegExp(
    `a notifications/message is larger than ${bound} \\(maxMessageBytes\\), so the client dropped it`,
  );

/** Over the bound, then within it, then a notification over it: the connection serves all three. */
async function expectBounded(tools: Record<string, MCPTool>, server: string, stream = false) {
  const tool = (name: string) => tools[`${server}_${name}`];
  const refused = await rejectionOf(run(tool('big'), { bytes: 2 * MiB, stream }));
  expect(messageOf(refused)).toMatch(overBound(server, '1 MiB'));
  expect(textOf(await run(tool('big'), { bytes: 1000, stream }))).toHaveLength(1000);
  expect(textOf(await run(tool('notify'), { count: 1, pad: 2 * MiB }))).toBe('sent 1');
  expect(warnings(server, droppedNotification('1 MiB'))).toHaveLength(1);
  expect(warnings(server, /connection closed/)).toEqual([]);
}

describe('messages over maxMessageBytes', () => {
  it('over stdio: the call fails naming server, tool, bound and option; the connection goes on', async () => {
    const mcp = client({
      small: floodStdio([], { maxMessageBytes: MiB }),
      plain: floodStdio([]),
    });
    const { tools } = await mcp.listToolsWithErrors();
    await expectBounded(tools, 'small');
    // The default: 16 MiB (the SDK's own reader closed the connection past 10 MiB).
    const refused = await rejectionOf(run(tools.plain_big, { bytes: 17 * MiB }));
    expect(messageOf(refused)).toMatch(overBound('plain', '16 MiB'));
    expect(textOf(await run(tools.plain_big, { bytes: 12 * MiB }))).toHaveLength(12 * MiB);
  });

  describe('over Streamable HTTP', () => {
    let server: { url: URL; close: () => Promise<void> };
    beforeAll(async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, '--http'], {
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const [port] = JSON.parse(line) as number[];
      server = {
        url: new URL(`http://127.0.0.1:${port}/mcp`),
        close: async () => {
          const exited = once(child, 'exit');
          child.stdin.end();
          await exited;
        },
      };
    });
    afterAll(() => server.close());

    it.each([
      ['2026-07-28', false],
      ['2026-07-28', true],
      ['legacy', false],
      ['legacy', true],
    ] as const)('%s, answered as a stream event: %s', async (protocolVersion, stream) => {
      const mcp = client({
        flood: { url: server.url, protocolVersion, maxMessageBytes: MiB, logger: recorded },
      });
      await expectBounded(await mcp.listTools(), 'flood', stream);
    });
  });

  it('over the legacy SSE transport (an MCPServer startSSE endpoint)', async () => {
    const big = createTool({
      id: 'big',
      description: 'Answers `bytes` characters.',
      inputSchema: z.object({ bytes: z.number() }),
      execute: async ({ bytes }) => 'x'.repeat(bytes),
    });
    const mcpServer = new MCPServer({
      name: 'sse',
      version: '1.0.0',
      tools: { big },
      limits: { maxStreamBufferBytes: 8 * MiB },
    });
    const http = await serveHttp(mcpServer);
    try {
      const mcp = client({
        sse: { url: new URL(`${http.base}/sse`), maxMessageBytes: MiB, logger: recorded },
      });
      const tools = await mcp.listTools();
      const refused = await rejectionOf(run(tools.sse_big, { bytes: 2 * MiB }));
      expect(messageOf(refused)).toMatch(overBound('sse', '1 MiB'));
      expect(textOf(await run(tools.sse_big, { bytes: 1000 }))).toHaveLength(1000);
    } finally {
      await Promise.all(clients.splice(0).map((mcp) => mcp.disconnect()));
      await mcpServer.close();
      await http.close();
    }
  });

  it('refuses a bound that is not a positive integer, naming the server and option', () => {
    for (const [option, value] of [
      ['maxMessageBytes', 0],
      ['maxPatternInstructions', -1],
      ['maxMessageBytes', 1.5],
    ] as const) {
      const make = () => client({ odd: { command: 'node', [option]: value } });
      expect(make).toThrow(expect.objectContaining({ id: MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG }));
      expect(make).toThrow(new RegExp(`MCP server 'odd': '${option}' must be an integer of at least`));
    }
  });
});
