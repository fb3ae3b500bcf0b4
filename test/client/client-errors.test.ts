/**
 * Errors of MCPClient that say what to change, over real transports: stdio servers that die at
 * start-up (Node, a syntax error, Python when python3 is installed) are reported with the error
 * they printed; the `stderr` option routes a server's stderr; calls on an HTTP server that went
 * down, that answers 502 with an HTML page (Streamable HTTP at both revisions and legacy SSE), or
 * that never answers name the cause and the option; invalid arguments reject with a MastraError
 * naming the field, and an agent's model still reads which field to fix.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '@mastra/core/agent';
import { MastraError } from '@mastra/core/error';
import { ConsoleLogger } from '@mastra/core/logger';
import { createTool } from '@mastra/core/tools';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolCallingModel } from '../../examples/mock-model.js';
import {
  type LogMessage,
  type MastraMCPServerDefinition,
  MCPClient,
  type MCPClientOptions,
  MCPServer,
  type MCPTool,
} from '../../src/index.js';
import { run, serveSdkHttp } from '../fixtures/client-harness.js';
import { listenLocal } from '../support/net.js';
import { rejectionOf, textOf } from '../support/results.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const cleanups: Array<() => Promise<unknown>> = [];
let nextId = 0;

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function client(servers: Record<string, MastraMCPServerDefinition>, options: Partial<MCPClientOptions> = {}) {
  const mcp = new MCPClient({
    id: `client-errors-${++nextId}`,
    registerProcessHooks: false,
    timeout: 20_000,
    ...options,
    servers,
  });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

/** Why connecting to the only server failed, as listToolsWithErrors() reports it. */
async function connectFailure(name: string, definition: MastraMCPServerDefinition): Promise<string> {
  const { errors } = await client({ [name]: definition }).listToolsWithErrors();
  return errors[name] ?? '(connected)';
}

/** A node -e server: its command line as the client shows it, and the definition. */
const nodeScript = (script: string, extra: Partial<MastraMCPServerDefinition> = {}) => ({
  shown: `${process.execPath} -e ${script}`,
  definition: { command: process.execPath, args: ['-e', script], ...extra } as MastraMCPServerDefinition,
});

const hasPython = spawnSync('python3', ['--version']).status === 0;

describe('a stdio server that dies before answering', () => {
  const crashNode = path.join(fixtures, 'crash-node.mjs');

  it('is reported with the error Node printed and its first frame, not the last stderr line', async () => {
    const message = await connectFailure('weather', { command: process.execPath, args: [crashNode] });
    expect(message).toBe(
      `Failed to connect to MCP server 'weather' (command '${process.execPath} ${crashNode}'): the process exited with code 1 before answering:\n` +
        `Error: DATABASE_URL is not set\n    at file://${crashNode}:4:17`,
    );
    expect(message).not.toContain('Node.js v');
  });

  it('is started once when it printed an uncaught error; one that exits silently gets the legacy retry', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'client-errors-starts-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const starts = path.join(dir, 'starts.log');
    const counting = (then: string) =>
      nodeScript(`require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'start\\n'); ${then}`)
        .definition;
    const startsSoFar = async () => (await readFile(starts, 'utf8')).split('\n').filter(Boolean).length;
    await connectFailure('crashing', counting("throw new Error('DATABASE_URL is not set')"));
    expect(await startsSoFar()).toBe(1);
    // Nothing printed: it may be a legacy server that quit on the 2026-07-28 probe, so it is tried once more.
    await connectFailure('silent', counting('process.exit(4)'));
    expect(await startsSoFar()).toBe(3);
  });

  it('names a variable this process has that the curated environment withheld, and the env option', async () => {
    process.env.DATABASE_URL = 'postgres://127.0.0.1/weather';
    try {
      const message = await connectFailure('weather', { command: process.execPath, args: [crashNode] });
      expect(message).toContain('Error: DATABASE_URL is not set\n');
      expect(message).toMatch(
        /\nDATABASE_URL is set in this process but not passed to the server: a stdio server gets only its 'env' option and a few variables such as PATH and HOME, so add it to 'env'$/,
      );
      // Passed in `env`, the server starts past the check (and then ends, answering nothing).
      const passed = await connectFailure('weather', {
        command: process.execPath,
        args: [crashNode],
        env: { DATABASE_URL: 'postgres://127.0.0.1/weather' },
      });
      expect(passed).not.toContain('DATABASE_URL');
    } finally {
      delete process.env.DATABASE_URL;
    }
  });

  it('with a syntax error, names the file, line and column of the source', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mastra-mcp-crash-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const server = path.join(dir, 'server.mjs');
    await writeFile(server, 'const config = {\n  port: 8080;\n};\n');
    const message = await connectFailure('broken', { command: process.execPath, args: [server] });
    expect(message).toMatch(
      new RegExp(`before answering:\\nSyntaxError: Unexpected token ';'\\n {4}at ${server}:2:13$`),
    );
  });

  it.skipIf(!hasPython)(
    'is reported with the exception Python printed and the frame that raised it',
    async () => {
      const script = path.join(fixtures, 'crash-python.py');
      const message = await connectFailure('weather', { command: 'python3', args: [script] });
      expect(message).toBe(
        `Failed to connect to MCP server 'weather' (command 'python3 ${script}'): the process exited with code 1 before answering:\n` +
          `ValueError: DATABASE_URL is not set\n  File "${script}", line 9, in connect`,
      );
    },
  );

  it('falls back to its last meaningful stderr line, and keeps only a bounded tail', async () => {
    const thrown = nodeScript('throw "no config file"');
    expect(await connectFailure('target', thrown.definition)).toBe(
      `Failed to connect to MCP server 'target' (command '${thrown.shown}'): the process exited with code 1 before answering (its last stderr line: no config file)`,
    );
    // An error followed by more lines than the tail holds is out of it: the last line is reported.
    const buried = nodeScript(
      'console.error(new Error("early")); for (let i = 0; i < 100; i++) console.error("filler " + i); process.exit(2)',
    );
    expect(await connectFailure('target', buried.definition)).toMatch(
      /exited with code 2 before answering \(its last stderr line: filler 99\)$/,
    );
    const silent = nodeScript('process.exit(4)');
    expect(await connectFailure('target', silent.definition)).toMatch(
      /exited with code 4 before answering \(it wrote nothing to stderr\)$/,
    );
  });
});

describe('the stderr option', () => {
  /** Writes an info line, a warning, an error with its stack, then exits. */
  const chatty =
    'console.error("listening on stdio"); console.error("WARNING: cache dir is read-only"); console.error(new Error("lost the cache")); process.exit(1)';

  class Capturing extends ConsoleLogger {
    readonly lines: string[] = [];
    override info(message: string): void {
      this.lines.push(`info ${message}`);
    }
    override warn(message: string): void {
      this.lines.push(`warn ${message}`);
    }
    override error(message: string): void {
      this.lines.push(`error ${message}`);
    }
  }

  it("by default sends each line to the client's logger at the level it names, and to the server's logger", async () => {
    const records: LogMessage[] = [];
    const mcp = client({ chatty: nodeScript(chatty, { logger: (entry) => records.push(entry) }).definition });
    const logger = new Capturing();
    mcp.logger = logger;
    await mcp.listToolsWithErrors();
    const stderr = logger.lines.filter((line) => !line.includes('Failed to connect'));
    expect(stderr.slice(0, 4)).toEqual([
      'info [chatty] listening on stdio',
      'warn [chatty] WARNING: cache dir is read-only',
      'error [chatty] Error: lost the cache',
      expect.stringMatching(/^error \[chatty\] {5}at \[eval\]:1:/),
    ]);
    expect(records.find((entry) => entry.message === 'listening on stdio')).toMatchObject({
      level: 'info',
      serverName: 'chatty',
      details: { stream: 'stderr' },
    });
  });

  it("by default shows a server's warnings with MCPClient's own logger", async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const informed = vi.spyOn(console, 'info').mockImplementation(() => {});
    cleanups.push(async () => {
      warned.mockRestore();
      informed.mockRestore();
    });
    await client({ chatty: nodeScript(chatty).definition }).listToolsWithErrors();
    expect(warned.mock.calls.map(([text]) => String(text))).toContain(
      '[chatty] WARNING: cache dir is read-only',
    );
    expect(informed.mock.calls.map(([text]) => String(text))).not.toContain('[chatty] listening on stdio');
  });

  it("as a function gets each line (one too long cut at the bound) instead of the logger; as 'ignore' nothing is logged", async () => {
    const lines: string[] = [];
    const long = nodeScript(`process.stderr.write("x".repeat(100000)); ${chatty}`, {
      stderr: (line) => lines.push(line),
    });
    const records: LogMessage[] = [];
    const ignored = nodeScript(chatty, { stderr: 'ignore', logger: (entry) => records.push(entry) });
    const mcp = client({ long: long.definition, ignored: ignored.definition });
    const logger = new Capturing();
    mcp.logger = logger;
    const { errors } = await mcp.listToolsWithErrors();
    // The first line ran into the bound: cut, marked, the rest of it (up to its newline) dropped.
    expect(lines[0]).toBe(`${'x'.repeat(8192)}…`);
    expect(lines.slice(1, 3)).toEqual(['WARNING: cache dir is read-only', 'Error: lost the cache']);
    expect(records.filter((entry) => entry.details?.stream === 'stderr')).toEqual([]);
    const stderrLines = /^\w+ \[(long|ignored)\] (listening|WARNING|Error: lost|\s+at )/;
    expect(logger.lines.filter((line) => stderrLines.test(line))).toEqual([]);
    // Either way the tail is kept: the crash is reported with the error the server printed.
    expect(errors.ignored).toMatch(/before answering:\nError: lost the cache\n {4}at \[eval\]:1:/);
    expect(errors.long).toMatch(/before answering:\nError: lost the cache\n/);
  });

  it("as 'inherit' writes the server's stderr to this process's stderr as it comes", async () => {
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    cleanups.push(async () => write.mockRestore());
    const records: LogMessage[] = [];
    await client({
      loud: nodeScript(chatty, { stderr: 'inherit', logger: (entry) => records.push(entry) }).definition,
    }).listToolsWithErrors();
    expect(written.join('')).toContain(
      'listening on stdio\nWARNING: cache dir is read-only\nError: lost the cache\n',
    );
    expect(records.filter((entry) => entry.details?.stream === 'stderr')).toEqual([]);
  });

  it('is checked at construction: the three forms are taken, anything else is refused naming it', () => {
    const make = (stderr: unknown) =>
      new MCPClient({
        id: `client-errors-${++nextId}`,
        servers: { s: { command: 'node', stderr: stderr as 'inherit' } },
      });
    for (const stderr of ['inherit', 'ignore', () => {}]) expect(() => make(stderr)).not.toThrow();
    expect(() => make('pipe')).toThrow(/stderr/);
  });
});

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** Calls that reached the server's forecast tool. */
let forecasts = 0;
const forecastTool = createTool({
  id: 'forecast',
  description: 'The forecast for a city',
  inputSchema: z.object({ city: z.string(), days: z.number().int().min(1) }),
  execute: async ({ city, days }) => {
    forecasts++;
    return { city, days, sky: 'clear' };
  },
});

/** An MCPServer (Streamable HTTP at /mcp, legacy SSE at /sse) behind a node:http front that can turn into a failing proxy. */
async function frontedServer() {
  const server = new MCPServer({ name: 'Weather', version: '1.0.0', tools: { forecast: forecastTool } });
  const front = { failing: false };
  const http = createServer(async (req, res) => {
    if (front.failing) {
      res.writeHead(502, { 'content-type': 'text/html' }).end(NGINX_502);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/mcp') await server.startHTTP({ url, httpPath: '/mcp', req, res });
    else await server.startSSE({ url, ssePath: '/sse', messagePath: '/messages', req, res });
  });
  const listener = await listenLocal(http);
  cleanups.push(
    () => server.close(),
    () => listener.close(),
  );
  return { front, listener, mcpUrl: new URL(`${listener.url}/mcp`), sseUrl: new URL(`${listener.url}/sse`) };
}

const call = (tool: MCPTool | undefined, input: unknown) => rejectionOf(run(tool, input), MastraError);

describe('a call on an HTTP server', () => {
  it('that went down names the cause as a connect does, not "fetch failed"', async () => {
    const { listener, mcpUrl } = await frontedServer();
    // A refused call waits for the server to come back within its timeout (client-recovery.test.ts).
    const mcp = client({ down: { url: mcpUrl, timeout: 500 } });
    const tools = await mcp.listTools();
    await listener.close();
    const first = await call(tools.down_forecast, { city: 'Oslo', days: 1 });
    // A kept-alive socket may be the one that finds it gone (the call may have reached the
    // server: not sent again); a new connection is refused.
    expect(first.message).toMatch(
      /^MCP tool 'forecast' on server 'down' failed: (connection refused: nothing listens at that address \(ECONNREFUSED\)|the connection to MCP server 'down' closed mid-answer \(the connection was closed by the server \(\w+\)\).*)$/,
    );
    const refused = 'connection refused: nothing listens at that address (ECONNREFUSED)';
    expect((await call(tools.down_forecast, { city: 'Oslo', days: 1 })).message).toMatch(
      new RegExp(
        `^MCP tool 'forecast' on server 'down' failed: (Failed to connect to MCP server 'down' at \\S+: )?${refused.replace(/[()]/g, '\\$&')}$`,
      ),
    );
    // Given up on: the connection is reopened, and refused, at once.
    const listed = await mcp.listToolsWithErrors();
    expect(listed.errors.down).toBe(`Failed to connect to MCP server 'down' at ${mcpUrl.href}: ${refused}`);
  });

  it.each([
    [
      'Streamable HTTP at 2026-07-28',
      (urls: { mcpUrl: URL }) => ({ url: urls.mcpUrl, protocolVersion: '2026-07-28' as const }),
    ],
    [
      'Streamable HTTP at the legacy revision',
      (urls: { mcpUrl: URL }) => ({ url: urls.mcpUrl, protocolVersion: 'legacy' as const }),
    ],
    ['legacy SSE', (urls: { sseUrl: URL }) => ({ url: urls.sseUrl, transport: 'sse' as const })],
  ])(
    'that answers 502 with an HTML page reports HTTP 502 Bad Gateway, not the page (%s)',
    async (_, definition) => {
      const fronted = await frontedServer();
      const mcp = client({ proxied: definition(fronted) });
      const tools = await mcp.listTools();
      fronted.front.failing = true;
      const failure = await call(tools.proxied_forecast, { city: 'Oslo', days: 1 });
      expect(failure.message).toBe("MCP tool 'forecast' on server 'proxied' failed: HTTP 502 Bad Gateway");
      expect(failure.id).toBe('MCP_CLIENT_TOOL_CALL_FAILED');
    },
  );

  it('that answers 502 to the connect reports the status, not the page', async () => {
    const fronted = await frontedServer();
    fronted.front.failing = true;
    const message = await connectFailure('proxied', { url: fronted.mcpUrl });
    expect(message).toContain(`Failed to connect to MCP server 'proxied' at ${fronted.mcpUrl.href}: `);
    expect(message).toContain('HTTP 502 Bad Gateway');
    expect(message).not.toContain('<');
  });

  it("that never answers times out naming the option that fired: the server's or the client's timeout", async () => {
    const hanging = await serveSdkHttp();
    cleanups.push(() => hanging.close());
    const own = await client({ slow: { url: hanging.url, timeout: 500 } }).listTools();
    expect((await call(own.slow_sleep, { ms: 600_000 })).message).toBe(
      "MCP tool 'sleep' on server 'slow' failed: timed out: no answer within 500 ms (the 'timeout' of server 'slow': raise it if the server needs longer)",
    );
    const inherited = await client({ slow: { url: hanging.url } }, { timeout: 500 }).listTools();
    expect((await call(inherited.slow_sleep, { ms: 600_000 })).message).toBe(
      "MCP tool 'sleep' on server 'slow' failed: timed out: no answer within 500 ms (the client's 'timeout', 60000 ms unless set: raise it, or set 'timeout' on server 'slow')",
    );
  });
});

describe('invalid tool arguments', () => {
  it('reject with a MastraError naming the server, tool, field and what was expected; nothing is sent', async () => {
    const { mcpUrl } = await frontedServer();
    const tools = await client({ weather: { url: mcpUrl } }).listTools();
    const reached = forecasts;
    const failure = await call(tools.weather_forecast, { city: 7, days: 1 });
    expect(failure.message).toBe(
      "MCP tool 'forecast' on server 'weather': invalid arguments: city: expected string, got number; pass arguments that match the tool's inputSchema",
    );
    expect(failure.id).toBe('MCP_CLIENT_INVALID_TOOL_ARGUMENTS');
    expect(failure.category).toBe('USER');
    expect(failure.details).toEqual({
      server: 'weather',
      tool: 'forecast',
      field: 'city',
      expected: 'string',
      issues: 'city: expected string, got number',
    });
    expect((await call(tools.weather_forecast, {})).details?.issues).toBe(
      'city: is required; days: is required',
    );
    const bounded = await call(tools.weather_forecast, { city: 'Oslo', days: 0 });
    expect(bounded.details).toMatchObject({ field: 'days', expected: 'be >= 1' });
    expect(forecasts).toBe(reached);
    expect(textOf(await run(tools.weather_forecast, { city: 'Oslo', days: 2 }))).toContain('"sky":"clear"');
    expect(forecasts).toBe(reached + 1);
  });

  it("are told apart from a server's result shaped like Mastra's validation error, which is returned", async () => {
    const lookalike = {
      error: true,
      message: 'the upstream form was invalid',
      validationErrors: { errors: [], fields: {} },
    };
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: 'Lookalike', version: '1.0.0' });
      server.registerTool(
        'report',
        {
          description: 'Reports a problem of its own as data',
          inputSchema: z.object({}),
          outputSchema: z.object({
            error: z.boolean(),
            message: z.string(),
            validationErrors: z.object({ errors: z.array(z.string()), fields: z.object({}) }),
          }),
        },
        async () => ({ content: [{ type: 'text', text: lookalike.message }], structuredContent: lookalike }),
      );
      return server;
    });
    const node = toNodeHandler(handler);
    const listener = await listenLocal(createServer((req, res) => void node(req, res)));
    cleanups.push(
      () => listener.close(),
      () => handler.close(),
    );
    const tools = await client({ sdk: { url: new URL(`${listener.url}/mcp`) } }).listTools();
    expect(await run(tools.sdk_report, {})).toEqual(lookalike);
  });

  it("reach an agent's model as a tool result naming the field to fix", async () => {
    const { mcpUrl } = await frontedServer();
    const tools = await client({ weather: { url: mcpUrl } }).listTools();
    const agent = new Agent({
      id: 'forecaster',
      name: 'Forecaster',
      instructions: 'Use the forecast tool.',
      model: toolCallingModel(
        'weather_forecast',
        { city: 'Oslo', days: 'two' },
        { answer: (part) => JSON.stringify(part) },
      ),
      tools,
    });
    const result = await agent.generate('What is the weather in Oslo?');
    expect(result.text).toContain('days: expected integer, got string');
    expect(result.text).toContain('weather_forecast');
  });
});
