import { Agent, type ToolsInput } from '@mastra/core/agent';
import { ConsoleLogger } from '@mastra/core/logger';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod-v3';
import { toolCallingModel } from '../../examples/mock-model.js';
import { MCPErrorCode, MCPServer } from '../../src/index.js';
import {
  contextTool,
  doublerWorkflow,
  fullConfig,
  helperAgent,
  mockModel,
  weatherTool,
} from '../fixtures/tools.js';
import { connectHttp, newClient, serveHttp } from '../helpers.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Serves `server` on HTTP and connects a 2026-07-28 client; both are closed after the test. */
async function serveAndConnect(server: MCPServer) {
  const http = await serveHttp(server);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  const client = await connectHttp(http.mcpUrl, 'modern');
  cleanups.push(() => client.close());
  return client;
}

describe('MCPServer construction', () => {
  it('keeps registry metadata and applies the documented defaults', () => {
    const before = Date.now();
    const server = new MCPServer({
      id: 'My Server',
      name: 'My Server',
      version: '2.0.0',
      description: 'Does things',
      tools: { weatherTool },
      repository: { url: 'https://example.com/repo', source: 'github', id: 'r1' },
      packageCanonical: 'npm',
      packages: [{ registry_name: 'npm', name: 'my-server', version: '2.0.0' }],
      remotes: [{ transport_type: 'streamable', url: 'https://example.com/mcp' }],
    });
    expect(server.id).toBe('my-server');
    const info = server.getServerInfo();
    expect(info).toMatchObject({
      id: 'my-server',
      name: 'My Server',
      description: 'Does things',
      repository: { source: 'github' },
      version_detail: { version: '2.0.0', is_latest: true },
    });
    expect(Date.parse(info.version_detail.release_date)).toBeGreaterThanOrEqual(before - 1);
    expect(server.getServerDetail()).toMatchObject({
      package_canonical: 'npm',
      packages: [{ name: 'my-server' }],
      remotes: [{ transport_type: 'streamable' }],
    });
    const pinned = new MCPServer({
      name: 'x',
      version: '1',
      tools: {},
      releaseDate: '2026-01-01T00:00:00Z',
      isLatest: false,
    });
    expect(pinned.getServerInfo().version_detail).toEqual({
      version: '1',
      release_date: '2026-01-01T00:00:00Z',
      is_latest: false,
    });
  });

  it('stores the options whose behaviour comes later', () => {
    const mapAuthInfoToUser = () => ({ id: 'u' });
    const server = new MCPServer({
      name: 'x',
      version: '1',
      tools: {},
      mapAuthInfoToUser,
      fga: { permissionMapping: { 'tools:execute': 'read' } },
      appResources: { 'ui://calc/main': { name: 'Calculator', html: '<p>hi</p>' } },
    });
    expect(server.mapAuthInfoToUser).toBe(mapAuthInfoToUser);
    expect(server.fga?.permissionMapping).toEqual({ 'tools:execute': 'read' });
    expect(server.appResources?.['ui://calc/main']?.name).toBe('Calculator');
  });

  it('refuses an agent or a workflow without a description, naming it', () => {
    const bare = new Agent({ id: 'bare', name: 'Bare', instructions: 'x', model: mockModel('x') });
    expect(() => new MCPServer({ name: 'x', version: '1', tools: {}, agents: { bare } })).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_AGENT_DESCRIPTION_MISSING,
        message: expect.stringMatching(/Agent 'Bare'.*'bare'.*non-empty description.*ask_bare/),
      }),
    );
    const step = createStep({
      id: 's',
      inputSchema: z.object({}),
      outputSchema: z.object({}),
      execute: async () => ({}),
    });
    const silent = createWorkflow({ id: 'silent', inputSchema: z.object({}), outputSchema: z.object({}) })
      .then(step)
      .commit();
    expect(() => new MCPServer({ name: 'x', version: '1', tools: {}, workflows: { silent } })).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_WORKFLOW_DESCRIPTION_MISSING,
        message: expect.stringMatching(/Workflow 'silent'.*non-empty description.*run_silent/),
      }),
    );
  });

  it('raises misuse and failures of what it publishes with their ids', async () => {
    const failing = createStep({
      id: 'boom',
      inputSchema: z.object({}),
      outputSchema: z.object({}),
      execute: async () => {
        throw new Error('step exploded');
      },
    });
    const exploding = createWorkflow({
      id: 'exploding',
      description: 'Always fails',
      inputSchema: z.object({}),
      outputSchema: z.object({}),
    })
      .then(failing)
      .commit();
    const server = new MCPServer({
      name: 'x',
      version: '1',
      tools: {
        inert: createTool({ id: 'inert', description: 'Has no execute' }),
        liar: createTool({
          id: 'liar',
          description: 'Returns what its output schema refuses',
          outputSchema: z.object({ count: z.number() }),
          execute: async () => ({ count: 'many' }) as never,
        }),
      },
      workflows: { exploding },
    });
    await expect(server.readResource('ui://none')).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_NO_RESOURCES,
      message: `MCP server '${server.id}' has no resources configured`,
    });
    await expect(server.executeTool('inert', {})).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_TOOL_NOT_EXECUTABLE,
      message: "Tool 'inert' has no execute function",
    });
    await expect(server.executeTool('liar', {})).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_TOOL_OUTPUT_INVALID,
    });
    await expect(server.executeTool('run_exploding', {})).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_WORKFLOW_FAILED,
      message: expect.stringMatching(/Workflow 'exploding' failed: .*step exploded/),
    });
  });

  it('refuses a tool that is not a tool object, naming it', () => {
    expect(() => new MCPServer({ name: 'x', version: '1', tools: { broken: 42 as never } })).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_INVALID_TOOL,
        message: expect.stringMatching(/Tool 'broken'/),
      }),
    );
  });

  it('lets explicit tools win name collisions and skips the derived tool with a logged warning', () => {
    const warn = vi.spyOn(ConsoleLogger.prototype, 'warn');
    try {
      const explicit = createTool({
        id: 'explicit',
        description: 'I am explicit',
        execute: async () => 'explicit',
      });
      const server = new MCPServer({
        name: 'x',
        version: '1',
        tools: { ask_helper: explicit, run_doubler: weatherTool },
        agents: { helper: helperAgent },
        workflows: { doubler: doublerWorkflow },
      });
      expect(server.getToolInfo('ask_helper')).toMatchObject({ description: 'I am explicit' });
      expect(server.getToolInfo('ask_helper')?.toolType).toBeUndefined();
      expect(server.getToolInfo('run_doubler')?.toolType).toBeUndefined();
      const messages = warn.mock.calls.map((call) => String(call[0]));
      expect(messages).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/Agent 'helper'.*'ask_helper'.*explicitly defined tool.*skipping/),
          expect.stringMatching(/Workflow 'doubler'.*'run_doubler'.*explicitly defined tool.*skipping/),
        ]),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('describes tools with getToolListInfo/getToolInfo and runs them with executeTool', async () => {
    const server = new MCPServer(fullConfig());
    const list = server.getToolListInfo().tools;
    expect(list.find((t) => t.name === 'ask_helper')).toMatchObject({ toolType: 'agent' });
    expect(server.getToolInfo('weatherTool')).toMatchObject({
      name: 'weatherTool',
      description: 'Gets the current weather for a location.',
      inputSchema: { type: 'object', properties: { location: { type: 'string' } } },
      _meta: { team: 'weather' },
    });
    expect(server.getToolInfo('missing')).toBeUndefined();
    expect(await server.executeTool('weatherTool', { location: 'Kyiv' })).toEqual({
      location: 'Kyiv',
      forecast: 'Weather in Kyiv is sunny.',
    });
    expect(await server.executeTool('run_doubler', { value: 5 })).toMatchObject({ result: { doubled: 10 } });
    expect(await server.executeTool('ask_helper', { message: 'hi' }, { toolCallId: 'c1' })).toMatchObject({
      text: 'The answer is 42.',
    });
    await expect(server.executeTool('missing', {})).rejects.toThrow(/Tool 'missing' not found on MCP server/);
    await expect(server.executeTool('weatherTool', { location: 1 })).rejects.toThrow(
      /weatherTool.*location/s,
    );
    // A MastraError with its id, as every error of the package, derived tools included.
    for (const [tool, args] of [
      ['weatherTool', { location: 1 }],
      ['run_doubler', { value: 'x' }],
    ] as const) {
      await expect(server.executeTool(tool, args)).rejects.toMatchObject({
        id: 'MCP_SERVER_INVALID_TOOL_ARGUMENTS',
        domain: 'MCP',
        category: 'USER',
        details: { tool },
      });
    }
  });

  it('registers with a Mastra instance', () => {
    const server = new MCPServer({
      id: 'registered',
      name: 'Registered',
      version: '1',
      tools: { weatherTool },
    });
    const mastra = new Mastra({ mcpServers: { registered: server }, logger: false });
    expect(mastra.getMCPServerById('registered')).toBe(server);
    expect(server.mastra).toBe(mastra);
  });
});

const DRAFT_2020_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'] } },
  properties: { address: { $ref: '#/$defs/address' } },
  required: ['address'],
  additionalProperties: false,
};

describe('schemas', () => {
  it('advertises and validates zod 4, JSON Schema and Standard Schema inputs', async () => {
    const standard = {
      '~standard': {
        version: 1 as const,
        vendor: 'hand-made',
        validate: (value: unknown) =>
          typeof (value as { n?: unknown })?.n === 'number'
            ? { value }
            : { issues: [{ message: 'must be a number', path: ['n'] }] },
        jsonSchema: {
          input: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
          output: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
        },
      },
    };
    const server = new MCPServer({
      name: 'schemas',
      version: '1',
      tools: {
        standardTool: createTool({
          id: 'standardTool',
          description: 'Standard Schema input',
          inputSchema: standard as never,
          execute: async (input) => input,
        }),
        draft2020Tool: createTool({
          id: 'draft2020Tool',
          description: 'A 2020-12 schema with $defs, kept exactly as declared',
          inputSchema: DRAFT_2020_SCHEMA as never,
          execute: async (input) => input,
        }),
        jsonTool: createTool({
          id: 'jsonTool',
          description: 'JSON Schema input',
          inputSchema: {
            type: 'object',
            properties: { s: { type: 'string', minLength: 2 } },
            required: ['s'],
          } as never,
          execute: async (input) => input,
        }),
      },
    });
    const client = await serveAndConnect(server);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'standardTool')?.inputSchema).toMatchObject({
      properties: { n: { type: 'number' } },
    });
    expect(tools.find((t) => t.name === 'jsonTool')?.inputSchema).toMatchObject({
      properties: { s: { type: 'string', minLength: 2 } },
    });
    expect(tools.find((t) => t.name === 'draft2020Tool')?.inputSchema).toEqual(DRAFT_2020_SCHEMA);
    const ref = await client.callTool({ name: 'draft2020Tool', arguments: { address: { street: 1 } } });
    expect(ref.isError).toBe(true);
    expect(textOf(ref)).toContain('street');
    expect(textOf(await client.callTool({ name: 'standardTool', arguments: { n: 4 } }))).toBe('{"n":4}');
    const bad = await client.callTool({ name: 'standardTool', arguments: { n: 'four' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('n');
    expect((await client.callTool({ name: 'jsonTool', arguments: { s: 'x' } })).isError).toBe(true);
    expect(textOf(await client.callTool({ name: 'jsonTool', arguments: { s: 'xy' } }))).toBe('{"s":"xy"}');
  });
});

describe('output schemas', () => {
  it('advertises zod 3, JSON Schema and AI SDK output schemas and returns structuredContent', async () => {
    const server = new MCPServer({
      name: 'outputs',
      version: '1',
      tools: {
        zod3Out: createTool({
          id: 'zod3Out',
          title: 'Zod 3 output',
          description: 'zod 3 output schema',
          inputSchema: z3.object({ n: z3.number() }),
          outputSchema: z3.object({ squared: z3.number() }),
          execute: async ({ n }) => ({ squared: n * n }),
        }),
        jsonOut: createTool({
          id: 'jsonOut',
          description: 'JSON Schema output schema',
          inputSchema: z.object({}),
          outputSchema: {
            type: 'object',
            properties: { ok: { type: 'boolean' } },
            required: ['ok'],
          } as unknown as z.ZodType<{ ok: boolean }>,
          execute: async () => ({ ok: true }),
        }),
        aiOut: tool({
          description: 'AI SDK tool with an output schema',
          inputSchema: z.object({ word: z.string() }),
          outputSchema: z.object({ length: z.number() }),
          execute: async ({ word }) => ({ length: word.length }),
        }) as unknown as ToolsInput[string],
      },
    });
    const client = await serveAndConnect(server);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.zod3Out?.title).toBe('Zod 3 output');
    expect(byName.zod3Out?.outputSchema).toMatchObject({ properties: { squared: { type: 'number' } } });
    expect(byName.jsonOut?.outputSchema).toMatchObject({ properties: { ok: { type: 'boolean' } } });
    expect(byName.aiOut?.outputSchema).toMatchObject({ properties: { length: { type: 'number' } } });
    expect((await client.callTool({ name: 'zod3Out', arguments: { n: 3 } })).structuredContent).toEqual({
      squared: 9,
    });
    expect((await client.callTool({ name: 'jsonOut', arguments: {} })).structuredContent).toEqual({
      ok: true,
    });
    expect(
      (await client.callTool({ name: 'aiOut', arguments: { word: 'mastra' } })).structuredContent,
    ).toEqual({
      length: 6,
    });
  });
});

describe('agents see the MCP request', () => {
  it('exposes mcp.extra through requestContext to tools an agent calls', async () => {
    const prompts: unknown[] = [];
    const model = toolCallingModel('contextTool', {}, { onPrompt: (prompt) => prompts.push(prompt) });
    const agent = new Agent({
      id: 'inspector',
      name: 'Inspector',
      description: 'Inspects the request.',
      instructions: 'Call contextTool.',
      model,
      tools: { contextTool },
    });
    const server = new MCPServer({ name: 'agents', version: '1', tools: {}, agents: { inspector: agent } });
    const http = await serveHttp(server, {
      before: (req) => {
        req.auth = { token: 'agent-token', clientId: 'c', scopes: [] };
      },
    });
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const client = await connectHttp(http.mcpUrl, 'legacy', newClient('legacy'));
    cleanups.push(() => client.close());
    const answer = await client.callTool({ name: 'ask_inspector', arguments: { message: 'who am I?' } });
    const seen = JSON.parse(textOf(answer));
    expect(seen.authInfo).toMatchObject({ token: 'agent-token' });
    expect(seen.sessionId).toBe((client.transport as { sessionId?: string }).sessionId);
    expect(prompts).toHaveLength(2);
  });
});
