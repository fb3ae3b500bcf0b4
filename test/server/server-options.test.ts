/**
 * MCPServer's option checks: every options object (the config and everything nested in it,
 * `startHTTP()`'s options, `events.define()`, `createOAuthMiddleware`) refuses an unknown key with
 * its path and the nearest known key, and a value of the wrong type with its path and the type
 * expected; every option the MCPServer reference documents, and the SDK v1 transport options, are
 * still accepted. Tool schemas the protocol cannot carry are refused when the server is built (or
 * a tool is added), naming the tool and the fix. Construction needs no transport; `startHTTP()` is
 * driven by real requests on 127.0.0.1.
 */
import http from 'node:http';
import type { MastraError } from '@mastra/core/error';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import type { EventStore } from '@modelcontextprotocol/server';
import { tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createOAuthMiddleware,
  InMemoryMCPEventStore,
  InMemoryMCPTaskStore,
  MCPErrorCode,
  MCPServer,
  type MCPServerConfig,
} from '../../src/index.js';
import { doublerWorkflow, helperAgent, prompts, resources, weatherTool } from '../fixtures/tools.js';
import { connectHttp, serveHttp } from '../helpers.js';
import { RecordingLogger } from '../support/logger.js';
import { listenLocal } from '../support/net.js';
import { thrownBy as thrownByCall } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const thrownBy = (call: () => unknown) => thrownByCall<MastraError>(call);

const server = (config: Record<string, unknown>) => () =>
  new MCPServer({
    id: 'weather',
    name: 'Weather',
    version: '1.0.0',
    tools: { weatherTool },
    ...config,
  } as MCPServerConfig);

describe('MCPServer config', () => {
  it('refuses `tool:` for `tools:`, naming the server and the key meant', () => {
    const error = thrownBy(
      () => new MCPServer({ name: 'weather', version: '1.0.0', tool: { weatherTool } } as never),
    );
    expect(error).toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_OPTION,
      category: 'USER',
      message: "MCP server 'weather': `tool` is not an option of MCPServer; did you mean `tools`?",
      details: { field: 'tool', serverId: 'weather' },
    });
  });

  it('refuses limits.maxBodyByte under the limits id, with the path', () => {
    expect(thrownBy(server({ limits: { maxBodyByte: 1024 } }))).toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_LIMITS_OPTION,
      message:
        "MCP server 'weather': `limits.maxBodyByte` is not an option of `limits`; did you mean `maxBodyBytes`?",
      details: { field: 'limits.maxBodyByte' },
    });
  });

  it('refuses unknown keys however deep, each under its group id', () => {
    const cases: Array<[Record<string, unknown>, string, string, string]> = [
      [
        { events: { types: {}, webhook: { retry: { attempt: 3 } } } },
        MCPErrorCode.SERVER_INVALID_EVENTS_OPTION,
        'events.webhook.retry.attempt',
        'attempts',
      ],
      [
        { tasks: { tools: { weatherTool: { suport: 'optional' } } } },
        MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
        'tasks.tools.weatherTool.suport',
        'support',
      ],
      [
        { requestState: { key: 'k'.repeat(32), instanceID: 'a' } },
        MCPErrorCode.SERVER_INVALID_REQUEST_STATE_OPTION,
        'requestState.instanceID',
        'instanceId',
      ],
      [
        {
          appResources: {
            'ui://app/main': { name: 'App', html: '<p/>', meta: { csp: { connectDomain: [] } } },
          },
        },
        MCPErrorCode.SERVER_APP_RESOURCE_INVALID,
        'appResources["ui://app/main"].meta.csp.connectDomain',
        'connectDomains',
      ],
      [
        { resources: { ...resources, resourceTemplate: async () => [] } },
        MCPErrorCode.SERVER_INVALID_OPTION,
        'resources.resourceTemplate',
        'resourceTemplates',
      ],
      [{ notifications: { buss: {} } }, MCPErrorCode.SERVER_INVALID_OPTION, 'notifications.buss', 'bus'],
    ];
    for (const [config, id, path, meant] of cases) {
      const error = thrownBy(server(config));
      expect(error.id).toBe(id);
      expect(error.details).toMatchObject({ field: path });
      expect(error.message).toContain(`\`${path}\` is not an option of`);
      expect(error.message).toContain(`did you mean \`${meant}\`?`);
    }
  });

  it('lists the options when no known key is near', () => {
    const { message } = thrownBy(server({ zzzzzz: 1 }));
    expect(message).toMatch(
      /`zzzzzz` is not an option of MCPServer; its options are `id`, `name`, .*`limits`/,
    );
  });

  it('names the path and the expected type of a wrong value', () => {
    expect(thrownBy(server({ limits: { maxBodyBytes: '4mb' } }))).toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_LIMITS_OPTION,
      message: "MCP server 'weather': `limits.maxBodyBytes` must be a number, got a string",
    });
    expect(thrownBy(server({ redactErrors: 'yes' })).message).toBe(
      "MCP server 'weather': `redactErrors` must be a boolean, got a string",
    );
    expect(thrownBy(server({ events: { types: { push: { delivery: ['pol'] } } } })).message).toBe(
      "MCP server 'weather': `events.types.push.delivery[0]` must be 'poll', 'push' or 'webhook', got \"pol\"; did you mean 'poll'?",
    );
    expect(thrownBy(server({ events: { webhook: false } })).message).toBe(
      "MCP server 'weather': `events.types` is required: an object",
    );
    expect(thrownBy(() => new MCPServer(undefined as never)).message).toBe(
      "MCP server '(unnamed)': the MCPServer config must be an object, got undefined",
    );
  });

  it('refuses misspelt options of the in-memory stores a config is given', () => {
    expect(thrownBy(() => new InMemoryMCPTaskStore({ maxTask: 5 } as never))).toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
      message:
        'InMemoryMCPTaskStore: `maxTask` is not an option of InMemoryMCPTaskStore; did you mean `maxTasks`?',
    });
    expect(thrownBy(() => new InMemoryMCPEventStore({ maxAge: 1000 } as never))).toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_EVENTS_OPTION,
      message:
        'InMemoryMCPEventStore: `maxAge` is not an option of InMemoryMCPEventStore; did you mean `maxAgeMs`?',
    });
  });

  it('accepts undefined for an optional option, as a spread config carries it', () => {
    const built = server({ description: undefined, limits: { maxBodyBytes: undefined }, tasks: undefined })();
    expect(built.limits.maxBodyBytes).toBe(4 * 1024 * 1024);
  });

  it('accepts every option the MCPServer reference documents', async () => {
    const everything = new MCPServer({
      id: 'everything',
      name: 'Everything',
      version: '1.0.0',
      description: 'All options',
      instructions: 'Use them.',
      tools: { weatherTool },
      agents: { helper: helperAgent },
      workflows: { doubler: doublerWorkflow },
      mapAuthInfoToUser: () => null,
      fga: {
        resourceMapping: { tool: { fgaResourceType: 'tool', deriveId: () => undefined } },
        permissionMapping: { 'tools:execute': 'execute' },
      },
      repository: { url: 'https://example.com/repo', source: 'github', id: 'r1' },
      releaseDate: '2025-01-01T00:00:00Z',
      isLatest: true,
      packageCanonical: 'npm',
      packages: [{ registry_name: 'npm', name: 'everything', version: '1.0.0' }],
      remotes: [{ transport_type: 'streamable', url: 'https://example.com/mcp' }],
      resources,
      prompts,
      appResources: {
        'ui://everything/main': {
          name: 'Main',
          description: 'The view',
          html: '<p>hi</p>',
          meta: {
            csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
            permissions: { clipboardWrite: {} },
            domain: 'everything.example',
            prefersBorder: true,
          },
        },
      },
      events: {
        types: {
          'repo.push': {
            description: 'A push',
            inputSchema: z.object({ repo: z.string() }),
            payloadSchema: z.object({ sha: z.string() }),
            delivery: ['poll', 'push', 'webhook'],
            replay: true,
            matches: () => true,
            authorize: () => true,
            _meta: { team: 'infra' },
          },
        },
        store: new InMemoryMCPEventStore({ maxEvents: 10, maxAgeMs: 60_000 }),
        heartbeatIntervalMs: 30_000,
        pollIntervalMs: 5000,
        maxPollEvents: 100,
        listPageSize: 100,
        webhook: {
          maxSubscriptions: 10,
          defaultTtlMs: 3_600_000,
          minTtlMs: 60_000,
          maxTtlMs: 86_400_000,
          retry: { attempts: 5, initialDelayMs: 1000, maxDelayMs: 300_000 },
          timeoutMs: 10_000,
          suspendAfter: 3,
          secretGraceMs: 300_000,
          verificationTtlMs: 86_400_000,
          allowPrivateAddresses: false,
          fetch: (input, init) => fetch(input, init),
          principal: () => undefined,
        },
        onClose: 'end',
      },
      tasks: {
        tools: { weatherTool: 'optional', ask_helper: { support: 'required', inputBeforeTask: true } },
        store: new InMemoryMCPTaskStore(),
        ttlMs: null,
        pollIntervalMs: 1000,
        maxTasks: 10,
        maxTasksPerPrincipal: 5,
        maxListenTaskIds: 10,
        instanceTimeoutMs: 15_000,
        principal: () => undefined,
      },
      notifications: {},
      requestState: { key: ['k'.repeat(32), new Uint8Array(32)], instanceId: 'pod-1' },
      limits: { maxBodyBytes: 1024 * 1024, maxSessions: 10, streamWriteTimeoutMs: 5000 },
      redactErrors: true,
    });
    cleanups.push(() => everything.close());
    expect(
      everything
        .getToolListInfo()
        .tools.map((entry) => entry.name)
        .sort(),
    ).toEqual(['ask_helper', 'run_doubler', 'weatherTool']);
  });

  it('checks events.define() as it checks events.types', async () => {
    const built = server({ events: { types: {} } })();
    cleanups.push(() => built.close());
    expect(() => built.events.define('repo.push', { delivery: ['poll'], replays: false } as never)).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_INVALID_EVENTS_OPTION,
        message:
          "MCP server 'weather': `events.define('repo.push').replays` is not an option of event type 'repo.push'; did you mean `replay`?",
      }),
    );
    built.events.define('repo.push', { delivery: ['poll'], replay: false });
    expect(built.events.list()).toEqual([{ name: 'repo.push', delivery: ['poll'] }]);
  });
});

describe('startHTTP() options', () => {
  /** An HTTP server whose handler passes `extra` to startHTTP, as a route would (without a catch). */
  async function serving(mcp: MCPServer, extra: Record<string, unknown>) {
    const listener = await listenLocal(
      http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        void mcp.startHTTP({ url, httpPath: '/mcp', req, res, ...extra } as never);
      }),
    );
    cleanups.push(() => listener.close());
    return new URL(`${listener.url}/mcp`);
  }

  it('answers 500 to a request whose options are misspelt, and logs the mistake once, naming it', async () => {
    const logger = new RecordingLogger();
    const mcp = server({})();
    mcp.__setLogger(logger);
    cleanups.push(() => mcp.close());
    const url = await serving(mcp, { options: { serverles: true } });
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        error: { code: -32603, message: "MCP server 'weather' is misconfigured; its log says how" },
      });
    }
    expect(logger.errors).toEqual([
      "MCP server 'weather': `options.serverles` is not an option of startHTTP()'s `options`; did you mean `serverless`?",
    ]);
  });

  it('serves with every transport option the reference documents and the SDK v1 host options', async () => {
    const mcp = server({})();
    cleanups.push(() => mcp.close());
    const sessions: string[] = [];
    const eventStore: EventStore = {
      storeEvent: async () => 'event-1',
      replayEventsAfter: async () => 'stream-1',
    };
    const url = await serving(mcp, {
      options: {
        serverless: false,
        serverlessStreaming: false,
        sessionIdGenerator: () => `session-${sessions.length + 1}`,
        onsessioninitialized: (id: string) => sessions.push(id),
        enableJsonResponse: true,
        eventStore,
        enableDnsRebindingProtection: true,
        allowedHosts: ['127.0.0.1'],
        allowedOrigins: ['http://127.0.0.1'],
      },
    });
    const client = await connectHttp(url, 'legacy');
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((entry) => entry.name)).toEqual(['weatherTool']);
    expect(sessions).toEqual(['session-1']);
  });
});

describe('listen() options and the http option', () => {
  it('refuses a misspelt listen() option before binding, and one in the http option at construction', async () => {
    const mcp = server({})();
    cleanups.push(() => mcp.close());
    await expect(mcp.listen({ prot: 0 } as never)).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_OPTION,
      message: "MCP server 'weather': `prot` is not an option of listen(); did you mean `port`?",
    });
    await expect(
      mcp.listen({ port: 0, cors: { origin: ['http://127.0.0.1'] } } as never),
    ).rejects.toMatchObject({
      message: "MCP server 'weather': `cors.origin` is not an option of `cors`; did you mean `origins`?",
    });
    expect(thrownBy(server({ http: { cros: { origins: [] } } })).message).toBe(
      "MCP server 'weather': `http.cros` is not an option of `http`; did you mean `cors`?",
    );
  });
});

describe('createOAuthMiddleware options', () => {
  const oauth = {
    resource: 'https://mcp.example.com/mcp',
    authorizationServers: ['https://auth.example.com'],
  };

  it('refuses an unknown key and a wrong type under the OAuth id', () => {
    expect(
      thrownBy(() => createOAuthMiddleware({ oauth: { ...oauth, resourceNam: 'x' } } as never)),
    ).toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_OAUTH_CONFIG,
      message:
        'createOAuthMiddleware(): `oauth.resourceNam` is not an option of `oauth`; did you mean `resourceName`?',
    });
    expect(thrownBy(() => createOAuthMiddleware({ oauth, mcpPaht: '/mcp' } as never)).message).toContain(
      'did you mean `mcpPath`?',
    );
    expect(
      thrownBy(() => createOAuthMiddleware({ oauth: { ...oauth, validateToken: 'secret' } } as never)),
    ).toMatchObject({
      message: 'createOAuthMiddleware(): `oauth.validateToken` must be a function, got a string',
    });
  });
});

describe('tool schemas the protocol cannot carry', () => {
  const named = (inputSchema: unknown) =>
    createTool({ id: 'add', description: 'Adds', inputSchema: inputSchema as never, execute: async () => 0 });

  it('refuses a raw zod shape, naming the tool and the z.object() to write (Mastra and AI SDK tools)', () => {
    for (const add of [
      named({ a: z.number(), b: z.number() }),
      tool({
        description: 'Adds',
        inputSchema: { a: z.number(), b: z.number() } as never,
        execute: async () => 0,
      }),
    ]) {
      expect(thrownBy(server({ tools: { add } }))).toMatchObject({
        id: MCPErrorCode.SERVER_INVALID_TOOL,
        message:
          "Tool 'add': inputSchema could not be converted: it is a raw zod shape (an object of schemas), not a schema; wrap it: z.object({ a: …, b: … })",
      });
    }
  });

  it('refuses an input schema that is not an object, and a JSON Schema type that does not exist', () => {
    for (const schema of [z.string(), { type: 'string' }, { properties: { a: { type: 'string' } } }]) {
      const error = thrownBy(server({ tools: { add: named(schema) } }));
      expect(error.id).toBe(MCPErrorCode.SERVER_INVALID_TOOL);
      expect(error.message).toMatch(
        /^Tool 'add' cannot be published: its inputSchema has (type "string"|no `type`), and MCP carries tool arguments as one object .*z\.object\(\{ value: z\.string\(\) \}\)/,
      );
    }
    expect(thrownBy(server({ tools: { add: named({ type: 'objekt' }) } })).message).toBe(
      "Tool 'add': inputSchema could not be converted: its type \"objekt\" is not a JSON Schema type (object, array, string, number, integer, boolean, null); did you mean 'object'?",
    );
  });

  it("refuses a workflow whose input is not an object (its run_ tool's arguments)", () => {
    const step = createStep({
      id: 'echo',
      inputSchema: z.string(),
      outputSchema: z.string(),
      execute: async ({ inputData }) => inputData,
    });
    const echo = createWorkflow({
      id: 'echo',
      description: 'Echoes',
      inputSchema: z.string(),
      outputSchema: z.string(),
    })
      .then(step)
      .commit();
    expect(thrownBy(server({ workflows: { echo } })).message).toMatch(
      /^Tool 'run_echo' cannot be published: its inputSchema has type "string"/,
    );
  });

  it('refuses the same in toolActions.add(), leaving the published tools as they were', async () => {
    const mcp = server({})();
    cleanups.push(() => mcp.close());
    await expect(mcp.toolActions.add({ add: named(z.string()) })).rejects.toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_TOOL,
      message: expect.stringContaining("Tool 'add' cannot be published"),
    });
    expect(mcp.getToolListInfo().tools.map((entry) => entry.name)).toEqual(['weatherTool']);
  });

  it('publishes object schemas, zod or JSON Schema, and any output schema root (SEP-2106)', async () => {
    const mcp = server({
      tools: {
        weatherTool,
        json: named({ type: 'object', properties: { a: { type: 'string' } } }),
        scalar: createTool({
          id: 'scalar',
          description: 'A number',
          inputSchema: z.object({}),
          outputSchema: z.number(),
          execute: async () => 1,
        }),
      },
    })();
    const served = await serveHttp(mcp);
    cleanups.push(
      () => served.close(),
      () => mcp.close(),
    );
    const client = await connectHttp(served.mcpUrl, 'modern');
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((entry) => entry.name)).toEqual([
      'weatherTool',
      'json',
      'scalar',
    ]);
  });
});
