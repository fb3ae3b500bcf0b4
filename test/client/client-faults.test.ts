/**
 * MCPClient under faulty servers: every fault is reported for its own server while a healthy
 * server configured in the same client keeps working. Real child processes and real HTTP on
 * 127.0.0.1; the faulty stdio servers are small plain-JavaScript fixtures (fault-*.mjs).
 */
import http from 'node:http';
import { createTool } from '@mastra/core/tools';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  MCPServer,
  type MCPTool,
  type StdioServerDefinition,
} from '../../src/index.js';
import {
  clientsDisconnectedAfterEach,
  faultStdio,
  type HttpEndpoint,
  leftRunning,
  pidRecorder,
  run,
  sdkStdio,
  serveHangingHttp,
  serveSdkHttp,
  survivors,
} from '../fixtures/client-harness.js';
import { listenLocal } from '../support/net.js';
import { isAlive } from '../support/process.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const { clients, children } = clientsDisconnectedAfterEach();
const cleanups: Array<() => Promise<unknown>> = [];
let nextId = 0;

function client(servers: Record<string, MastraMCPServerDefinition>): MCPClient {
  const mcp = new MCPClient({
    id: `faults-${process.pid}-${++nextId}`,
    registerProcessHooks: false,
    timeout: 20_000,
    servers,
  });
  clients.push(mcp);
  return mcp;
}

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let healthyHttp: HttpEndpoint;
beforeAll(async () => {
  healthyHttp = await serveSdkHttp();
});
afterAll(async () => {
  await healthyHttp.close();
});

/** The healthy server: the SDK McpServer over Streamable HTTP, in this process (no start-up cost). */
const healthy = (): MastraMCPServerDefinition => ({ url: healthyHttp.url });

async function expectHealthyWorks(tools: Record<string, MCPTool>) {
  expect(Object.keys(tools)).toEqual(expect.arrayContaining(['healthy_echo', 'healthy_weather']));
  expect(textOf(await run(tools.healthy_echo, { text: 'still here' }))).toBe('echo: still here');
}

/** A hand-written legacy server from fault-raw-server.mjs in the given mode. */
const raw = (mode: string, extra: Partial<StdioServerDefinition> = {}) =>
  faultStdio('fault-raw-server', [mode], { protocolVersion: 'legacy', ...extra });

describe('a stdio server that crashes at startup', () => {
  it('is reported for its own server; the healthy one keeps working', async () => {
    const log = pidRecorder(children);
    const mcp = client({ healthy: healthy(), crash: faultStdio('fault-crash', [], { logger: log.logger }) });

    const { tools, errors, errorDetails } = await mcp.listToolsWithErrors();
    expect(Object.keys(errors)).toEqual(['crash']);
    expect(errors.crash).toMatch(/MCP server 'crash'/);
    expect(errorDetails.crash?.message).toEqual(expect.stringContaining("'crash'"));
    expect(Object.keys(tools).some((key) => key.startsWith('crash_'))).toBe(false);
    await expectHealthyWorks(tools);
    // The child's stderr reaches the server's logger, so the cause is visible.
    expect(log.records.map((entry) => entry.message)).toContain('fault-crash: failed to start (simulated)');

    // The other listings report it the same way, and asking again does not break anything.
    const prompts = await mcp.prompts.listWithErrors();
    expect(prompts.errors.crash).toMatch(/'crash'/);
    expect(prompts.prompts.healthy?.map((prompt) => prompt.name)).toEqual(['greet']);
    const again = await mcp.listToolsWithErrors();
    expect(Object.keys(again.errors)).toEqual(['crash']);
    await expectHealthyWorks(again.tools);
  });
});

describe('a server that hangs', () => {
  it('is cut off by perServerTimeoutMs and reported in errors, with durations for every server', async () => {
    const hanging = await serveHangingHttp();
    cleanups.push(() => hanging.close());
    const log = pidRecorder(children);
    const mcp = client({
      healthy: healthy(),
      // Their own timeouts are longer than the deadline: perServerTimeoutMs is what cuts them off.
      hangHttp: { url: hanging.url, timeout: 5000 },
      hangStdio: faultStdio('fault-hang', [], {
        protocolVersion: 'legacy',
        timeout: 5000,
        logger: log.logger,
      }),
    });
    // Connected beforehand, so the healthy server's listing is well inside the deadline even on a busy machine.
    await mcp.reconnectServer('healthy');

    const { tools, errors, errorDetails, durations } = await mcp.listToolsWithErrors({
      perServerTimeoutMs: 3000,
    });

    expect(Object.keys(errors).sort()).toEqual(['hangHttp', 'hangStdio']);
    expect(errors.hangHttp).toMatch(/'hangHttp'.*3000 ms/);
    expect(errors.hangStdio).toMatch(/'hangStdio'.*3000 ms/);
    expect(errorDetails.hangHttp?.message).toBe(errors.hangHttp);
    expect(Object.keys(durations ?? {}).sort()).toEqual(['hangHttp', 'hangStdio', 'healthy']);
    expect(durations?.hangHttp).toBeGreaterThanOrEqual(2950);
    expect(durations?.hangStdio).toBeGreaterThanOrEqual(2950);
    await expectHealthyWorks(tools);
  });

  it('a per-server timeout makes a hanging tool call reject with an error naming server and tool', async () => {
    const mcp = client({ healthy: healthy(), slow: { url: healthyHttp.url, timeout: 1000 } });
    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(errors).toEqual({});

    const failure = await run(tools.slow_sleep, { ms: 10_000 }).then(
      () => undefined,
      (error: unknown) => error as Error & { id?: string; details?: Record<string, unknown> },
    );
    expect(failure?.message).toMatch(/MCP tool 'sleep' on server 'slow' failed: .*timed out/i);
    expect(failure?.id).toBe('MCP_CLIENT_TOOL_CALL_FAILED');
    expect(failure?.details).toMatchObject({ server: 'slow', tool: 'sleep' });

    // The same connection and the other server are still usable.
    expect(textOf(await run(tools.slow_echo, { text: 'after' }))).toBe('echo: after');
    expect(textOf(await run(tools.slow_sleep, { ms: 10 }))).toBe('slept 10');
    await expectHealthyWorks(tools);
  });
});

describe('malformed results', () => {
  it('a hand-written server whose tools/list is garbage is reported for that server', async () => {
    const mcp = client({
      healthy: healthy(),
      notArray: raw('not-array'),
      noInputSchema: raw('no-input-schema'),
      notJson: raw('not-json', { timeout: 1500 }),
    });
    const { tools, errors, errorDetails } = await mcp.listToolsWithErrors();

    expect(Object.keys(errors).sort()).toEqual(['notArray', 'notJson']);
    // `tools` is a string: the SDK rejects the result as invalid.
    expect(errors.notArray).toMatch(/tools\/list/);
    expect(errors.notArray).toMatch(/expected array/);
    // A tool without inputSchema is dropped on arrival (tool-list guard); the valid one stays.
    expect(Object.keys(tools).filter((key) => key.startsWith('noInputSchema_'))).toEqual([
      'noInputSchema_ok',
    ]);
    // A line that is not JSON is dropped by the transport; the request times out.
    expect(errors.notJson).toMatch(/timed out/i);
    for (const name of ['notArray', 'notJson']) {
      expect(errorDetails[name]?.message).toBeTruthy();
      expect(Object.keys(tools).some((key) => key.startsWith(`${name}_`))).toBe(false);
    }
    // Every error a user sees should name the server it concerns (src/client/errors.ts), as the
    // connect and deadline errors do. Checked softly so each server's message is reported.
    expect.soft(errors.notArray).toMatch(/'notArray'/);
    expect.soft(errors.notJson).toMatch(/'notJson'/);

    await expectHealthyWorks(tools);
  });

  it('a ~5 MB tool result completes over stdio and HTTP, and the client keeps working', async () => {
    const log = pidRecorder(children);
    const mcp = client({ healthy: healthy(), big: sdkStdio({ logger: log.logger }) });
    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(errors).toEqual({});

    const size = 5 * 1024 * 1024;
    for (const tool of [tools.big_huge, tools.healthy_huge]) {
      const result = await run(tool, { bytes: size });
      const text = textOf(result);
      expect(text.length).toBe(size);
      expect(text.startsWith('xxxx')).toBe(true);
    }
    expect(textOf(await run(tools.big_echo, { text: 'small again' }))).toBe('echo: small again');
    await expectHealthyWorks(tools);
  });
});

/** `modern` uses $defs/$ref, anyOf, prefixItems with `items: false` and a boolean subschema. */
// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
async function expectModernSchemaValidates(modern: any): Promise<void> {
  const valid = { from: { x: 1, y: 2 }, label: null, pair: ['a', 1], anything: [1] };
  expect(textOf(await run(modern, valid))).toMatch(/raw ok/);
  for (const invalid of [
    { from: { x: 1 } },
    { from: { x: 1, y: 2 }, label: '' },
    { from: { x: 1, y: 2 }, pair: ['a', 1, 'extra'] },
    { from: { x: 1, y: 2 }, unknown: true },
  ]) {
    const result = await run(modern, invalid).catch((error: Error) => error);
    expect(result, JSON.stringify(invalid)).toMatchObject({ id: 'MCP_CLIENT_INVALID_TOOL_ARGUMENTS' });
  }
}

describe('invalid tool schemas', () => {
  it('a tool with an invalid top-level inputSchema is dropped alone, with a logged error naming it', async () => {
    // `{ type: 'object', properties: 5 }` and `{ type: 'nonsense' }` next to a valid tool `ok`. The
    // SDK validates the tools/list result as a whole, so the tool-list guard drops each tool its
    // Tool schema would reject before it sees the list: `ok` stays usable.
    const log = pidRecorder(children);
    const mcp = client({ healthy: healthy(), badSchema: raw('bad-schema', { logger: log.logger }) });
    const { tools, errors } = await mcp.listToolsWithErrors();

    expect(errors).toEqual({});
    expect(Object.keys(tools).filter((key) => key.startsWith('badSchema_'))).toEqual(['badSchema_ok']);
    const skipped = log.records.filter((record) => record.level === 'error').map((record) => record.message);
    expect(skipped).toEqual([
      expect.stringMatching(/^tool 'badProperties' skipped: its inputSchema\.properties: /),
      expect.stringMatching(/^tool 'badType' skipped: its inputSchema\.type: /),
    ]);
    expect(textOf(await run(tools.badSchema_ok, { text: 'fine' }))).toBe('raw ok: fine');
    await expectHealthyWorks(tools);
  });

  it('a tool whose nested schema cannot be compiled is skipped with a logged error; the rest work', async () => {
    // Top level valid (so the SDK accepts the list), but `properties.a` is `{ type: 'nonsense' }`:
    // building the tool fails, MCPClient skips it and logs an error naming it.
    const log = pidRecorder(children);
    const mcp = client({ healthy: healthy(), nested: raw('bad-nested', { logger: log.logger }) });
    const { tools, errors } = await mcp.listToolsWithErrors();

    expect(errors).toEqual({});
    expect(Object.keys(tools)).toContain('nested_ok');
    expect(Object.keys(tools)).not.toContain('nested_badNested');
    expect(log.records).toContainEqual(
      expect.objectContaining({
        level: 'error',
        serverName: 'nested',
        message: expect.stringMatching(/tool 'badNested' skipped: .*nonsense/),
      }),
    );
    expect(textOf(await run(tools.nested_ok, { text: 'fine' }))).toBe('raw ok: fine');
    await expectHealthyWorks(tools);
  });

  it('tools over the schema budgets are skipped one by one; 2020-12 schemas work', async () => {
    // `abyss` nests 100,000 levels: left to the SDK's validation it would overflow the stack and
    // fail the whole listing. Screened on arrival, only the over-budget tools go.
    const log = pidRecorder(children);
    const mcp = client({ healthy: healthy(), hostile: raw('hostile-schemas', { logger: log.logger }) });
    const { tools, errors } = await mcp.listToolsWithErrors();

    expect(errors).toEqual({});
    expect(Object.keys(tools).filter((key) => key.startsWith('hostile_'))).toEqual([
      'hostile_ok',
      'hostile_modern',
    ]);
    const reasons = Object.fromEntries(
      log.records
        .filter((record) => record.level === 'error')
        .map((record) => /tool '(\w+)' skipped: (.*)/.exec(record.message)?.slice(1) ?? []),
    );
    expect(reasons).toEqual({
      abyss: 'its inputSchema nests subschemas more than 128 levels deep',
      deep: 'its inputSchema nests subschemas more than 128 levels deep',
      huge: 'its inputSchema has more than 10000 subschemas',
      deepDefault: 'its inputSchema nests JSON more than 1000 levels deep',
      deepOutput: 'its outputSchema nests subschemas more than 128 levels deep',
    });
    const definitions = await mcp.listToolDefinitions();
    expect(Object.keys(definitions.hostile ?? {})).toEqual(['ok', 'modern']);

    await expectModernSchemaValidates(tools.hostile_modern);
    await expectHealthyWorks(tools);
  });

  it('the cf-worker validator (no code generation) handles the same 2020-12 schema', async () => {
    const mcp = client({
      hostile: raw('hostile-schemas', { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() }),
    });
    await expectModernSchemaValidates((await mcp.listTools()).hostile_modern);
  });

  it('without a per-server logger, the skipped tool still reaches the client logger', async () => {
    const mcp = client({ healthy: healthy(), nested: raw('bad-nested') });
    const logged: string[] = [];
    const original = mcp.logger;
    mcp.logger = new Proxy(original, {
      get: (target, key) =>
        key === 'error'
          ? (message: string) => logged.push(message)
          : Reflect.get(target, key, target)?.bind?.(target),
    });
    const { tools } = await mcp.listToolsWithErrors();
    expect(Object.keys(tools)).toContain('nested_ok');
    // MCPClient.log(): "Transport and server log records also reach the Mastra logger".
    expect(logged).toContainEqual(expect.stringMatching(/nested.*badNested/));
  });
});

describe('reconnecting', () => {
  it.each([undefined, 'legacy'] as const)(
    'a stdio server killed after connecting is restarted by the next call (protocolVersion %s)',
    async (protocolVersion) => {
      const log = pidRecorder(children);
      const mcp = client({
        healthy: healthy(),
        sdk: sdkStdio({ logger: log.logger, ...(protocolVersion ? { protocolVersion } : {}) }),
      });
      const { tools, errors } = await mcp.listToolsWithErrors();
      expect(errors).toEqual({});
      const first = Number(textOf(await run(tools.sdk_pid, {})));
      expect(isAlive(first)).toBe(true);
      children.add(first);

      process.kill(first, 'SIGKILL');
      expect(await survivors([first], 5000)).toEqual([]);

      // The same tool object, the very next operation: a new process answers.
      const second = Number(textOf(await run(tools.sdk_pid, {})));
      children.add(second);
      expect(second).not.toBe(first);
      expect(isAlive(second)).toBe(true);
      const relisted = await mcp.listToolsWithErrors();
      expect(relisted.errors).toEqual({});
      expect(textOf(await run(relisted.tools.sdk_echo, { text: 'back' }))).toBe('echo: back');
      await expectHealthyWorks(relisted.tools);
    },
  );

  it('an HTTP legacy session the server forgets is reopened by the next call', async () => {
    const instance = (tag: string) =>
      new MCPServer({
        id: `faults-${tag}`,
        name: `faults-${tag}`,
        version: '1.0.0',
        tools: {
          whoami: createTool({
            id: 'whoami',
            description: 'Names the server instance.',
            inputSchema: z.object({}),
            outputSchema: z.object({ instance: z.string() }),
            execute: async () => ({ instance: tag }),
          }),
        },
      });
    // One listener whose MCPServer can be replaced: a restarted server on the same address.
    let current = instance('A');
    const listener = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      void current.startHTTP({ url, httpPath: '/mcp', req, res });
    });
    await listenLocal(listener);
    const address = listener.address() as { port: number };
    const url = new URL(`http://127.0.0.1:${address.port}/mcp`);
    cleanups.push(async () => {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
      await current.close();
    });

    const sessions: string[] = [];
    const mcp = client({
      healthy: healthy(),
      mastra: {
        url,
        protocolVersion: 'legacy',
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          const session = response.headers.get('mcp-session-id');
          if (session && !sessions.includes(session)) sessions.push(session);
          return response;
        },
      },
    });
    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(errors).toEqual({});
    expect(await run(tools.mastra_whoami, {})).toEqual({ instance: 'A' });
    expect(sessions).toHaveLength(1);

    // 1. The server restarts: the new instance has never heard of the session (404).
    const old = current;
    current = instance('B');
    await old.close();
    expect(await run(tools.mastra_whoami, {})).toEqual({ instance: 'B' });
    expect(sessions).toHaveLength(2);

    // 2. The session is ended from outside (DELETE), as an operator or proxy would.
    const ended = await fetch(url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessions[1] as string, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(ended.status).toBeLessThan(300);
    expect(await run(tools.mastra_whoami, {})).toEqual({ instance: 'B' });
    expect(sessions).toHaveLength(3);

    const relisted = await mcp.listToolsWithErrors();
    expect(relisted.errors).toEqual({});
    await expectHealthyWorks(relisted.tools);
  });
});

describe('child processes', () => {
  it('none is left running after disconnect()', async () => {
    const log = pidRecorder(children);
    const mcp = client({
      healthy: healthy(),
      sdk: sdkStdio({ logger: log.logger }),
      raw: raw('bad-nested', { logger: log.logger }),
      crash: faultStdio('fault-crash', [], { logger: log.logger }),
      // Hangs at startup, ignoring stdin EOF and SIGTERM; its connect times out (1 s) before
      // disconnect(), so only the client's cleanup of that failed connect can end it.
      hang: faultStdio('fault-hang', ['--ignore-sigterm'], {
        protocolVersion: 'legacy',
        timeout: 1000,
        logger: log.logger,
      }),
    });
    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(Object.keys(errors).sort()).toEqual(['crash', 'hang']);
    // A server killed after connecting and restarted by the next call: both processes count.
    const first = Number(textOf(await run(tools.sdk_pid, {})));
    process.kill(first, 'SIGKILL');
    expect(await survivors([first], 5000)).toEqual([]);
    const second = Number(textOf(await run(tools.sdk_pid, {})));
    expect([log.pids.has(first), log.pids.has(second)]).toEqual([true, true]);
    // Listing again retries the crashing and the hanging server (new processes) right before
    // disconnect().
    const again = await mcp.listToolsWithErrors();
    expect(Object.keys(again.errors).sort()).toEqual(['crash', 'hang']);
    // sdk twice, raw, crash and hang at least twice each.
    expect(log.pids.size).toBeGreaterThanOrEqual(7);

    await mcp.disconnect();
    expect(await leftRunning(log.pids, log.records, 1500)).toEqual([]);
  });

  it('disconnect() during a connect that is still in flight returns promptly and leaves no child', async () => {
    const log = pidRecorder(children);
    const mcp = client({
      healthy: healthy(),
      // Hangs at startup; its own connect timeout (6 s) is far away when disconnect() is called.
      hang: faultStdio('fault-hang', [], { protocolVersion: 'legacy', timeout: 6000, logger: log.logger }),
    });
    await mcp.reconnectServer('healthy');
    const { errors } = await mcp.listToolsWithErrors({ perServerTimeoutMs: 500 });
    expect(Object.keys(errors)).toEqual(['hang']);
    await eventually('the hanging server to be spawned', () => log.pids.size > 0, 3000);
    expect(log.pids.size).toBe(1);

    // disconnect() aborts the connect in flight instead of waiting out its 6 s timeout.
    await mcp.disconnect();
    expect(await leftRunning(log.pids, log.records, 1500)).toEqual([]);
  });
});

describe('a server that sends a URL request to an elicitation.onRequest() handler', () => {
  it('is answered with an error naming the server and inputRequests; the form handler is not called', async () => {
    // URL support declared by the app, yet the handler it set answers forms only.
    const mcp = client({
      raw: raw('url-elicitation', { capabilities: { elicitation: { form: {}, url: {} } } }),
    });
    let called = 0;
    await mcp.elicitation.onRequest('raw', async () => {
      called++;
      return { action: 'accept', content: {} };
    });
    const tools = await mcp.listTools();
    expect(textOf(await run(tools.raw_ok, { text: 'x' }))).toMatch(
      /^error .*MCP server 'raw' sent a URL-mode input request.*configure the server's inputRequests option/,
    );
    expect(called).toBe(0);
  });
});
