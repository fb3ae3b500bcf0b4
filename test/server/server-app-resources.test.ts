import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsoleLogger } from '@mastra/core/logger';
import { createTool } from '@mastra/core/tools';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpUiResourceMeta as ExtAppsResourceMeta } from '@modelcontextprotocol/ext-apps';
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import { afterAll, afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  MCP_APP_MIME_TYPE,
  MCP_APPS_EXTENSION_ID,
  MCPClient,
  MCPErrorCode,
  MCPServer,
  type MCPServerConfig,
  type McpUiResourceMeta,
} from '../../src/index.js';
import { EVENTS_EXTENSION_ID } from '../../src/shared/events-wire.js';
import {
  appServerConfig,
  CALCULATOR_HTML,
  CALCULATOR_URI,
  calculatorMeta,
  DASHBOARD_URI,
} from '../fixtures/app-resources.js';
import { connectHttp, type Era, newClient, serveHttp } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-apps-'));
const dashboardPath = join(dir, 'dashboard.html');
const DASHBOARD_HTML = '<!doctype html><html><body><h1>Dashboard</h1></body></html>';
writeFileSync(dashboardPath, DASHBOARD_HTML);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function serve(config: MCPServerConfig) {
  const server = new MCPServer(config);
  const http = await serveHttp(server);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

async function connect(url: URL, era: Era): Promise<Client> {
  const client = await connectHttp(url, era);
  cleanups.push(() => client.close());
  return client;
}

/** What every transport and era must serve for the fixture's two app resources and two linked tools. */
async function expectAppsServed(client: Client) {
  expect(client.getServerCapabilities()).toMatchObject({
    resources: {},
    extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
  });

  const { resources } = await client.listResources();
  expect(resources).toEqual([
    {
      uri: CALCULATOR_URI,
      name: 'Interactive Calculator',
      description: 'Adds two numbers',
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: calculatorMeta },
    },
    { uri: DASHBOARD_URI, name: 'Dashboard', mimeType: RESOURCE_MIME_TYPE },
  ]);

  const calculator = await client.readResource({ uri: CALCULATOR_URI });
  expect(calculator.contents).toEqual([
    {
      uri: CALCULATOR_URI,
      mimeType: RESOURCE_MIME_TYPE,
      text: CALCULATOR_HTML,
      _meta: { ui: calculatorMeta },
    },
  ]);
  const dashboard = await client.readResource({ uri: DASHBOARD_URI });
  expect(dashboard.contents).toEqual([
    { uri: DASHBOARD_URI, mimeType: RESOURCE_MIME_TYPE, text: DASHBOARD_HTML },
  ]);

  const { tools } = await client.listTools();
  const meta = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta]));
  expect(meta.calculatorWithUI).toEqual({
    ui: { resourceUri: CALCULATOR_URI, visibility: ['model', 'app'] },
    [RESOURCE_URI_META_KEY]: CALCULATOR_URI,
  });
  expect(meta.showDashboard).toEqual({
    ui: { resourceUri: DASHBOARD_URI },
    [RESOURCE_URI_META_KEY]: DASHBOARD_URI,
    team: 'ops',
  });
}

describe('MCPServer appResources (MCP Apps)', () => {
  it('uses the MIME type and extension id of the ext-apps SDK, and a meta type interchangeable with its own', () => {
    expect(MCP_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(MCP_APPS_EXTENSION_ID).toBe(EXTENSION_ID);
    expectTypeOf<ExtAppsResourceMeta>().toExtend<McpUiResourceMeta>();
    expectTypeOf<McpUiResourceMeta>().toExtend<ExtAppsResourceMeta>();
  });

  it.each<Era>(['modern', 'legacy'])('serves app resources and linked tools over HTTP (%s)', async (era) => {
    const { http } = await serve(appServerConfig(dashboardPath));
    const client = await connect(http.mcpUrl, era);
    expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    await expectAppsServed(client);
  });

  it.each<Era>(['modern', 'legacy'])('serves app resources and linked tools over stdio (%s)', async (era) => {
    const client = newClient(era);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'test/fixtures/app-resources-stdio-server.ts', dashboardPath],
        stderr: 'pipe',
      }),
    );
    cleanups.push(() => client.close());
    await expectAppsServed(client);
  });

  it('reaches MCPClient: resources.list/read and the link on listTools()', async () => {
    const { http } = await serve(appServerConfig(dashboardPath));
    const mcp = new MCPClient({
      id: 'apps-client',
      registerProcessHooks: false,
      servers: { app: { url: http.mcpUrl } },
    });
    cleanups.push(() => mcp.disconnect());

    const listed = await mcp.resources.list();
    expect(listed.app?.map((resource) => [resource.uri, resource.mimeType])).toEqual([
      [CALCULATOR_URI, RESOURCE_MIME_TYPE],
      [DASHBOARD_URI, RESOURCE_MIME_TYPE],
    ]);
    const read = await mcp.resources.read('app', CALCULATOR_URI);
    expect(read.contents[0]).toMatchObject({
      text: CALCULATOR_HTML,
      _meta: { ui: { csp: calculatorMeta.csp } },
    });

    const tools = await mcp.listTools();
    expect(tools.app_calculatorWithUI?.mcp?._meta).toMatchObject({ ui: { resourceUri: CALCULATOR_URI } });
    expect(tools.app_showDashboard?.mcp?._meta).toMatchObject({ ui: { resourceUri: DASHBOARD_URI } });
  });

  it('merges with the resources option: app resources win their URI, the rest is the callbacks', async () => {
    const getResourceContent = vi.fn(async ({ uri }: { uri: string }) => ({
      text: `user content of ${uri}`,
    }));
    const { server, http } = await serve(
      appServerConfig(dashboardPath, {
        resources: {
          listResources: async () => [
            { uri: 'file:///notes.txt', name: 'Notes', mimeType: 'text/plain' },
            { uri: CALCULATOR_URI, name: 'Shadowed calculator', mimeType: 'text/html' },
          ],
          getResourceContent,
          resourceTemplates: async () => [{ uriTemplate: 'file:///{name}', name: 'Files' }],
        },
      }),
    );
    const client = await connect(http.mcpUrl, 'modern');

    const { resources } = await client.listResources();
    expect(resources.map((resource) => [resource.uri, resource.name])).toEqual([
      [CALCULATOR_URI, 'Interactive Calculator'],
      [DASHBOARD_URI, 'Dashboard'],
      ['file:///notes.txt', 'Notes'],
    ]);
    expect((await client.readResource({ uri: CALCULATOR_URI })).contents[0]).toMatchObject({
      text: CALCULATOR_HTML,
    });
    expect((await client.readResource({ uri: 'file:///notes.txt' })).contents).toEqual([
      { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'user content of file:///notes.txt' },
    ]);
    expect(getResourceContent.mock.calls.map(([request]) => request.uri)).toEqual(['file:///notes.txt']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'file:///{name}', name: 'Files' },
    ]);

    // The MCPServerBase methods Mastra Studio calls see the same merge.
    const direct = await server.listResources();
    expect(direct.resources.map((resource) => resource.uri)).toEqual([
      CALCULATOR_URI,
      DASHBOARD_URI,
      'file:///notes.txt',
    ]);
    expect((await server.readResource(DASHBOARD_URI)).contents).toEqual([
      { uri: DASHBOARD_URI, mimeType: RESOURCE_MIME_TYPE, text: DASHBOARD_HTML },
    ]);
  });

  it('advertises resources for appResources alone, and refuses other URIs naming them', async () => {
    const { server, http } = await serve({
      id: 'only-apps',
      name: 'Only apps',
      version: '1.0.0',
      tools: {},
      appResources: { [CALCULATOR_URI]: { name: 'Calculator', html: CALCULATOR_HTML } },
    });
    const client = await connect(http.mcpUrl, 'legacy');
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      CALCULATOR_URI,
    ]);
    await expect(client.readResource({ uri: 'ui://unknown/app' })).rejects.toThrow(/ui:\/\/unknown\/app/);
    await expect(server.readResource('ui://unknown/app')).rejects.toThrow(/ui:\/\/unknown\/app/);

    const plain = new MCPServer({ id: 'plain', name: 'Plain', version: '1.0.0', tools: {} });
    cleanups.push(() => plain.close());
    const plainHttp = await serveHttp(plain);
    cleanups.push(() => plainHttp.close());
    const plainClient = await connect(plainHttp.mcpUrl, 'modern');
    expect(plainClient.getServerCapabilities()?.resources).toBeUndefined();
    expect(plainClient.getServerCapabilities()?.extensions?.[EXTENSION_ID]).toBeUndefined();
  });

  it('advertises the MCP Apps extension beside the events extension', async () => {
    const { http } = await serve(
      appServerConfig(dashboardPath, { events: { types: { 'calc.done': { description: 'A result' } } } }),
    );
    const client = await connect(http.mcpUrl, 'modern');
    expect(client.getServerCapabilities()?.extensions).toEqual({
      [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] },
      [EVENTS_EXTENSION_ID]: {},
    });
  });

  it('normalises links of tools added at runtime and warns about links to UI resources it does not serve', async () => {
    const warn = vi.spyOn(ConsoleLogger.prototype, 'warn');
    try {
      const { server, http } = await serve(
        appServerConfig(dashboardPath, {
          tools: {
            orphan: createTool({
              id: 'orphan',
              description: 'Links a UI nobody serves',
              mcp: { _meta: { ui: { resourceUri: 'ui://missing/at-start' } } },
              execute: async () => 'orphan',
            }),
          },
        }),
      );
      await server.toolActions.add({
        lateDashboard: createTool({
          id: 'lateDashboard',
          description: 'Added later with the flat key',
          mcp: { _meta: { [RESOURCE_URI_META_KEY]: DASHBOARD_URI } },
          execute: async () => 'late',
        }),
        lateOrphan: createTool({
          id: 'lateOrphan',
          description: 'Added later, linked to nothing served',
          mcp: { _meta: { [RESOURCE_URI_META_KEY]: 'ui://missing/later' } },
          execute: async () => 'late orphan',
        }),
      });
      const warnings = warn.mock.calls
        .map((call) => String(call[0]))
        .filter((message) => message.includes('ui://'));
      expect(warnings).toEqual([
        expect.stringMatching(
          /tool 'orphan' links UI resource 'ui:\/\/missing\/at-start', which is not in appResources/,
        ),
        expect.stringMatching(
          /tool 'lateOrphan' links UI resource 'ui:\/\/missing\/later', which is not in appResources/,
        ),
      ]);

      const client = await connect(http.mcpUrl, 'modern');
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'lateDashboard')?._meta).toEqual({
        ui: { resourceUri: DASHBOARD_URI },
        [RESOURCE_URI_META_KEY]: DASHBOARD_URI,
      });
      expect(server.getToolInfo('orphan')?._meta).toEqual({
        ui: { resourceUri: 'ui://missing/at-start' },
        [RESOURCE_URI_META_KEY]: 'ui://missing/at-start',
      });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('appResources configuration errors', () => {
  const build =
    (appResources: MCPServerConfig['appResources'], tools: MCPServerConfig['tools'] = {}) =>
    () =>
      new MCPServer({ id: 'bad-apps', name: 'Bad apps', version: '1.0.0', tools, appResources });

  it('rejects a key that is not a ui:// URI, naming it', () => {
    expect(build({ 'https://example.com/app': { name: 'App', html: '<p>x</p>' } })).toThrow(
      "MCP server 'bad-apps': app resource 'https://example.com/app' is not a ui:// URI",
    );
  });

  it('needs exactly one of html and htmlPath, naming the URI', () => {
    expect(build({ 'ui://both/app': { name: 'App', html: '<p>x</p>', htmlPath: dashboardPath } })).toThrow(
      "app resource 'ui://both/app' sets both html and htmlPath",
    );
    expect(build({ 'ui://neither/app': { name: 'App' } })).toThrow(
      "app resource 'ui://neither/app' needs html (inline HTML) or htmlPath (a file)",
    );
  });

  it('needs a name', () => {
    expect(build({ 'ui://nameless/app': { name: ' ', html: '<p>x</p>' } })).toThrow(
      "app resource 'ui://nameless/app' needs a name",
    );
  });

  it('fails at construction when htmlPath cannot be read, naming the URI and the resolved path', () => {
    const missing = join(dir, 'missing.html');
    let thrown: unknown;
    try {
      build({ 'ui://missing/file': { name: 'Missing', htmlPath: missing } })();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      id: 'MCP_SERVER_APP_RESOURCE_INVALID',
      message: expect.stringContaining(
        `app resource 'ui://missing/file' htmlPath '${missing}' could not be read`,
      ),
      details: { uri: 'ui://missing/file', htmlPath: missing },
    });
  });

  it('rejects a tool whose two link forms name different UI resources, naming the tool', () => {
    const conflicting = createTool({
      id: 'conflicting',
      description: 'Two different links',
      mcp: { _meta: { ui: { resourceUri: CALCULATOR_URI }, [RESOURCE_URI_META_KEY]: DASHBOARD_URI } },
      execute: async () => 'x',
    });
    expect(build({}, { conflicting })).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.SERVER_INVALID_TOOL,
        message: expect.stringContaining(
          `Tool 'conflicting': _meta.ui.resourceUri ('${CALCULATOR_URI}') and _meta['ui/resourceUri'] ('${DASHBOARD_URI}') name different UI resources`,
        ),
      }),
    );
  });
});
