import { existsSync } from 'node:fs';
import { MastraError } from '@mastra/core/error';
import { RequestContext } from '@mastra/core/request-context';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  type MCPClientOptions,
  type MCPInputRequestHandler,
  MCPServer,
} from '../../src/index.js';
import { clientTestTools } from '../fixtures/client-tools.js';
import { fullConfig } from '../fixtures/tools.js';
import { type HarnessOptions, serveHttp } from '../helpers.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let nextId = 0;
function client(
  servers: Record<string, MastraMCPServerDefinition>,
  extra: Partial<MCPClientOptions> = {},
): MCPClient {
  const mcp = new MCPClient({ id: `test-${++nextId}`, registerProcessHooks: false, servers, ...extra });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

async function httpServer(harness: HarnessOptions = {}) {
  const server = new MCPServer(fullConfig({ tools: { ...fullConfig().tools, ...clientTestTools } }));
  const http = await serveHttp(server, harness);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

const stdio = (extra: Partial<MastraMCPServerDefinition> = {}): MastraMCPServerDefinition =>
  ({
    command: process.execPath,
    args: ['--import', 'tsx', 'test/fixtures/stdio-server.ts'],
    protocolVersion: '2026-07-28',
    ...extra,
  }) as MastraMCPServerDefinition;

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
const run = (tool: any, input: unknown, context: Record<string, unknown> = {}) =>
  tool.execute(input, context);

describe('MCPClient against MCPServer', () => {
  it.each(['2026-07-28', 'legacy'] as const)(
    'over stdio and HTTP, protocolVersion %s',
    async (protocolVersion) => {
      const { http } = await httpServer();
      const mcp = client({
        local: stdio({ protocolVersion }),
        remote: { url: http.mcpUrl, protocolVersion },
      });
      const tools = await mcp.listTools();
      expect(Object.keys(tools)).toEqual(
        expect.arrayContaining([
          'local_weatherTool',
          'local_ask_helper',
          'remote_run_doubler',
          'remote_scalar',
        ]),
      );
      for (const server of ['local', 'remote']) {
        const weather = await run(tools[`${server}_weatherTool`], { location: 'Nice' });
        expect(weather).toEqual({ location: 'Nice', forecast: 'Weather in Nice is sunny.' });
        // The MCP envelope rides along without showing up in the value.
        expect(Object.keys(weather)).toEqual(['location', 'forecast']);
        expect(weather.content[0].text).toContain('Nice');
      }
      const toolsets = await mcp.listToolsets();
      expect(Object.keys(toolsets)).toEqual(['local', 'remote']);
      expect(Object.keys(toolsets.remote ?? {})).toContain('weatherTool');
      expect(mcp.getServerInfo().remote).toMatchObject({ name: 'Test Server', version: '1.2.3' });
      expect(mcp.getServerInstructions()).toEqual({ local: 'Use the tools.', remote: 'Use the tools.' });
    },
  );

  it('probes the revision when none is pinned, on one endpoint serving both', async () => {
    const { http } = await httpServer();
    const mcp = client({ remote: { url: http.mcpUrl } });
    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(errors).toEqual({});
    expect(await run(tools.remote_zod3Tool, { a: 2, b: 3 })).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });
  });

  it('exposes title, annotations, server metadata and returns scalars unchanged', async () => {
    const { http } = await httpServer();
    const mcp = client({
      remote: { url: http.mcpUrl, forwardInstructions: true, instructionsMaxLength: 100 },
    });
    const tools = await mcp.listTools();
    expect(tools.remote_scalar?.title).toBe('Scalar output');
    expect(tools.remote_deleteRepo?.title).toBe('Delete repository');
    expect(tools.remote_zod3Tool?.title).toBeUndefined();
    expect(tools.remote_deleteRepo?.mcp?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.remote_weatherTool?.mcpMetadata).toMatchObject({
      serverName: 'remote',
      serverVersion: '1.2.3',
      serverInstructions: 'Use the tools.',
      forwardInstructions: true,
      instructionsMaxLength: 100,
    });
    expect(await run(tools.remote_scalar, { n: 4 })).toBe(40);
  });

  it("raises in-band tool errors as MastraError, or returns them with onToolError: 'return'", async () => {
    const { http } = await httpServer();
    const mcp = client({
      throwing: { url: http.mcpUrl },
      returning: { url: http.mcpUrl, onToolError: 'return' },
    });
    const tools = await mcp.listTools();
    const error = await run(tools.throwing_structuredError, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MastraError);
    expect((error as MastraError).message).toContain(
      "'structuredError' on server 'throwing' failed: quota exceeded",
    );
    expect((error as MastraError).details).toMatchObject({ structuredContent: '{"retryAfter":30}' });
    const returned = await run(tools.returning_structuredError, {});
    expect(returned).toMatchObject({ isError: true, structuredContent: { retryAfter: 30 } });
  });

  it('validates with a supplied jsonSchemaValidator (the cf-worker one, no code generation)', async () => {
    const { http } = await httpServer();
    const mcp = client({
      remote: { url: http.mcpUrl, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
    });
    const tools = await mcp.listTools();
    expect(await run(tools.remote_weatherTool, { location: 'Graz' })).toMatchObject({ location: 'Graz' });
    await expect(run(tools.remote_weatherTool, { location: 5 })).rejects.toMatchObject({
      id: 'MCP_CLIENT_INVALID_TOOL_ARGUMENTS',
      details: { server: 'remote', tool: 'weatherTool' },
    });
  });

  it('validates arguments before calling the server', async () => {
    const { http } = await httpServer();
    const mcp = client({ remote: { url: http.mcpUrl } });
    const tools = await mcp.listTools();
    // The error itself is test/client/client-errors.test.ts's.
    await expect(run(tools.remote_weatherTool, { location: 5 })).rejects.toMatchObject({
      id: 'MCP_CLIENT_INVALID_TOOL_ARGUMENTS',
      details: { field: 'location' },
    });
  });

  it('wires requireToolApproval (function) with the tool name, arguments, request context and annotations', async () => {
    const { http } = await httpServer();
    const seen: unknown[] = [];
    const mcp = client({
      always: { url: http.mcpUrl, requireToolApproval: true },
      dynamic: {
        url: http.mcpUrl,
        requireToolApproval: async (context) => {
          seen.push(context);
          return context.annotations?.destructiveHint === true && context.args.force !== true;
        },
      },
    });
    const tools = await mcp.listTools();
    expect(tools.always_weatherTool?.requireApproval).toBe(true);
    const decide = tools.dynamic_deleteRepo?.requireApproval as (
      input: unknown,
      ctx?: unknown,
    ) => Promise<boolean>;
    expect(await decide({ name: 'x' }, { requestContext: { userRole: 'admin' } })).toBe(true);
    expect(await decide({ name: 'x', force: true })).toBe(false);
    expect(seen[0]).toMatchObject({
      toolName: 'deleteRepo',
      args: { name: 'x' },
      requestContext: { userRole: 'admin' },
      annotations: { destructiveHint: true },
    });
  });

  it('sends a progress token when tracking is on, using a given runId', async () => {
    const { http } = await httpServer();
    const mcp = client({ remote: { url: http.mcpUrl, enableProgressTracking: true } });
    const updates: Array<{ progressToken: string; progress: number }> = [];
    await mcp.progress.onUpdate('remote', (update) => updates.push(update));
    const tools = await mcp.listTools();
    await run(tools.remote_progressTool, { n: 2 }, { runId: 'run-42' });
    await eventually('two progress updates', () => updates.length === 2);
    expect(updates.map((u) => [u.progressToken, u.progress])).toEqual([
      ['run-42', 1],
      ['run-42', 2],
    ]);
  });

  it('sends the values of the traceContext option in request _meta', async () => {
    const { http } = await httpServer();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const mcp = client({
      traced: {
        url: http.mcpUrl,
        protocolVersion: '2026-07-28',
        traceContext: () => ({ traceparent, baggage: 'tenant=7' }),
      },
      plain: { url: http.mcpUrl, protocolVersion: 'legacy' },
    });
    const tools = await mcp.listTools();
    const traced = await run(tools.traced_echoMeta, {});
    expect(traced.meta).toMatchObject({ traceparent, baggage: 'tenant=7' });
    const plain = await run(tools.plain_echoMeta, {});
    expect(plain.meta.traceparent).toBeUndefined();
  });

  it('by default sends the traceparent of the tool-call span the tool runs in', async () => {
    const { http } = await httpServer();
    const mcp = client({ remote: { url: http.mcpUrl, protocolVersion: '2026-07-28' } });
    const tools = await mcp.listTools();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    const traced = await run(
      tools.remote_echoMeta,
      {},
      { tracingContext: { currentSpan: { traceId, id: spanId } } },
    );
    expect(traced.meta.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    // A span whose ids are not W3C-shaped (a no-op tracer's) sends nothing rather than garbage.
    const noop = await run(
      tools.remote_echoMeta,
      {},
      { tracingContext: { currentSpan: { traceId: 'x', id: 'y' } } },
    );
    expect(noop.meta.traceparent).toBeUndefined();
  });

  it('forwards server log messages to the logger at the requested level', async () => {
    const { http } = await httpServer();
    const logs: Array<{ level: string; message: string; serverName: string }> = [];
    const mcp = client({
      verbose: { url: http.mcpUrl, logger: (entry) => logs.push(entry), serverLogLevel: 'info' },
      quiet: { url: http.mcpUrl, logger: (entry) => logs.push(entry), serverLogLevel: 'error' },
      silent: { url: http.mcpUrl, logger: (entry) => logs.push(entry), enableServerLogs: false },
    });
    const tools = await mcp.listTools();
    for (const server of ['verbose', 'quiet', 'silent']) await run(tools[`${server}_progressTool`], { n: 1 });
    await eventually('the verbose server log', () =>
      logs.some((l) => l.message.includes('counting started')),
    );
    const serverLogs = logs.filter((l) => l.message.includes('counting started'));
    expect(serverLogs.map((l) => [l.serverName, l.level])).toEqual([['verbose', 'info']]);
  });

  it('answers input requests over both revisions, and a decline ends the call with an error', async () => {
    const { http } = await httpServer();
    const asked: string[] = [];
    const handler: MCPInputRequestHandler = async ({ key, params }) => {
      asked.push(key);
      const content: Record<string, string | boolean> =
        params.message === 'Confirm?' ? { ok: true } : { name: 'Kim' };
      return { action: 'accept', content };
    };
    const mcp = client({
      modern: { url: http.mcpUrl, protocolVersion: '2026-07-28', inputRequests: handler },
      legacy: { url: http.mcpUrl, protocolVersion: 'legacy', inputRequests: handler },
      declining: {
        url: http.mcpUrl,
        protocolVersion: '2026-07-28',
        inputRequests: async () => ({ action: 'decline' }),
      },
      none: { url: http.mcpUrl, protocolVersion: '2026-07-28' },
    });
    const tools = await mcp.listTools();
    for (const server of ['modern', 'legacy']) {
      const result = await run(tools[`${server}_contactTool`], {});
      expect(result.content[0].text).toBe('Collected {"name":"Kim"} confirmed=true');
    }
    expect(asked.slice(0, 2)).toEqual(['elicitation-1', 'elicitation-2']);
    await expect(run(tools.declining_contactTool, {})).rejects.toThrow(/declining.*declined/);
    await expect(run(tools.none_contactTool, {})).rejects.toThrow(/'contactTool' on server 'none'/);
  });
});

describe('connections', () => {
  it('connects lazily, once, however many operations wait', async () => {
    const sessions: string[] = [];
    const { http } = await httpServer({ options: { onsessioninitialized: (id) => sessions.push(id) } });
    const mcp = client({ remote: { url: http.mcpUrl, protocolVersion: 'legacy' } });
    expect(sessions).toEqual([]);
    await Promise.all([mcp.listTools(), mcp.listTools(), mcp.resources.list(), mcp.prompts.list()]);
    expect(sessions).toHaveLength(1);
    await mcp.reconnectServer('remote');
    expect(sessions).toHaveLength(2);
  });

  it('passes the custom fetch the request context of the call, null during the handshake, and requestInit headers', async () => {
    const seenHeaders: string[] = [];
    const { http } = await httpServer({
      before: (req) => {
        seenHeaders.push(String(req.headers['x-team'] ?? ''));
      },
    });
    const contexts: Array<string | null> = [];
    const mcp = client({
      remote: {
        url: http.mcpUrl,
        protocolVersion: '2026-07-28',
        requestInit: { headers: { 'x-team': 'blue' } },
        fetch: async (url, init, requestContext) => {
          contexts.push(
            requestContext === null || requestContext === undefined
              ? null
              : String(requestContext.get('user')),
          );
          const headers = new Headers(init?.headers);
          return fetch(url, { ...init, headers });
        },
      },
    });
    const tools = await mcp.listTools();
    const requestContext = new RequestContext();
    requestContext.set('user', 'ada');
    await run(tools.remote_zod3Tool, { a: 1, b: 1 }, { requestContext });
    expect(contexts[0]).toBeNull();
    expect(contexts.at(-1)).toBe('ada');
    expect(seenHeaders.every((value) => value === 'blue')).toBe(true);
  });

  it('starts stdio servers from the curated environment, or from env alone', async () => {
    process.env.MCP_TEST_SECRET = 'do-not-leak';
    try {
      const mcp = client({
        curated: stdio({ env: { MCP_TEST_MARKER: 'curated' } }),
        bare: stdio({
          env: { MCP_TEST_MARKER: 'bare', PATH: process.env.PATH ?? '' },
          inheritDefaultEnv: false,
        }),
      });
      const tools = await mcp.listTools();
      const curated = JSON.parse((await run(tools.curated_envTool, {})).content[0].text);
      const bare = JSON.parse((await run(tools.bare_envTool, {})).content[0].text);
      expect(curated.marker).toBe('curated');
      expect(curated.keys).toContain('HOME');
      expect(curated.keys).not.toContain('MCP_TEST_SECRET');
      expect(bare.marker).toBe('bare');
      expect(bare.keys).not.toContain('HOME');
    } finally {
      delete process.env.MCP_TEST_SECRET;
    }
  });

  it("forwards a stdio server's stderr to the logger", async () => {
    const logs: Array<{ message: string; details?: Record<string, unknown> }> = [];
    const mcp = client({ local: stdio({ protocolVersion: 'legacy', logger: (entry) => logs.push(entry) }) });
    const tools = await mcp.listTools();
    // The server logs a failing tool through Mastra's console logger, i.e. on its stderr.
    await run(tools.local_failingTool, {}).catch(() => {});
    await eventually('the stderr line', () =>
      logs.find(
        (entry) => entry.details?.stream === 'stderr' && entry.message.includes('the detonator is broken'),
      ),
    );
  });

  it('falls back to the legacy SSE transport when Streamable HTTP is refused', async () => {
    const { http } = await httpServer();
    const mcp = client({ sse: { url: new URL(`${http.base}/sse`) } });
    const tools = await mcp.listTools();
    expect(await run(tools.sse_weatherTool, { location: 'Bonn' })).toEqual({
      location: 'Bonn',
      forecast: 'Weather in Bonn is sunny.',
    });
  });

  it('keeps one instance per id and configuration, and refuses anonymous duplicates', async () => {
    const { http } = await httpServer();
    const servers = { remote: { url: http.mcpUrl } };
    const first = new MCPClient({ id: 'shared', servers, registerProcessHooks: false });
    cleanups.push(() => first.disconnect());
    expect(
      new MCPClient({
        id: 'shared',
        servers: { remote: { url: new URL(http.mcpUrl.href) } },
        registerProcessHooks: false,
      }),
    ).toBe(first);
    const replaced = new MCPClient({ id: 'shared', servers, timeout: 5000, registerProcessHooks: false });
    cleanups.push(() => replaced.disconnect());
    expect(replaced).not.toBe(first);

    const anonymous = new MCPClient({ servers, registerProcessHooks: false });
    expect(() => new MCPClient({ servers, registerProcessHooks: false })).toThrow(/same configuration/);
    await anonymous.disconnect();
    const again = new MCPClient({ servers, registerProcessHooks: false });
    cleanups.push(() => again.disconnect());
    expect(again).not.toBe(anonymous);
  });

  it('stores typegen.outFile as frozen metadata, part of the instance identity, and generates nothing', async () => {
    const servers = { remote: { url: new URL('http://127.0.0.1:9/mcp') } };
    const options = {
      id: 'typegen',
      servers,
      registerProcessHooks: false,
      typegen: { outFile: 'a.generated.ts' },
    };
    const first = new MCPClient(options);
    cleanups.push(() => first.disconnect());
    expect(first.typegen).toEqual({ outFile: 'a.generated.ts' });
    expect(Object.isFrozen(first.typegen)).toBe(true);
    expect(new MCPClient({ ...options, typegen: { outFile: 'a.generated.ts' } })).toBe(first);
    // Another outFile replaces the cached client, so no constructor keeps a file it was not given.
    const other = new MCPClient({ ...options, typegen: { outFile: 'b.generated.ts' } });
    cleanups.push(() => other.disconnect());
    expect(other).not.toBe(first);
    expect(other.typegen?.outFile).toBe('b.generated.ts');
    expect(existsSync('a.generated.ts') || existsSync('b.generated.ts')).toBe(false);
    for (const outFile of ['', '   ', 42]) {
      expect(
        () => new MCPClient({ ...options, id: 'typegen-bad', typegen: { outFile: outFile as string } }),
      ).toThrow(/'typegen.outFile' must be a non-empty path/);
    }
  });

  it('names the unknown server in errors', async () => {
    const mcp = client({});
    await expect(mcp.resources.read('ghost', 'file://x')).rejects.toThrow("Unknown MCP server 'ghost'");
  });
});

describe('resources and prompts', () => {
  it('lists, reads and gets across servers, with per-server errors', async () => {
    const { http } = await httpServer();
    const mcp = client({
      remote: { url: http.mcpUrl },
      down: { url: new URL('http://127.0.0.1:9/mcp'), protocolVersion: 'legacy' },
    });
    const { resources, errors } = await mcp.resources.listWithErrors();
    expect(resources.remote?.map((r) => r.uri)).toEqual(['file://data/1.txt', 'file://data/logo.png']);
    expect(errors.down).toContain("MCP server 'down'");
    const { templates } = await mcp.resources.templatesWithErrors({ perServerTimeoutMs: 5000 });
    expect(templates.remote?.[0]?.uriTemplate).toBe('file://data/{id}.txt');
    expect((await mcp.resources.read('remote', 'file://data/1.txt')).contents[0]).toMatchObject({
      text: 'first file',
    });
    await expect(mcp.resources.read('remote', 'file://nope')).rejects.toThrow(/remote.*file:\/\/nope/);
    const prompts = await mcp.prompts.listWithErrors();
    expect(prompts.prompts.remote?.map((p) => p.name)).toContain('analyze-code');
    const v2 = await mcp.prompts.get({
      serverName: 'remote',
      name: 'analyze-code',
      args: { code: 'z' },
      version: 'v2',
    });
    expect(v2.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Analyze this code with the new logic: z',
    });
    expect(v2.prompt).toMatchObject({ name: 'analyze-code', version: 'v2' });
  });

  it('subscribes to resources through one listen stream on 2026-07-28, and with resources/subscribe on legacy', async () => {
    const { server, http } = await httpServer();
    const mcp = client({
      modern: { url: http.mcpUrl, protocolVersion: '2026-07-28' },
      legacy: { url: http.mcpUrl, protocolVersion: 'legacy' },
    });
    const updates: string[] = [];
    await mcp.resources.onUpdated('modern', ({ uri }) => updates.push(uri));
    await mcp.resources.subscribe('modern', 'file://data/1.txt');
    await mcp.resources.subscribe('modern', 'file://data/1.txt');
    await server.resources.notifyUpdated({ uri: 'file://data/1.txt' });
    await server.resources.notifyUpdated({ uri: 'file://data/logo.png' });
    await eventually('the update', () => updates.length === 1);
    expect(updates).toEqual(['file://data/1.txt']);
    await mcp.reconnectServer('modern');
    await server.resources.notifyUpdated({ uri: 'file://data/1.txt' });
    await eventually('the update after a reconnect', () => updates.length === 2);
    await mcp.resources.unsubscribe('modern', 'file://data/1.txt');
    // Legacy sessions subscribe too (test/client/client-legacy-parity.test.ts has the rest).
    await mcp.resources.onUpdated('legacy', ({ uri }) => updates.push(`legacy ${uri}`));
    await mcp.resources.subscribe('legacy', 'file://data/1.txt');
    await server.resources.notifyUpdated({ uri: 'file://data/1.txt' });
    await eventually('the legacy update', () => updates.includes('legacy file://data/1.txt'));
  });

  it('delivers list-changed notifications on both revisions', async () => {
    const { server, http } = await httpServer();
    const mcp = client({
      modern: { url: http.mcpUrl, protocolVersion: '2026-07-28' },
      legacy: { url: http.mcpUrl, protocolVersion: 'legacy' },
    });
    const changes: string[] = [];
    await mcp.listTools();
    for (const name of ['modern', 'legacy']) {
      await mcp.tools.onListChanged(name, () => changes.push(`${name}:tools`));
      await mcp.prompts.onListChanged(name, () => changes.push(`${name}:prompts`));
      await mcp.resources.onListChanged(name, () => changes.push(`${name}:resources`));
    }
    await server.toolActions.notifyListChanged();
    await server.prompts.notifyListChanged();
    await server.resources.notifyListChanged();
    await eventually('six notifications', () => changes.length === 6);
    expect(changes.sort()).toEqual([
      'legacy:prompts',
      'legacy:resources',
      'legacy:tools',
      'modern:prompts',
      'modern:resources',
      'modern:tools',
    ]);
  });
});
