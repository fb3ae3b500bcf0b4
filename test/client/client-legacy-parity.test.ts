/**
 * What MCPClient does the same on 2025-era (legacy) connections as on 2026-07-28 ones: resource
 * subscriptions (`resources/subscribe` on a legacy session, against MCPServer and the SDK's own
 * McpServer, over HTTP and stdio), `enableServerLogs: false`, a malformed tool dropped alone from
 * a listing, and a scalar structured output given as the same value.
 */
import http from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { type LogMessage, type MastraMCPServerDefinition, MCPClient, MCPServer } from '../../src/index.js';
import { clientTestTools } from '../fixtures/client-tools.js';
import { createSubscribingSdkServer } from '../fixtures/sdk-subscribe-server.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let nextId = 0;
function client(servers: Record<string, MastraMCPServerDefinition>): MCPClient {
  const mcp = new MCPClient({ id: `legacy-parity-${++nextId}`, registerProcessHooks: false, servers });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

async function mcpServerOverHttp() {
  const server = new MCPServer(fullConfig({ tools: { ...fullConfig().tools, ...clientTestTools } }));
  const served = await serveHttp(server);
  cleanups.push(
    () => served.close(),
    () => server.close(),
  );
  return { server, url: served.mcpUrl };
}

/** Serves a fresh SDK server per request (createMcpHandler, both eras) on 127.0.0.1. */
async function sdkOverHttp(build: () => Server | { server: Server }): Promise<URL> {
  const handler = toNodeHandler(createMcpHandler(build as () => Server));
  const listener = await listenLocal(http.createServer((req, res) => void handler(req, res)));
  cleanups.push(() => listener.close());
  return new URL(`${listener.url}/mcp`);
}

const tsxStdio = (file: string, ...args: string[]): MastraMCPServerDefinition => ({
  command: process.execPath,
  args: ['--import', 'tsx', file, ...args],
  protocolVersion: 'legacy',
});

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
const run = (tool: any, input: unknown) => tool.execute(input, {});

describe('resources.subscribe() on a 2025-era connection', () => {
  it('subscribes through resources/subscribe to MCPServer over legacy HTTP and stdio, and unsubscribes', async () => {
    const { server, url } = await mcpServerOverHttp();
    const mcp = client({
      http: { url, protocolVersion: 'legacy' },
      stdio: tsxStdio('test/fixtures/stdio-server.ts'),
    });
    const updates: string[] = [];
    for (const name of ['http', 'stdio']) {
      await mcp.resources.onUpdated(name, ({ uri }) => updates.push(`${name} ${uri}`));
      await mcp.resources.subscribe(name, 'file://data/1.txt');
      await mcp.resources.subscribe(name, 'file://data/logo.png');
      await mcp.resources.unsubscribe(name, 'file://data/logo.png');
    }
    // Updates in order on each session: the unsubscribed URI's would come before the last one.
    await server.resources.notifyUpdated({ uri: 'file://data/logo.png' });
    await server.resources.notifyUpdated({ uri: 'file://data/1.txt' });
    const tools = await mcp.listTools();
    await run(tools.stdio_notifyAll, { uri: 'file://data/logo.png' });
    await run(tools.stdio_notifyAll, { uri: 'file://data/1.txt' });
    await eventually('both updates', () => updates.length >= 2);
    expect(updates.sort()).toEqual(['http file://data/1.txt', 'stdio file://data/1.txt']);
  });

  it("subscribes to the SDK's own McpServer over legacy HTTP and stdio, and unsubscribes", async () => {
    const url = await sdkOverHttp(() => createSubscribingSdkServer().server);
    const mcp = client({
      http: { url, protocolVersion: 'legacy' },
      stdio: tsxStdio('test/fixtures/sdk-subscribe-server.ts', '--stdio'),
    });
    const updates: string[] = [];
    const tools = await mcp.listTools();
    for (const name of ['http', 'stdio']) {
      await mcp.resources.onUpdated(name, ({ uri }) => updates.push(`${name} ${uri}`));
      await mcp.resources.subscribe(name, 'sdk://note');
      await mcp.resources.subscribe(name, 'sdk://other');
      await mcp.resources.unsubscribe(name, 'sdk://other');
      const told = await run(tools[`${name}_touch`], { uris: ['sdk://other', 'sdk://note'] });
      expect(told.content[0].text).toBe('told sdk://note');
    }
    await eventually('both updates', () => updates.length >= 2);
    expect(updates.sort()).toEqual(['http sdk://note', 'stdio sdk://note']);
  });

  it('fails naming the revision when the legacy server does not declare resources.subscribe', async () => {
    const url = await sdkOverHttp(() => {
      const server = new Server({ name: 'plain', version: '1.0.0' }, { capabilities: { resources: {} } });
      server.setRequestHandler('resources/list', async () => ({ resources: [] }));
      return server;
    });
    const mcp = client({ plain: { url, protocolVersion: 'legacy' } });
    await expect(mcp.resources.subscribe('plain', 'x://y')).rejects.toMatchObject({
      id: 'MCP_CLIENT_SUBSCRIBE_RESOURCE_FAILED',
      message: expect.stringMatching(
        /'plain' does not offer resource subscriptions \(it negotiated revision 2025-11-25\).*'x:\/\/y'/,
      ),
    });
  });
});

describe('enableServerLogs: false', () => {
  it.each(['2026-07-28', 'legacy'] as const)(
    'keeps server log messages from the logger (%s)',
    async (era) => {
      const { url } = await mcpServerOverHttp();
      const logs: LogMessage[] = [];
      const logger = (entry: LogMessage) => logs.push(entry);
      const mcp = client({
        heard: { url, protocolVersion: era, logger },
        silent: { url, protocolVersion: era, logger, enableServerLogs: false },
      });
      const tools = await mcp.listTools();
      await run(tools.silent_progressTool, { n: 1 });
      await run(tools.heard_progressTool, { n: 1 });
      await eventually('the log of the server that may log', () =>
        logs.some((entry) => entry.serverName === 'heard' && entry.message.includes('counting started')),
      );
      expect(logs.filter((entry) => entry.details?.source === 'server').map((e) => e.serverName)).toEqual([
        'heard',
      ]);
    },
  );
});

describe('a tool whose output schema its era refuses', () => {
  const object = { type: 'object', properties: {} };
  const rawServer = () => {
    const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({
      tools: [
        { name: 'good', inputSchema: object, outputSchema: object },
        // Only 2026-07-28 admits it; the SDK wraps a number schema for 2025, but not this.
        { name: 'loose', inputSchema: object, outputSchema: { type: 'object', properties: 5 } },
      ] as never,
    }));
    return server;
  };

  it.each(['2026-07-28', 'legacy'] as const)('is dropped alone, named with its server (%s)', async (era) => {
    const url = await sdkOverHttp(rawServer);
    const logs: LogMessage[] = [];
    const mcp = client({ raw: { url, protocolVersion: era, logger: (entry) => logs.push(entry) } });
    const { definitions, errors } = await mcp.listToolDefinitionsWithErrors();
    expect(errors).toEqual({});
    const skipped = logs.filter((entry) => entry.message.includes('skipped'));
    if (era === 'legacy') {
      expect(Object.keys(definitions.raw ?? {})).toEqual(['good']);
      expect(skipped.map((entry) => [entry.serverName, entry.level, entry.message])).toEqual([
        ['raw', 'error', "tool 'loose' skipped: its outputSchema.properties: expected an object"],
      ]);
    } else {
      expect(Object.keys(definitions.raw ?? {})).toEqual(['good', 'loose']);
      expect(skipped).toEqual([]);
    }
  });

  it('drops a 2025 tool declaring a number output schema, keeping the rest (legacy stdio)', async () => {
    const logs: LogMessage[] = [];
    const mcp = client({
      raw: {
        command: process.execPath,
        args: ['test/fixtures/fault-raw-server.mjs', 'scalar-output'],
        protocolVersion: 'legacy',
        logger: (entry) => logs.push(entry),
      },
    });
    const { definitions, errors } = await mcp.listToolDefinitionsWithErrors();
    expect(errors).toEqual({});
    expect(Object.keys(definitions.raw ?? {})).toEqual(['ok']);
    expect(logs.map((entry) => entry.message)).toContain(
      "tool 'count' skipped: its outputSchema.type: a 2025-era tool's output schema must be an object schema (type 'object'), got \"number\"",
    );
  });
});

describe('scalar structured output', () => {
  it('is the same value on both eras, from MCPServer (which wraps it as { result } for 2025)', async () => {
    const { url } = await mcpServerOverHttp();
    const mcp = client({
      modern: { url, protocolVersion: '2026-07-28' },
      legacy: { url, protocolVersion: 'legacy' },
    });
    const definitions = await mcp.listToolDefinitions();
    // What each era advertised: the natural schema, and the 2025 envelope around it.
    expect(definitions.modern?.scalar?.outputSchema).toMatchObject({ type: 'number' });
    expect(definitions.legacy?.scalar?.outputSchema).toMatchObject({
      type: 'object',
      properties: { result: { type: 'number' } },
      required: ['result'],
    });
    const tools = await mcp.listTools();
    expect(await run(tools.modern_scalar, { n: 4 })).toBe(40);
    expect(await run(tools.legacy_scalar, { n: 4 })).toBe(40);
    // Object outputs are left as they are.
    for (const name of ['modern', 'legacy'])
      expect(await run(tools[`${name}_weatherTool`], { location: 'Nice' })).toEqual({
        location: 'Nice',
        forecast: 'Weather in Nice is sunny.',
      });
  });
});
