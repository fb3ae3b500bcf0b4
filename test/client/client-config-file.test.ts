/**
 * `MCPClient.fromConfig()`: the config files of Claude Desktop (and Claude Code, Cursor:
 * `mcpServers`) and VS Code (`servers`, `inputs`, comments) used as they are. The servers are
 * real: test/fixtures/env-server.mjs as a child process (its `env` tool reports the environment it
 * got) and an MCPServer over HTTP on 127.0.0.1 whose requests are recorded, headers included,
 * on Streamable HTTP and on the legacy SSE endpoints. The mistakes fail before anything connects,
 * each naming the file, the path in it and the fix.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the hosts' variables are written as they appear in config files
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MastraError } from '@mastra/core/error';
import { ConsoleLogger } from '@mastra/core/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type HttpServerDefinition,
  MCPClient,
  MCPServer,
  type StdioServerDefinition,
} from '../../src/index.js';
import { clientsDisconnectedAfterEach, pidRecorder, run } from '../fixtures/client-harness.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';
import { rejectionOf, textOf } from '../support/results.js';

const ENV_FIXTURE = path.resolve('test/fixtures/env-server.mjs');
const { clients, children } = clientsDisconnectedAfterEach();
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let nextId = 0;
const id = () => `config-file-${process.pid}-${++nextId}`;

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-config-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A real MCPServer on 127.0.0.1 (every transport), recording each request's method, path and headers. */
async function mcpServer() {
  const hits: Array<{ method: string; path: string; headers: IncomingHttpHeaders }> = [];
  const server = new MCPServer(fullConfig());
  const served = await serveHttp(server, {
    before: (req) => hits.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers }),
  });
  cleanups.push(
    () => served.close(),
    () => server.close(),
  );
  return { base: served.base, hits };
}

const weather = (result: unknown) => JSON.stringify(result);

describe('a Claude Desktop config file', () => {
  it('starts its stdio server with its env over the default environment, and connects its HTTP server', async () => {
    const { base } = await mcpServer();
    const dir = await tempDir();
    const file = path.join(dir, 'claude_desktop_config.json');
    await writeFile(
      file,
      JSON.stringify(
        {
          mcpServers: {
            local: {
              command: process.execPath,
              args: [ENV_FIXTURE],
              env: { MCP_TEST_MARKER: 'from the config file' },
            },
            remote: { url: `${base}/mcp` },
          },
          globalShortcut: 'Ctrl+Space',
        },
        null,
        2,
      ),
    );
    const log = pidRecorder(children);
    process.env.MCP_CONFIG_TEST_SECRET = 'not for children';
    try {
      const mcp = await MCPClient.fromConfig(file, {
        id: id(),
        registerProcessHooks: false,
        timeout: 30_000,
        servers: { local: { logger: log.logger } },
      });
      clients.push(mcp);
      const tools = await mcp.listTools();
      const env = JSON.parse(textOf(await run(tools.local_env, {})));
      expect(env.marker).toBe('from the config file');
      // Claude Desktop's environment: the SDK's short list plus `env`, not the whole parent environment.
      expect(env.keys).toContain('PATH');
      expect(env.keys).not.toContain('MCP_CONFIG_TEST_SECRET');
      expect(weather(await run(tools.remote_weatherTool, { location: 'Paris' }))).toContain('Paris');
    } finally {
      delete process.env.MCP_CONFIG_TEST_SECRET;
    }
  });
});

describe('a VS Code .vscode/mcp.json', () => {
  it('sends its headers, with inputs and predefined variables replaced, over Streamable HTTP and SSE', async () => {
    const { base, hits } = await mcpServer();
    const project = path.join(await tempDir(), 'weather-app');
    await mkdir(path.join(project, '.vscode'), { recursive: true });
    const file = path.join(project, '.vscode', 'mcp.json');
    // As VS Code writes it: comments, trailing commas, `//` inside strings.
    await writeFile(
      file,
      `{
  // Secrets come from inputs, asked once.
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "Weather API key", "password": true },
  ],
  "servers": {
    "weather": {
      "type": "http",
      "url": "${base}/mcp", /* Streamable HTTP */
      "headers": { "X-Api-Key": "\${input:api-key}", "X-Project": "\${workspaceFolderBasename}" },
    },
    "legacy": {
      "type": "sse",
      "url": "${base}/sse",
      "headers": { "X-Api-Key": "\${input:api-key}" },
    },
  },
}
`,
    );
    const asked: unknown[] = [];
    const mcp = await MCPClient.fromConfig(file, {
      id: id(),
      registerProcessHooks: false,
      inputs: (input) => {
        asked.push(input);
        return 'k-123';
      },
    });
    clients.push(mcp);
    expect(asked).toEqual([
      { type: 'promptString', id: 'api-key', description: 'Weather API key', password: true },
    ]);

    const tools = await mcp.listTools();
    expect(weather(await run(tools.weather_weatherTool, { location: 'Oslo' }))).toContain('Oslo');
    expect(weather(await run(tools.legacy_weatherTool, { location: 'Lima' }))).toContain('Lima');

    const streamable = hits.filter((hit) => hit.path.startsWith('/mcp'));
    expect(streamable.length).toBeGreaterThan(0);
    for (const hit of streamable) {
      expect(hit.headers['x-api-key']).toBe('k-123');
      expect(hit.headers['x-project']).toBe('weather-app');
    }
    // type 'sse': the legacy transport from the first request (no Streamable HTTP attempt at /sse).
    const legacy = hits.filter((hit) => hit.path.startsWith('/sse') || hit.path.startsWith('/message'));
    expect(legacy[0]).toMatchObject({ method: 'GET', path: '/sse' });
    expect(legacy.some((hit) => hit.method === 'POST' && hit.path.startsWith('/message'))).toBe(true);
    expect(legacy.filter((hit) => hit.path === '/sse' && hit.method !== 'GET')).toEqual([]);
    for (const hit of legacy) expect(hit.headers['x-api-key']).toBe('k-123');
  });
});

describe('what a config becomes', () => {
  it('reads Cursor and Claude Code variables, envFile, cwd, and inputs from a map or their default', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, '.env'), 'FROM_FILE=file\nOVERRIDDEN=file\n');
    const mcp = await MCPClient.fromConfig(
      {
        mcpServers: {
          cursor: {
            type: 'stdio',
            command: 'node',
            args: ['${workspaceFolder}${/}server.js', '--home=${userHome}'],
            envFile: '.env',
            env: { OVERRIDDEN: 'env', TOKEN: '${env:TOKEN}', PORT: 8080, DROPPED: null },
            cwd: 'server',
          },
          claudeCode: {
            type: 'http',
            url: '${API_BASE:-http://127.0.0.1:9}/mcp',
            headers: {
              Authorization: 'Bearer ${API_KEY}',
              'X-Key': '${input:key}',
              'X-Region': '${input:region}',
            },
          },
        },
        inputs: [{ type: 'pickString', id: 'region', options: ['eu', 'us'], default: 'eu' }],
      },
      {
        id: id(),
        registerProcessHooks: false,
        workspaceFolder: dir,
        environment: { TOKEN: 't0k', API_KEY: 'k3y' },
        inputs: { key: 'from-map' },
      },
    );
    clients.push(mcp);
    const servers = mcp.options.servers as Record<string, StdioServerDefinition | HttpServerDefinition>;
    expect(servers.cursor).toEqual({
      command: 'node',
      args: [path.join(dir, 'server.js'), `--home=${os.homedir()}`],
      env: { FROM_FILE: 'file', OVERRIDDEN: 'env', TOKEN: 't0k', PORT: '8080' },
      cwd: path.join(dir, 'server'),
    });
    const http = servers.claudeCode as HttpServerDefinition;
    expect(http.url.href).toBe('http://127.0.0.1:9/mcp');
    expect(http.requestInit).toEqual({
      headers: { Authorization: 'Bearer k3y', 'X-Key': 'from-map', 'X-Region': 'eu' },
    });
    expect(http.transport).toBeUndefined();
  });

  it('adds fromConfig() server options to the file, and servers of its own', async () => {
    const { base, hits } = await mcpServer();
    const approve = () => false;
    const mcp = await MCPClient.fromConfig(
      { mcpServers: { remote: { url: `${base}/mcp`, headers: { 'X-From': 'file' } } } },
      {
        id: id(),
        registerProcessHooks: false,
        toolNameSeparator: '__',
        servers: {
          remote: { includeTools: ['weather*'], requireToolApproval: approve },
          extra: { url: new URL(`${base}/mcp`), toolPrefix: 'more', includeTools: ['contactTool'] },
        },
      },
    );
    clients.push(mcp);
    expect(Object.keys(await mcp.listTools()).sort()).toEqual(['more__contactTool', 'remote__weatherTool']);
    expect(hits.every((hit) => hit.headers['x-from'] === 'file' || hit.headers['x-from'] === undefined)).toBe(
      true,
    );
    expect(hits.some((hit) => hit.headers['x-from'] === 'file')).toBe(true);
  });

  it('warns of what a host does that this client does not', async () => {
    const warn = vi.spyOn(ConsoleLogger.prototype, 'warn').mockImplementation(() => {});
    try {
      const mcp = await MCPClient.fromConfig(
        {
          servers: {
            boxed: { type: 'stdio', command: 'node', sandboxEnabled: true, dev: { watch: 'src/**' } },
            oauth: { url: 'https://example.com/mcp', auth: { CLIENT_ID: 'abc' } },
          },
        },
        { id: id(), registerProcessHooks: false },
      );
      clients.push(mcp);
      expect(warn.mock.calls.map(([message]) => message)).toEqual([
        "MCP config: `servers.boxed.sandboxEnabled` is VS Code's sandbox, which this client does not apply: the server runs with this process's permissions",
        "MCP config: `servers.oauth.auth` (Cursor's OAuth client) is not read: give the server an `authProvider` (MCPOAuthClientProvider) through fromConfig()'s `servers` option",
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the transport option', () => {
  it("'streamable-http' never falls back to legacy SSE, which an unpinned server does", async () => {
    const { base } = await mcpServer();
    const mcp = new MCPClient({
      id: id(),
      registerProcessHooks: false,
      servers: {
        pinned: { url: new URL(`${base}/sse`), transport: 'streamable-http' },
        unpinned: { url: new URL(`${base}/sse`) },
      },
    });
    clients.push(mcp);
    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(Object.keys(errors)).toEqual(['pinned']);
    expect(errors.pinned).toMatch(/^Failed to connect to MCP server 'pinned'/);
    expect(errors.pinned).not.toMatch(/SSE/);
    expect(weather(await run(tools.unpinned_weatherTool, { location: 'Rome' }))).toContain('Rome');
  });
});

describe('config mistakes', () => {
  const failure = async (config: Parameters<typeof MCPClient.fromConfig>[0], options = {}) =>
    rejectionOf(
      MCPClient.fromConfig(config, { id: id(), registerProcessHooks: false, ...options }),
    ) as Promise<MastraError>;

  it('names every variable without a value at once', async () => {
    const error = await failure(
      {
        mcpServers: {
          a: { command: 'node', env: { TOKEN: '${env:MISSING_A}' } },
          b: { url: '${MISSING_B}/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
          c: { command: '${command:pickServer}' },
        },
      },
      { environment: {} },
    );
    expect(error.id).toBe('MCP_CLIENT_INVALID_CONFIG_FILE');
    expect(error.message).toBe(
      'MCP config: 4 variables have no value: `mcpServers.a.env.TOKEN`: ${env:MISSING_A}: MISSING_A is not set; ' +
        '`mcpServers.b.url`: ${MISSING_B}: MISSING_B is not set (${MISSING_B:-default} gives a default); ' +
        "`mcpServers.b.headers.Authorization`: ${input:token}: no value was given for input 'token'; " +
        '`mcpServers.c.command`: ${command:pickServer} is not a variable this client can replace: write the value, or ${env:NAME}. ' +
        "Set the environment variables (or fromConfig()'s `environment` option) and give input values with its `inputs` option",
    );
  });

  it('names the file, line and column of a syntax error', async () => {
    const file = path.join(await tempDir(), 'mcp.json');
    await writeFile(
      file,
      '{\n  "mcpServers": {\n    "a": { "command": "node" }\n    "b": { "url": "http://x" }\n  }\n}\n',
    );
    const error = await failure(file);
    expect(error.message).toBe(
      `MCP config file '${file}': it is not valid JSON at line 4, column 5: Expected ',' or '}' after property value`,
    );
    const missing = await failure(pathToFileURL(path.join(path.dirname(file), 'nope.json')));
    expect(missing.message).toBe(
      `MCP config file '${path.join(path.dirname(file), 'nope.json')}' cannot be read: no such file (${path.join(path.dirname(file), 'nope.json')})`,
    );
  });

  it.each([
    [
      { mcpServer: { a: { command: 'node' } } },
      {},
      "MCP config has no 'mcpServers' map (Claude Desktop, Claude Code, Cursor) nor 'servers' map (VS Code); did you mean 'mcpServers' for 'mcpServer'?",
    ],
    [
      { mcpServers: { a: { comand: 'node' } } },
      {},
      "MCP config: `mcpServers.a.comand` is not an option of server 'a'; did you mean `command`?",
    ],
    [
      { servers: { a: { type: 'htpp', url: 'http://127.0.0.1:9/mcp' } } },
      {},
      "MCP config: `servers.a.type` must be 'stdio', 'http', 'streamable-http' or 'sse', got \"htpp\"; did you mean 'http'?",
    ],
    [
      { mcpServers: { a: { command: 'node', headers: { A: 'b' } } } },
      {},
      'MCP config: `mcpServers.a.headers` is an option of HTTP servers; this one is stdio',
    ],
    [
      { mcpServers: { a: { type: 'http', command: 'node' } } },
      {},
      'MCP config: `mcpServers.a.url` is required: the server is an HTTP server',
    ],
    [
      { mcpServers: { a: { url: 'localhost:3000/mcp' } } },
      {},
      'MCP config: `mcpServers.a.url` must be an http:// or https:// URL, not localhost:',
    ],
    [
      { mcpServers: { remote: { url: 'http://127.0.0.1:9/mcp' } } },
      { servers: { remot: { timeout: 5 } } },
      "MCPClient.fromConfig(): `servers.remot` is not a server of MCP config; did you mean 'remote'? (to add a server, give it `command` or `url`)",
    ],
    [
      { mcpServers: { remote: { url: 'http://127.0.0.1:9/mcp' } } },
      { servers: { remote: { command: 'node' } } },
      "MCPClient.fromConfig(): `servers.remote.command` would replace the transport of server 'remote' in MCP config; change it there, or leave the server out of the file to define it here",
    ],
    [
      { mcpServers: {} },
      { input: { key: 'v' } },
      'MCPClient.fromConfig(): `input` is not an option of MCPClient.fromConfig(); did you mean `inputs`?',
    ],
  ])('refuses %j (options %j)', async (config, options, message) => {
    expect((await failure(config as never, options)).message).toBe(message);
  });
});
