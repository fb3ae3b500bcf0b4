/**
 * `server_tool` keys that two servers both make (issue 25, item 8): server `x_y`'s tool `z` and
 * server `x`'s tool `y_z` are both `x_y_z`. The key stays with the server configured first,
 * whichever answered first; the other tool is left out of the flat map with an error naming both
 * servers and both tools, and stays reachable through `listToolsets()`. The servers are
 * fixtures/flood-server.ts over stdio, the one configured first made to answer last.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LogMessage, MCPClient, type StdioServerDefinition } from '../../src/index.js';
import { clientsDisconnectedAfterEach, pidRecorder, run } from '../fixtures/client-harness.js';
import { textOf } from '../support/results.js';

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/flood-server.ts');
const { clients, children } = clientsDisconnectedAfterEach();
let nextId = 0;

function server(names: string, logger: (entry: LogMessage) => void, listDelayMs = 0): StdioServerDefinition {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE, '--names', names, '--list-delay', String(listDelayMs)],
    logger,
  };
}

const collisions = (records: LogMessage[]) =>
  records.filter((entry) => entry.level === 'error').map((entry) => `${entry.serverName}: ${entry.message}`);

describe('two servers making the same server_tool key', () => {
  it.each([
    ['x_y', 'x'],
    ['x', 'x_y'],
  ])('keeps it for the server configured first (%s), logs the other naming both', async (first, second) => {
    const log = pidRecorder(children);
    const tools = { x_y: 'z', x: 'y_z,w' } as Record<string, string>;
    // The server configured first answers last: the outcome follows the configuration.
    const mcp = new MCPClient({
      id: `tool-keys-${process.pid}-${++nextId}`,
      registerProcessHooks: false,
      timeout: 20_000,
      servers: {
        [first]: server(tools[first] as string, log.logger, 1500),
        [second]: server(tools[second] as string, log.logger),
      },
    });
    clients.push(mcp);
    const tool = (serverName: string) => (serverName === 'x' ? 'y_z' : 'z');

    const listed = await mcp.listTools();
    expect(Object.keys(listed).sort()).toEqual(['x_w', 'x_y_z']);
    expect(textOf(await run(listed.x_y_z, {}))).toBe(`called ${tool(first)}`);
    const expected = `${second}: MCP server '${second}': tool '${tool(second)}' left out of the listTools() map: its key 'x_y_z' is already tool '${tool(first)}' of MCP server '${first}', configured before it; give one of the two servers another toolPrefix, or leave one tool out with excludeTools (listToolsets() groups tools by server and keeps both)`;
    expect(collisions(log.records)).toEqual([expected]);

    // Both stay reachable by server; a cached catalog rebuilds the same map.
    const toolsets = await mcp.listToolsets();
    expect(textOf(await run(toolsets.x?.y_z, {}))).toBe('called y_z');
    expect(textOf(await run(toolsets.x_y?.z, {}))).toBe('called z');
    const definitions = await mcp.listToolDefinitions();
    const reversed = Object.fromEntries(Object.entries(definitions).reverse());
    const rebuilt = await mcp.toolsFromDefinitions({ definitions: reversed });
    expect(Object.keys(rebuilt).sort()).toEqual(['x_w', 'x_y_z']);
    expect(textOf(await run(rebuilt.x_y_z, {}))).toBe(`called ${tool(first)}`);
  });
});
