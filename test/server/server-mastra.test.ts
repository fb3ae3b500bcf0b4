/**
 * An MCPServer registered on a Mastra instance: found by id, its tools in the instance's registry
 * at registration and kept in step by toolActions.add()/remove(), used by an Agent of the same
 * instance, while an MCP client over HTTP sees the same changes.
 */
import { Agent, type ToolsInput } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { tool as aiTool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallingModel } from '../../examples/mock-model.js';
import { MCPClient, MCPServer, type MCPServerEventBus } from '../../src/index.js';
import { serveHttp } from '../helpers.js';
import { RecordingLogger } from '../support/logger.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A notification bus that is down: every publish is refused. */
const downBus: MCPServerEventBus = {
  join: () => ({
    publish: () => Promise.reject(new Error('bus unreachable')),
    leave: async () => {},
  }),
};

const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Gets the weather.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ forecast: `sunny in ${city}` }),
});

const searchTool = createTool({
  id: 'search-tool',
  description: 'Searches the knowledge base.',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => ({ results: [`found ${query}`] }),
});

/** An AI SDK tool has no intrinsic id, so start-up registration leaves it out of the registry. */
const idlessTool = aiTool({
  description: 'No id.',
  inputSchema: z.object({}),
  execute: async () => 'ok',
}) as unknown as ToolsInput[string];

function registryKeys(mastra: Mastra): string[] {
  return Object.keys(mastra.listTools() ?? {}).sort();
}

describe('an MCPServer registered on a Mastra instance', () => {
  it('is found by id, keeps the tool registry in step, and an agent and an MCP client see the changes', async () => {
    const server = new MCPServer({
      id: 'knowledge',
      name: 'Knowledge Server',
      version: '1.0.0',
      tools: { weatherTool, idlessTool },
    });
    const agent = new Agent({
      id: 'researcher',
      name: 'Researcher',
      instructions: 'Use the tools.',
      model: toolCallingModel('search-tool', { query: 'mcp' }),
      tools: ({ mastra }) => (mastra?.listTools() ?? {}) as never,
    });
    const mastra = new Mastra({ mcpServers: { kb: server }, agents: { researcher: agent }, logger: false });
    expect(mastra.getMCPServerById('knowledge')).toBe(server);
    expect(server.id).toBe('knowledge');
    expect(registryKeys(mastra)).toEqual(['weather-tool']);

    const http = await serveHttp(server);
    const client = new MCPClient({
      id: `registry-${Math.random()}`,
      registerProcessHooks: false,
      servers: { kb: { url: http.mcpUrl } },
    });
    cleanups.push(
      () => http.close(),
      () => server.close(),
      () => client.disconnect(),
    );
    const changes: number[] = [];
    await client.listTools();
    await client.tools.onListChanged('kb', () => changes.push(changes.length + 1));

    await server.toolActions.add({ searchTool });
    expect(registryKeys(mastra)).toEqual(['search-tool', 'weather-tool']);
    expect(mastra.getTool('search-tool' as never)).toBe(searchTool);
    await eventually('the client to be told of the addition', () => changes.length === 1);
    expect(Object.keys(await client.listTools()).sort()).toEqual([
      'kb_idlessTool',
      'kb_searchTool',
      'kb_weatherTool',
    ]);

    // The agent resolves its tools from the instance at run time, so the added tool is callable.
    const answer = await mastra.getAgent('researcher').generate('search for mcp');
    expect(answer.text).toBe(JSON.stringify({ results: ['found mcp'] }));

    await server.toolActions.remove(['searchTool']);
    expect(registryKeys(mastra)).toEqual(['weather-tool']);
    await eventually('the client to be told of the removal', () => changes.length === 2);
    expect(Object.keys(await client.listTools())).not.toContain('kb_searchTool');
  });

  it('registers tools added before registration and leaves out tools removed before it', async () => {
    const server = new MCPServer({ id: 'early', name: 'Early', version: '1.0.0', tools: { weatherTool } });
    await server.toolActions.add({ searchTool });
    await server.toolActions.remove(['weatherTool']);
    const mastra = new Mastra({ mcpServers: { early: server }, logger: false });
    expect(registryKeys(mastra)).toEqual(['search-tool']);
    expect(Object.keys(server.tools())).toEqual(['searchTool']);
    await server.toolActions.remove(['searchTool']);
    expect(registryKeys(mastra)).toEqual([]);
    expect(server.tools()).toEqual({});
  });

  it('keeps the tools it publishes through registration: a derived tool removed before it stays removed', async () => {
    const helper = new Agent({
      id: 'helper',
      name: 'Helper',
      description: 'Answers questions.',
      instructions: 'Answer.',
      model: toolCallingModel('weather-tool', { city: 'Paris' }),
    });
    const server = new MCPServer({
      id: 'derived',
      name: 'Derived',
      version: '1.0.0',
      tools: { weatherTool },
      agents: { helper },
    });
    expect(Object.keys(server.tools())).toEqual(['weatherTool', 'ask_helper']);
    await server.toolActions.remove(['ask_helper']);
    new Mastra({ mcpServers: { derived: server }, logger: false });
    expect(Object.keys(server.tools())).toEqual(['weatherTool']);
    expect(server.getToolListInfo().tools.map((tool) => tool.name)).toEqual(['weatherTool']);
  });

  it("logs a failed bus publish to the Mastra instance's logger, set after the server was built", async () => {
    const server = new MCPServer({
      id: 'shared',
      name: 'Shared',
      version: '1.0.0',
      tools: { weatherTool },
      notifications: { bus: downBus },
    });
    const logger = new RecordingLogger();
    new Mastra({ mcpServers: { shared: server }, logger });

    await server.toolActions.notifyListChanged();
    expect(logger.errors).toEqual([
      "MCP notification 'tools_list_changed' not shared with other instances: bus unreachable",
    ]);
  });

  it("never removes a tool it did not put there, and a replaced tool takes its predecessor's place", async () => {
    const logger = new RecordingLogger();
    const usersSearch = createTool({
      id: 'search-tool',
      description: "The application's own search.",
      execute: async () => 'own',
    });
    const server = new MCPServer({ id: 'polite', name: 'Polite', version: '1.0.0', tools: { weatherTool } });
    const mastra = new Mastra({
      tools: { 'search-tool': usersSearch },
      mcpServers: { polite: server },
      logger,
    });

    // The key is taken by the application's tool: the server's tool stays out, with a warning.
    await server.toolActions.add({ searchTool });
    expect(mastra.getTool('search-tool' as never)).toBe(usersSearch);
    expect(logger.warnings.join('\n')).toMatch(
      /MCP server 'polite': tool 'searchTool' is not in the Mastra tool registry because key 'search-tool' already holds another tool/,
    );
    await server.toolActions.remove(['searchTool']);
    expect(mastra.getTool('search-tool' as never)).toBe(usersSearch);

    // Replacing a tool under the same server key swaps the registry entry.
    const betterWeather = createTool({
      id: 'weather-tool-v2',
      description: 'Better weather.',
      execute: async () => 'rain',
    });
    await server.toolActions.add({ weatherTool: betterWeather });
    expect(registryKeys(mastra)).toEqual(['search-tool', 'weather-tool-v2']);

    // A tool the application re-registered under the server's key after the server's is removed stays.
    mastra.removeTool('weather-tool-v2');
    const usersWeather = createTool({
      id: 'weather-tool-v2',
      description: 'Own.',
      execute: async () => 'own',
    });
    mastra.addTool(usersWeather);
    await server.toolActions.remove(['weatherTool']);
    expect(mastra.getTool('weather-tool-v2' as never)).toBe(usersWeather);
  });
});
