/**
 * What MCPClient calls servers' tools and which it shows: `includeTools` / `excludeTools` per
 * server, `toolPrefix` per server and the client's `toolNameSeparator`, with the collisions these
 * make resolved in configured order; and keys kept valid tool names for model providers
 * (`^[a-zA-Z0-9_-]{1,64}$`) whatever the server and tool are called. The servers are
 * fixtures/flood-server.ts over stdio (`--names`: plain tools answering `called <name>`).
 */
import path from 'node:path';
import type { MastraError } from '@mastra/core/error';
import { describe, expect, it } from 'vitest';
import {
  type LogMessage,
  MCPClient,
  type MCPClientOptions,
  type MCPTool,
  type StdioServerDefinition,
} from '../../src/index.js';
import { clientsDisconnectedAfterEach, pidRecorder, run } from '../fixtures/client-harness.js';
import { textOf } from '../support/results.js';

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/flood-server.ts');
const { clients, children } = clientsDisconnectedAfterEach();
let nextId = 0;

function server(
  names: string[],
  logger: (entry: LogMessage) => void,
  extra: Partial<StdioServerDefinition> = {},
  listDelayMs = 0,
): StdioServerDefinition {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE, '--names', names.join(','), '--list-delay', String(listDelayMs)],
    logger,
    ...extra,
  };
}

function client(options: Omit<MCPClientOptions, 'id'>): MCPClient {
  const mcp = new MCPClient({
    id: `tool-naming-${process.pid}-${++nextId}`,
    registerProcessHooks: false,
    timeout: 30_000,
    ...options,
  });
  clients.push(mcp);
  return mcp;
}

const logged = (records: LogMessage[], level: LogMessage['level']) =>
  records.filter((entry) => entry.level === level).map((entry) => `${entry.serverName}: ${entry.message}`);

const serverOf = (tool: MCPTool | undefined) => tool?.mcpMetadata?.serverName;

describe('includeTools and excludeTools', () => {
  it('decide what every listing shows, and a name that matches nothing is reported', async () => {
    const log = pidRecorder(children);
    const mcp = client({
      servers: {
        gh: server(['create_issue', 'delete_repo', 'list_repos', 'search_code'], log.logger, {
          includeTools: ['*_repo*', 'search_code', 'serch_code'],
          excludeTools: ['delete_*'],
        }),
      },
    });
    const tools = await mcp.listTools();
    expect(Object.keys(tools).sort()).toEqual(['gh_list_repos', 'gh_search_code']);
    expect(textOf(await run(tools.gh_search_code, {}))).toBe('called search_code');
    expect(logged(log.records, 'warning')).toEqual([
      "gh: MCP server 'gh': includeTools entry 'serch_code' matches none of its tools (create_issue, delete_repo, list_repos, search_code); check its spelling",
    ]);

    expect(Object.keys((await mcp.listToolsets()).gh ?? {}).sort()).toEqual(['list_repos', 'search_code']);
    const definitions = await mcp.listToolDefinitions();
    expect(Object.keys(definitions.gh ?? {}).sort()).toEqual(['list_repos', 'search_code']);

    // A catalog cached before the filters (or edited) still shows only what they allow.
    const listed = definitions.gh?.list_repos as NonNullable<typeof definitions.gh>[string];
    const catalog = { gh: { ...definitions.gh, delete_repo: { ...listed, name: 'delete_repo' } } };
    expect(Object.keys(await mcp.toolsFromDefinitions({ definitions: catalog })).sort()).toEqual([
      'gh_list_repos',
      'gh_search_code',
    ]);
  });
});

describe('toolNameSeparator and toolPrefix', () => {
  it('key tools as configured; a key two tools make stays with the one configured first', async () => {
    const log = pidRecorder(children);
    // `a` answers last: the outcome follows the configuration, not the arrival.
    const mcp = client({
      toolNameSeparator: '__',
      servers: {
        a: server(['x', 'y'], log.logger, { toolPrefix: 'shared' }, 1500),
        b: server(['y', 'z'], log.logger, { toolPrefix: 'shared' }),
        c: server(['shared__z', 'w'], log.logger, { toolPrefix: '' }),
      },
    });
    const tools = await mcp.listTools();
    expect(Object.keys(tools).sort()).toEqual(['shared__x', 'shared__y', 'shared__z', 'w']);
    for (const [key, tool] of Object.entries(tools)) expect(tool.id).toBe(key);
    expect([serverOf(tools.shared__y), serverOf(tools.shared__z), serverOf(tools.w)]).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(textOf(await run(tools.shared__z, {}))).toBe('called z');
    expect(logged(log.records, 'error')).toEqual([
      "b: MCP server 'b': tool 'y' left out of the listTools() map: its key 'shared__y' is already tool 'y' of MCP server 'a', configured before it; give one of the two servers another toolPrefix, or leave one tool out with excludeTools (listToolsets() groups tools by server and keeps both)",
      "c: MCP server 'c': tool 'shared__z' left out of the listTools() map: its key 'shared__z' is already tool 'z' of MCP server 'b', configured before it; give one of the two servers another toolPrefix, or leave one tool out with excludeTools (listToolsets() groups tools by server and keeps both)",
    ]);
    // Grouped by server, every tool stays reachable under its own name.
    const toolsets = await mcp.listToolsets();
    expect(textOf(await run(toolsets.b?.y, {}))).toBe('called y');
    expect(textOf(await run(toolsets.c?.shared__z, {}))).toBe('called shared__z');
  });
});

describe('keys model providers accept', () => {
  it('replace other characters and keep long keys distinct within 64 characters', async () => {
    const log = pidRecorder(children);
    const long = `lookup_${'x'.repeat(70)}`;
    const longer = `${long}_v2`;
    const mcp = client({ servers: { 'my.server': server(['a.b', 'a_b', 'ünï', long, longer], log.logger) } });
    const tools = await mcp.listTools();
    const keys = Object.keys(tools);
    for (const key of keys) expect(key).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(keys.filter((key) => key.length < 64).sort()).toEqual(['my_server__n_', 'my_server_a_b']);
    const hashed = keys.filter((key) => key.length === 64);
    expect(hashed).toHaveLength(2);
    for (const key of hashed) expect(key).toMatch(/^my_server_lookup_x+_[0-9a-f]{8}$/);
    expect(textOf(await run(tools.my_server_a_b, {}))).toBe('called a.b');
    const answers = await Promise.all(hashed.map(async (key) => textOf(await run(tools[key], {}))));
    expect(answers.sort()).toEqual([`called ${long}`, `called ${longer}`]);
    expect(logged(log.records, 'error')).toEqual([
      "my.server: MCP server 'my.server': tool 'a_b' left out of the listTools() map: its key 'my_server_a_b' is already its tool 'a.b' (keys keep only letters, digits, '_' and '-', and at most 64 characters, as model providers require); leave one of the two out with excludeTools (listToolsets() keeps both)",
    ]);
  });
});

describe('naming options checked at construction', () => {
  it.each([
    [
      { toolNameSeparator: '.' },
      'MCP_CLIENT_INVALID_OPTION',
      "MCPClient option 'toolNameSeparator' must be a non-empty string of letters, digits, '_' or '-' (model providers accept no other characters in tool names), not \".\"",
    ],
    [
      { servers: { s: { command: 'node', toolPrefix: 'my tools' } } },
      'MCP_CLIENT_INVALID_SERVER_CONFIG',
      "MCP server 's': 'toolPrefix' must be a string of letters, digits, '_' or '-' (model providers accept no other characters in tool names); '' keys tools by their own names",
    ],
    [
      { servers: { s: { command: 'node', excludeTools: ['ok', ''] } } },
      'MCP_CLIENT_INVALID_SERVER_CONFIG',
      "MCP server 's': 'excludeTools' must be an array of tool names (non-empty strings; '*' matches any characters)",
    ],
  ])('refuses %j', (options, id, message) => {
    const error = (() => {
      try {
        new MCPClient({ servers: {}, registerProcessHooks: false, ...options } as MCPClientOptions);
      } catch (caught) {
        return caught as MastraError;
      }
      throw new Error('constructed');
    })();
    expect([error.id, error.message]).toEqual([id, message]);
  });
});
