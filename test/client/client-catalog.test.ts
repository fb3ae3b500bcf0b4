/**
 * Tool catalogs: definitions as plain JSON, and tools rebuilt from a cached catalog that connect
 * only when, and where, a tool first runs. Connections are counted at the servers.
 */
import { MastraError } from '@mastra/core/error';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  MCPServer,
  type MCPToolDefinition,
} from '../../src/index.js';
import { clientTestTools } from '../fixtures/client-tools.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let nextId = 0;
function client(servers: Record<string, MastraMCPServerDefinition>): MCPClient {
  const mcp = new MCPClient({ id: `catalog-${++nextId}`, registerProcessHooks: false, servers });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

/** An MCPServer over HTTP that counts the TCP connections and requests it receives. */
async function countedServer(instructions?: string) {
  const server = new MCPServer({
    ...fullConfig({ tools: { ...fullConfig().tools, ...clientTestTools } }),
    ...(instructions ? { instructions } : {}),
  });
  const counts = { connections: 0, requests: 0 };
  const http = await serveHttp(server, {
    before: () => {
      counts.requests++;
    },
  });
  http.server.on('connection', () => {
    counts.connections++;
  });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { url: http.mcpUrl, counts };
}

// biome-ignore lint/suspicious/noExplicitAny: tools built from definitions are untyped here
const run = (tool: any, input: unknown, context: Record<string, unknown> = {}) =>
  tool.execute(input, context);

/** A catalog as an app would cache it: discovered once, stored as JSON text. */
async function cachedCatalog(servers: Record<string, MastraMCPServerDefinition>): Promise<string> {
  const discovering = client(servers);
  const { definitions, errors } = await discovering.listToolDefinitionsWithErrors();
  expect(errors).toEqual({});
  await discovering.disconnect();
  return JSON.stringify(definitions);
}

describe('listToolDefinitions()', () => {
  it('returns plain JSON grouped by server, keyed by raw tool names, with everything tools/list said', async () => {
    const a = await countedServer('Use the weather tool for forecasts.');
    const mcp = client({ a: { url: a.url, protocolVersion: '2026-07-28' } });
    const definitions = await mcp.listToolDefinitions();

    expect(JSON.parse(JSON.stringify(definitions))).toEqual(definitions);
    const weather = definitions.a?.weatherTool as MCPToolDefinition;
    expect(weather).toMatchObject({
      name: 'weatherTool',
      description: 'Gets the current weather for a location.',
      inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      outputSchema: { type: 'object', properties: { forecast: { type: 'string' } } },
      annotations: { readOnlyHint: true, title: 'Weather' },
      _meta: { team: 'weather' },
      serverName: 'a',
      serverVersion: '1.2.3',
      serverInstructions: 'Use the weather tool for forecasts.',
    });
    // Raw names, not `a_weatherTool`; the same set listTools() namespaces.
    const tools = await mcp.listTools();
    expect(Object.keys(tools).sort()).toEqual(
      Object.keys(definitions.a ?? {})
        .map((name) => `a_${name}`)
        .sort(),
    );
  });

  it('listToolDefinitionsWithErrors() reports a server that is down, and durations only with options', async () => {
    const a = await countedServer();
    const mcp = client({
      a: { url: a.url, protocolVersion: '2026-07-28' },
      down: { url: new URL('http://127.0.0.1:9/mcp'), protocolVersion: '2026-07-28' },
    });
    const plain = await mcp.listToolDefinitionsWithErrors();
    expect(Object.keys(plain.definitions)).toEqual(['a']);
    expect(plain.errors.down).toMatch(/'down'/);
    expect(plain.errorDetails.down?.message).toBe(plain.errors.down);
    expect(plain.durations).toBeUndefined();

    const timed = await mcp.listToolDefinitionsWithErrors({ perServerTimeoutMs: 5_000 });
    expect(Object.keys(timed.durations ?? {}).sort()).toEqual(['a', 'down']);
  });
});

describe('tools from a cached catalog', () => {
  it('opens no connection until a tool runs, and then only to that server', async () => {
    const a = await countedServer();
    const b = await countedServer();
    const servers = {
      a: { url: a.url, protocolVersion: '2026-07-28' as const },
      b: { url: b.url, protocolVersion: '2026-07-28' as const },
    };
    const catalog = await cachedCatalog(servers);
    const before = { a: { ...a.counts }, b: { ...b.counts } };

    const cold = client(servers);
    const tools = await cold.toolsFromDefinitions({ definitions: JSON.parse(catalog) });
    expect(Object.keys(tools)).toContain('a_weatherTool');
    expect(Object.keys(tools)).toContain('b_weatherTool');
    expect(a.counts).toEqual(before.a);
    expect(b.counts).toEqual(before.b);
    expect(cold.getServerInfo()).toEqual({ a: undefined, b: undefined });

    const result = await run(tools.a_weatherTool, { location: 'Oslo' });
    expect(result).toEqual({ location: 'Oslo', forecast: 'Weather in Oslo is sunny.' });
    expect(a.counts.requests).toBeGreaterThan(before.a.requests);
    expect(b.counts).toEqual(before.b);
  });

  it('behaves like listTools(): metadata, approval, errors, scalars, output validation', async () => {
    const a = await countedServer();
    const servers = {
      a: {
        url: a.url,
        protocolVersion: '2026-07-28' as const,
        requireToolApproval: ({ toolName }: { toolName: string }) => toolName === 'deleteRepo',
      },
    };
    const definitions = JSON.parse(await cachedCatalog(servers)) as Record<
      string,
      Record<string, MCPToolDefinition>
    >;
    const mcp = client(servers);
    const cached = await mcp.toolsFromDefinitions({ definitions });
    const live = await mcp.listTools();

    for (const key of ['a_weatherTool', 'a_deleteRepo', 'a_scalar']) {
      const [fromCache, fromList] = [cached[key], live[key]];
      expect(fromCache?.description).toBe(fromList?.description);
      expect(fromCache?.title).toBe(fromList?.title);
      expect(fromCache?.mcp).toEqual(fromList?.mcp);
      expect(typeof fromCache?.requireApproval).toBe(typeof fromList?.requireApproval);
    }
    const approval = cached.a_deleteRepo?.requireApproval as unknown as (input: unknown) => boolean;
    expect(await approval({ repo: 'x' })).toBe(true);
    expect(await run(cached.a_scalar, { n: 4 })).toBe(40);

    const failure = await run(cached.a_structuredError, {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MastraError);
    expect((failure as MastraError).id).toBe('MCP_CLIENT_TOOL_ERROR');

    // A catalog whose output schema no longer matches what the server returns rejects the call.
    const weather = definitions.a?.weatherTool as MCPToolDefinition;
    const tampered = await mcp.toolFromDefinition({
      serverName: 'a',
      definition: {
        ...weather,
        outputSchema: {
          type: 'object',
          properties: { forecast: { type: 'number' } },
          required: ['forecast'],
        },
      },
    });
    await expect(run(tampered, { location: 'Oslo' })).rejects.toThrow(/weatherTool.*output schema/s);
  });

  it('degrades gracefully on a stale catalog', async () => {
    const a = await countedServer();
    const servers = { a: { url: a.url, protocolVersion: '2026-07-28' as const } };
    const definitions = JSON.parse(await cachedCatalog(servers)) as Record<
      string,
      Record<string, MCPToolDefinition>
    >;
    const weather = definitions.a?.weatherTool as MCPToolDefinition;
    const logged: string[] = [];
    const mcp = client({ a: { ...servers.a, logger: (entry) => logged.push(entry.message) } });

    const stale = {
      ...definitions,
      removed: { weatherTool: { ...weather, serverName: 'removed' } },
      a: {
        ...definitions.a,
        vanished: { ...weather, name: 'vanished' },
        broken: { ...weather, name: 'broken', inputSchema: 'not a schema' } as unknown as MCPToolDefinition,
      },
    };
    const tools = await mcp.toolsFromDefinitions({ definitions: stale });
    // The server no longer configured is skipped; the malformed entry is skipped with a reason.
    expect(Object.keys(tools).some((key) => key.startsWith('removed_'))).toBe(false);
    expect(tools.a_broken).toBeUndefined();
    expect(logged).toContainEqual(
      expect.stringMatching(/tool 'broken' skipped: 'inputSchema' must be a JSON Schema/),
    );
    // A tool the server dropped fails when called, naming it; the others still work.
    await expect(run(tools.a_vanished, { location: 'x' })).rejects.toThrow(/vanished/);
    expect(await run(tools.a_weatherTool, { location: 'Rome' })).toMatchObject({ location: 'Rome' });
  });

  it('toolFromDefinition() names the problem: unknown server, malformed definition, schema over budget', async () => {
    const a = await countedServer();
    const mcp = client({ a: { url: a.url, protocolVersion: '2026-07-28' } });
    const valid: MCPToolDefinition = { name: 't', inputSchema: { type: 'object' }, serverName: 'a' };

    await expect(mcp.toolFromDefinition({ serverName: 'nope', definition: valid })).rejects.toMatchObject({
      id: 'MCP_CLIENT_UNKNOWN_SERVER',
    });
    await expect(
      mcp.toolFromDefinition({ serverName: 'a', definition: { ...valid, name: '' } }),
    ).rejects.toThrow(/'name' must be a non-empty string/);

    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { a: deep } };
    const overBudget = mcp.toolFromDefinition({
      serverName: 'a',
      definition: { ...valid, inputSchema: deep as MCPToolDefinition['inputSchema'] },
    });
    await expect(overBudget).rejects.toMatchObject({ id: 'MCP_CLIENT_INVALID_TOOL_DEFINITION' });
    await expect(overBudget).rejects.toThrow(
      /server 'a': tool 't' skipped: its inputSchema nests subschemas more than 128/,
    );
    expect(a.counts.requests).toBe(0);
  });
});
