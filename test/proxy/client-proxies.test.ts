/**
 * `MCPClient.toMCPServerProxies()`: external servers registered on a Mastra instance as
 * MCPServerBase proxies. Upstreams are real: an MCP Apps server on the SDK's own McpServer (HTTP,
 * in this process), the published server-everything and the plain-SDK server (stdio children).
 * Through the instance: identity, live tool lists with `_meta`, tool calls, `ui://` resources,
 * prompts, an Agent (mock model) using proxy and local MCPServer tools, list changes; through the
 * proxy's gateway: any MCP client over Streamable HTTP (both eras) and stdio.
 */
import { Agent } from '@mastra/core/agent';
import { MastraFGAPermissions } from '@mastra/core/auth/ee';
import { MastraError } from '@mastra/core/error';
import { Mastra } from '@mastra/core/mastra';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { ProtocolError, ProtocolErrorCode, SERVER_INFO_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallingModel, toolCallsModel } from '../../examples/mock-model.js';
import { MCPClient, MCPClientServerProxy, MCPServer } from '../../src/index.js';
import { everythingEntry, pidRecorder, reap, survivors } from '../fixtures/client-harness.js';
import {
  APP_CONTENT_META,
  APP_HTML,
  APP_RESOURCE_META,
  APP_URI,
  APPS_EXTENSION,
  APPS_SERVER_INFO,
  type ExternalAppsServer,
  serveExternalApps,
} from '../fixtures/external-apps-server.js';
import { RuleFGA } from '../fixtures/rule-fga.js';
import { connectHttp, type Era, newClient, serveReplaceable } from '../helpers.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let apps: ExternalAppsServer;
beforeAll(async () => {
  apps = await serveExternalApps();
});
afterAll(() => apps.close());

const children = pidRecorder();
afterAll(async () => {
  // Every stdio child a client started is gone once its client disconnected.
  const alive = await survivors(children.pids, 5000);
  reap(alive);
  expect(alive).toEqual([]);
});

function everything() {
  return { command: process.execPath, args: [everythingEntry(), 'stdio'], logger: children.logger };
}

let nextId = 0;
function client(servers: ConstructorParameters<typeof MCPClient>[0]['servers']): MCPClient {
  const mcp = new MCPClient({
    id: `proxies-${++nextId}`,
    registerProcessHooks: false,
    timeout: 20_000,
    servers,
  });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

function localServer(): MCPServer {
  const server = new MCPServer({
    name: 'Local',
    version: '1.0.0',
    tools: {
      greet: createTool({
        id: 'greet',
        description: 'Greets someone.',
        inputSchema: z.object({ name: z.string() }),
        execute: async ({ name }) => ({ greeting: `Hello, ${name}` }),
      }),
    },
  });
  cleanups.push(() => server.close());
  return server;
}

async function proxiedMastra(agents: Record<string, Agent> = {}) {
  const mcp = client({ 'color-mixer': { url: apps.url }, everything: everything() });
  const proxies = await mcp.toMCPServerProxies();
  const mastra = new Mastra({ mcpServers: { ...proxies, local: localServer() }, agents, logger: false });
  return { mcp, proxies, mastra };
}

function proxyOf(mastra: Mastra, id: string): MCPClientServerProxy {
  const server = mastra.getMCPServerById(id);
  if (!(server instanceof MCPClientServerProxy)) throw new Error(`no proxy '${id}' on the instance`);
  return server;
}

describe('toMCPServerProxies() on a Mastra instance', () => {
  it('registers each configured server under its name with its identity, tools, resources and prompts', async () => {
    const { proxies, mastra } = await proxiedMastra();
    expect(Object.keys(proxies).sort()).toEqual(['color-mixer', 'everything']);

    const mixer = proxyOf(mastra, 'color-mixer');
    expect(mixer).toBe(proxies['color-mixer']);
    expect(mixer.mcpVersion).toBe(2);
    expect(mixer.getServerInfo()).toMatchObject({
      id: 'color-mixer',
      name: APPS_SERVER_INFO.name,
      version_detail: { version: APPS_SERVER_INFO.version, is_latest: true },
    });
    expect(mixer.instructions).toBe('Mixes colours; shows a mixer app.');

    // Tools with their MCP Apps link.
    // Other tests add tools to the shared upstream; 'mix' is the one it starts with.
    const { tools } = await mixer.getToolListInfo();
    expect(tools.filter((tool) => tool.name === 'mix')).toEqual([
      {
        name: 'mix',
        description: 'Mixes two colours.',
        inputSchema: expect.objectContaining({ required: ['a', 'b'] }),
        outputSchema: expect.objectContaining({ properties: { color: { type: 'string' } } }),
        _meta: expect.objectContaining({ ui: { resourceUri: APP_URI } }),
      },
    ]);
    expect((await mixer.getToolInfo('mix'))?._meta).toMatchObject({ ui: { resourceUri: APP_URI } });
    expect(await mixer.getToolInfo('missing')).toBeUndefined();
    expect(Object.keys(mixer.tools())).toEqual(tools.map((tool) => tool.name));
    expect(mixer.tools().mix?.mcp?._meta).toMatchObject({ ui: { resourceUri: APP_URI } });

    expect(await mixer.executeTool('mix', { a: 'red', b: 'blue' })).toEqual({
      status: 'completed',
      output: { color: 'red-blue' },
    });

    // The ui:// app resource reaches the instance with its MIME type and metadata.
    expect((await mixer.listResources()).resources).toEqual([
      expect.objectContaining({ uri: APP_URI, mimeType: RESOURCE_MIME_TYPE, _meta: APP_RESOURCE_META }),
    ]);
    expect((await mixer.readResource(APP_URI)).contents).toEqual([
      { uri: APP_URI, mimeType: RESOURCE_MIME_TYPE, text: APP_HTML, _meta: APP_CONTENT_META },
    ]);
    expect((await mixer.listPrompts()).prompts).toEqual([expect.objectContaining({ name: 'palette' })]);
    expect((await mixer.getPrompt({ name: 'palette', args: { mood: 'calm' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'A calm palette, please.' } },
    ]);

    // A published 2025-era server behind the same client.
    const everythingProxy = proxyOf(mastra, 'everything');
    expect(everythingProxy.name).toBe('mcp-servers/everything');
    const echoed = await everythingProxy.executeTool('echo', { message: 'hi' });
    expect(echoed.status === 'completed' && textOf(echoed.output as { content?: unknown })).toBe('Echo: hi');
    expect((await everythingProxy.listResources()).resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: expect.stringMatching(/^demo:\/\/resource\/static\/document\//) }),
      ]),
    );
    expect((await everythingProxy.listPrompts()).prompts.map((prompt) => prompt.name)).toContain(
      'simple-prompt',
    );
  }, 60_000);

  it('lets an Agent on the instance use tools from a proxy and from a local MCPServer', async () => {
    const answers: unknown[] = [];
    const agent = new Agent({
      id: 'mixer-agent',
      name: 'Mixer Agent',
      instructions: 'Use the tools.',
      model: toolCallsModel(
        [
          { toolName: 'mix', input: { a: 'red', b: 'white' } },
          { toolName: 'greet', input: { name: 'Ada' } },
        ],
        {
          answer: (parts) => {
            answers.push(...parts.map((part) => part?.output?.value));
            return 'done';
          },
        },
      ),
      // Resolved per run from the servers registered on the instance the agent belongs to.
      tools: ({ mastra }) => ({
        ...mastra?.getMCPServerById('color-mixer')?.tools(),
        ...mastra?.getMCPServerById('local')?.tools(),
      }),
    });
    const { mastra } = await proxiedMastra({ mixer: agent });
    const result = await mastra.getAgent('mixer').generate('mix red and white, then greet Ada');
    expect(result.text).toBe('done');
    expect(answers).toEqual([{ color: 'red-white' }, { greeting: 'Hello, Ada' }]);
  }, 60_000);

  it("keeps the server's requireToolApproval: an Agent stops before running a proxy tool", async () => {
    const mcp = client({ 'color-mixer': { url: apps.url, requireToolApproval: true } });
    const prompts: unknown[] = [];
    const agent = new Agent({
      id: 'guarded-agent',
      name: 'Guarded Agent',
      instructions: 'Use the tools.',
      model: toolCallingModel('mix', { a: 'red', b: 'blue' }, { onPrompt: (prompt) => prompts.push(prompt) }),
      tools: ({ mastra }) => ({ ...mastra?.getMCPServerById('color-mixer')?.tools() }),
    });
    const mastra = new Mastra({
      mcpServers: await mcp.toMCPServerProxies(),
      agents: { guarded: agent },
      logger: false,
    });
    const result = await mastra.getAgent('guarded').generate('mix red and blue');
    // Suspended for approval: the model was asked once and the tool never ran.
    expect(result.finishReason).toBe('suspended');
    expect(prompts).toHaveLength(1);
  }, 30_000);

  it('follows the remote tool list: a tool added upstream is listed, in tools() and callable', async () => {
    const mcp = client({ 'color-mixer': { url: apps.url } });
    const mastra = new Mastra({ mcpServers: await mcp.toMCPServerProxies(), logger: false });
    const mixer = proxyOf(mastra, 'color-mixer');
    const name = `shade_${nextId}`;
    apps.addTool(name);
    // The list_changed notification alone updates tools(), without asking.
    await eventually('the added tool in tools()', () => mixer.tools()[name]);
    expect((await mixer.getToolListInfo()).tools.map((tool) => tool.name)).toContain(name);
    const ran = await mixer.executeTool(name, {});
    expect(ran.status === 'completed' && textOf(ran.output as { content?: unknown })).toBe(`${name} ran`);
  }, 30_000);

  it("applies the Mastra instance's FGA provider to executeTool() and to the gateway", async () => {
    const fga = new RuleFGA((user) => user.id === 'ada');
    const mcp = client({ 'color-mixer': { url: apps.url } });
    const mastra = new Mastra({ mcpServers: await mcp.toMCPServerProxies(), logger: false, server: { fga } });
    const mixer = proxyOf(mastra, 'color-mixer');
    const as = (id: string) => {
      const requestContext = new RequestContext();
      requestContext.set('user', { id });
      return { requestContext };
    };
    expect(await mixer.executeTool('mix', { a: 'red', b: 'blue' }, as('ada'))).toMatchObject({
      status: 'completed',
    });
    expect(fga.checks.at(-1)?.params).toMatchObject({
      resource: { type: 'tool', id: JSON.stringify(['color-mixer', 'mix']) },
      permission: MastraFGAPermissions.TOOLS_EXECUTE,
    });
    await expect(mixer.executeTool('mix', { a: 'red', b: 'blue' }, as('eve'))).rejects.toMatchObject({
      name: 'FGADeniedError',
    });

    // A gateway caller without a user sees no tools and may call none (core fails closed).
    const http = await serveReplaceable(() => mixer as unknown as MCPServer);
    cleanups.push(
      () => http.close(),
      () => mixer.close(),
    );
    const sdk = await connectHttp(http.mcpUrl, 'modern');
    cleanups.push(() => sdk.close());
    expect((await sdk.listTools()).tools).toEqual([]);
    const refused = await sdk.callTool({ name: 'mix', arguments: { a: 'red', b: 'blue' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Tool 'mix' is not permitted for this caller/);
  }, 30_000);

  it('names the proxy and the tool when a tool is unknown or its arguments are wrong', async () => {
    const mcp = client({ 'color-mixer': { url: apps.url } });
    const { 'color-mixer': mixer } = await mcp.toMCPServerProxies();
    const unknown = await mixer?.executeTool('paint', {}).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(MastraError);
    expect(unknown).toMatchObject({ id: 'MCP_CLIENT_PROXY_TOOL_NOT_FOUND' });
    expect((unknown as Error).message).toMatch(
      /Tool 'paint' not found on MCP server proxy 'color-mixer'.*'mix'/,
    );

    const invalid = await mixer?.executeTool('mix', { a: 1 }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ id: 'MCP_CLIENT_PROXY_INVALID_TOOL_INPUT' });
    expect((invalid as Error).message).toMatch(/MCP server proxy 'color-mixer'.*tool 'mix'/);
  }, 30_000);

  it('rejects with every server that cannot be proxied named, and hands out no partial map', async () => {
    const closed = await serveExternalApps();
    await closed.close();
    const mcp = client({
      'color-mixer': { url: apps.url },
      missing: { command: '/nonexistent/mcp-server' },
      gone: { url: closed.url },
    });
    const failure = await mcp.toMCPServerProxies().catch((error: unknown) => error);
    expect(failure).toMatchObject({
      id: 'MCP_CLIENT_SERVER_PROXY_FAILED',
      details: { servers: expect.stringMatching(/^(missing, gone|gone, missing)$/) },
    });
    const message = (failure as Error).message;
    expect(message).toMatch(/2 of 3 MCP servers could not be proxied/);
    expect(message).toMatch(/MCP server 'missing'/);
    expect(message).toMatch(/MCP server 'gone'/);
    expect(message).not.toMatch(/'color-mixer'/);
  }, 30_000);
});

describe("a proxy's gateway (startHTTP, startStdio)", () => {
  async function gateway(era: Era) {
    const { mastra } = await proxiedMastra();
    const mixer = proxyOf(mastra, 'color-mixer');
    const everythingProxy = proxyOf(mastra, 'everything');
    const mixerHttp = await serveReplaceable(() => mixer as unknown as MCPServer);
    const everythingHttp = await serveReplaceable(() => everythingProxy as unknown as MCPServer);
    cleanups.push(
      () => mixerHttp.close(),
      () => everythingHttp.close(),
      () => mixer.close(),
      () => everythingProxy.close(),
    );
    const connect = async (url: URL) => {
      const sdk = await connectHttp(url, era, newClient(era));
      cleanups.push(() => sdk.close());
      return sdk;
    };
    return { mixer: await connect(mixerHttp.mcpUrl), everything: await connect(everythingHttp.mcpUrl) };
  }

  it.each(['modern', 'legacy'] as const)(
    'serves the proxied servers to a %s SDK client: tools, ui:// resources, prompts, errors',
    async (era) => {
      const { mixer, everything: everythingClient } = await gateway(era);
      expect(mixer.getServerVersion()).toMatchObject(APPS_SERVER_INFO);
      // The MCP Apps extension is forwarded (it is metadata only); nothing the gateway cannot serve is.
      expect(mixer.getServerCapabilities()).toEqual({
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
        extensions: { [EXTENSION_ID]: APPS_EXTENSION },
      });

      const { tools } = await mixer.listTools();
      expect(tools.find((tool) => tool.name === 'mix')?._meta).toMatchObject({
        ui: { resourceUri: APP_URI },
      });
      const mixed = await mixer.callTool({ name: 'mix', arguments: { a: 'red', b: 'blue' } });
      expect(mixed.structuredContent).toEqual({ color: 'red-blue' });
      expect(textOf(mixed)).toBe('red and blue make red-blue');
      // The upstream's response envelope stays behind: a 2025 answer carries no server identity.
      const identity = mixed._meta?.[SERVER_INFO_META_KEY];
      if (era === 'legacy') expect(identity).toBeUndefined();
      else expect(identity).toEqual(APPS_SERVER_INFO);

      expect((await mixer.listResources()).resources).toEqual([
        expect.objectContaining({ uri: APP_URI, mimeType: RESOURCE_MIME_TYPE, _meta: APP_RESOURCE_META }),
      ]);
      expect((await mixer.readResource({ uri: APP_URI })).contents).toEqual([
        { uri: APP_URI, mimeType: RESOURCE_MIME_TYPE, text: APP_HTML, _meta: APP_CONTENT_META },
      ]);
      const prompt = await mixer.getPrompt({ name: 'palette', arguments: { mood: 'warm' } });
      expect(prompt.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'A warm palette, please.' } },
      ]);

      // Upstream JSON-RPC errors keep their code, with the proxied server named.
      const unknownTool = await mixer.callTool({ name: 'paint', arguments: {} }).catch((e: unknown) => e);
      expect(unknownTool).toBeInstanceOf(ProtocolError);
      expect(unknownTool).toMatchObject({ code: ProtocolErrorCode.InvalidParams });
      expect((unknownTool as Error).message).toMatch(
        /MCP server 'color-mixer' \(proxied\): calling tool 'paint' failed: .*Tool paint not found/,
      );
      const missing = await mixer
        .readResource({ uri: 'ui://color-mixer/missing.html' })
        .catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(ProtocolError);
      expect((missing as Error).message).toMatch(/MCP server 'color-mixer' \(proxied\): reading resource/);

      // server-everything speaks 2025 only; the gateway serves it in either era.
      const echoed = await everythingClient.callTool({ name: 'echo', arguments: { message: `via ${era}` } });
      expect(textOf(echoed)).toBe(`Echo: via ${era}`);
    },
    60_000,
  );

  it('forwards a list change upstream to a client of the gateway', async () => {
    const { mixer } = await gateway('legacy');
    let changed = 0;
    mixer.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    const name = `tint_${nextId}`;
    apps.addTool(name);
    await eventually('tools/list_changed through the gateway', () => changed > 0);
    expect((await mixer.listTools()).tools.map((tool) => tool.name)).toContain(name);
  }, 60_000);

  it.each(['modern', 'legacy'] as const)(
    'serves a proxy on stdio to a %s client; the gateway and its upstream child end when the client leaves',
    async (era) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'test/fixtures/proxy-stdio-gateway.ts'],
        stderr: 'pipe',
      });
      const pids = new Set<number>();
      transport.stderr?.on('data', (chunk: Buffer) => {
        for (const match of chunk.toString().matchAll(/pid=(\d+)/g)) pids.add(Number(match[1]));
      });
      cleanups.push(async () => reap(pids));
      const sdk = newClient(era);
      await sdk.connect(transport);
      expect(textOf(await sdk.callTool({ name: 'echo', arguments: { text: era } }))).toBe(`echo: ${era}`);
      expect((await sdk.readResource({ uri: 'sdk://greeting' })).contents).toEqual([
        { uri: 'sdk://greeting', mimeType: 'text/plain', text: 'hello from the SDK' },
      ]);
      await sdk.close();
      // The gateway and the server it proxies (its child) both end once the gateway's stdin closes.
      expect(pids.size).toBe(2);
      expect(await survivors(pids, 15_000)).toEqual([]);
    },
    60_000,
  );
});
