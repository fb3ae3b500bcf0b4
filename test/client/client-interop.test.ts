/**
 * MCPClient against servers it did not come with: the SDK's own `McpServer` (Streamable HTTP via
 * `createMcpHandler` + `toNodeHandler`, and stdio via `serveStdio`) and the published
 * `@modelcontextprotocol/server-everything` over stdio. Real transports only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MastraMCPServerDefinition, MCPClient } from '../../src/index.js';
import {
  clientsDisconnectedAfterEach,
  everythingEntry,
  type HttpEndpoint,
  pidRecorder,
  run,
  sdkStdio,
  serveSdkHttp,
} from '../fixtures/client-harness.js';
import { SDK_SERVER_INFO } from '../fixtures/sdk-mcp-server.js';
import { textOf } from '../support/results.js';

const MODERN = '2026-07-28';
const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

// Not an assertion here (client-faults.test.ts checks leaks): just never leave children behind.
const { clients, children } = clientsDisconnectedAfterEach(3000);
let nextId = 0;

function client(servers: Record<string, MastraMCPServerDefinition>): MCPClient {
  const mcp = new MCPClient({
    id: `interop-${process.pid}-${++nextId}`,
    registerProcessHooks: false,
    // Generous: stdio fixtures start through tsx, and the test machine may be busy.
    timeout: 20_000,
    servers,
  });
  clients.push(mcp);
  return mcp;
}

describe('MCPClient against the SDK McpServer', () => {
  let sdkHttp: HttpEndpoint;
  beforeAll(async () => {
    sdkHttp = await serveSdkHttp();
  });
  afterAll(async () => {
    await sdkHttp.close();
  });

  const cases = [
    { transport: 'http', protocolVersion: MODERN },
    { transport: 'http', protocolVersion: 'legacy' },
    { transport: 'http', protocolVersion: undefined },
    { transport: 'stdio', protocolVersion: MODERN },
    { transport: 'stdio', protocolVersion: 'legacy' },
  ] as const;

  it.each(cases)(
    'over $transport with protocolVersion $protocolVersion',
    async ({ transport, protocolVersion }) => {
      const recorder = pidRecorder(children);
      const versionsBefore = sdkHttp.protocolVersions.length;
      const definition: MastraMCPServerDefinition =
        transport === 'http'
          ? { url: sdkHttp.url, logger: recorder.logger }
          : sdkStdio({ logger: recorder.logger });
      if (protocolVersion) definition.protocolVersion = protocolVersion;
      const mcp = client({ sdk: definition });

      const { tools, errors, errorDetails } = await mcp.listToolsWithErrors();
      expect(errors).toEqual({});
      expect(errorDetails).toEqual({});
      expect(Object.keys(tools).sort()).toEqual(
        ['sdk_echo', 'sdk_huge', 'sdk_pid', 'sdk_sleep', 'sdk_weather'].sort(),
      );
      expect(Object.keys(await mcp.listTools()).sort()).toEqual(Object.keys(tools).sort());
      expect(Object.keys((await mcp.listToolsets()).sdk ?? {}).sort()).toEqual([
        'echo',
        'huge',
        'pid',
        'sleep',
        'weather',
      ]);
      expect(tools.sdk_weather?.description).toBe('Structured weather for a city.');
      expect(tools.sdk_weather?.outputSchema).toBeDefined();
      expect(mcp.getServerInfo()).toEqual({ sdk: SDK_SERVER_INFO });
      expect(mcp.getServerInstructions()).toEqual({
        sdk: 'Plain SDK server used by the MCPClient interop tests.',
      });

      // No structured content: the CallToolResult itself.
      const echoed = await run(tools.sdk_echo, { text: 'hi' });
      expect(textOf(echoed)).toBe('echo: hi');
      // The era actually spoken: 2026-07-28 results carry the server identity in _meta, legacy ones do not.
      const echoMeta = (echoed as { _meta?: Record<string, unknown> })._meta;
      if (protocolVersion === 'legacy') expect(echoMeta?.[SERVER_INFO_META]).toBeUndefined();
      else expect(echoMeta?.[SERVER_INFO_META]).toEqual(SDK_SERVER_INFO);

      // Structured output: the value itself, with content and _meta non-enumerable.
      const weather = (await run(tools.sdk_weather, { city: 'Paris' })) as Record<string, unknown>;
      expect(weather).toEqual({ city: 'Paris', tempC: 5, tags: ['sdk', 'structured'] });
      expect(Object.keys(weather)).toEqual(['city', 'tempC', 'tags']);
      expect(JSON.parse(JSON.stringify(weather))).toEqual({
        city: 'Paris',
        tempC: 5,
        tags: ['sdk', 'structured'],
      });
      expect(Object.getOwnPropertyDescriptor(weather, 'content')?.enumerable).toBe(false);
      expect(weather.content).toEqual([
        { type: 'text', text: JSON.stringify({ city: 'Paris', tempC: 5, tags: ['sdk', 'structured'] }) },
      ]);
      expect(Object.getOwnPropertyDescriptor(weather, '_meta')?.enumerable).toBe(false);
      expect((weather._meta as Record<string, unknown>).source).toBe('sdk-weather');

      // Arguments are validated client-side against the server's JSON Schema: the tool rejects
      // with a MastraError naming the field instead of calling the server.
      await expect(run(tools.sdk_weather, { city: 42 })).rejects.toMatchObject({
        id: 'MCP_CLIENT_INVALID_TOOL_ARGUMENTS',
        message: expect.stringContaining('city: expected string, got number'),
      });

      // Resources.
      const resources = await mcp.resources.list();
      expect(resources.sdk).toEqual([
        expect.objectContaining({
          uri: 'sdk://greeting',
          name: 'greeting',
          title: 'Greeting',
          mimeType: 'text/plain',
        }),
      ]);
      const read = await mcp.resources.read('sdk', 'sdk://greeting');
      expect(read.contents).toEqual([
        { uri: 'sdk://greeting', mimeType: 'text/plain', text: 'hello from the SDK' },
      ]);
      await expect(mcp.resources.read('sdk', 'sdk://missing')).rejects.toThrow(/sdk/);

      // Prompts.
      const prompts = await mcp.prompts.list();
      expect(prompts.sdk).toEqual([
        expect.objectContaining({ name: 'greet', arguments: [expect.objectContaining({ name: 'name' })] }),
      ]);
      const prompt = await mcp.prompts.get({ serverName: 'sdk', name: 'greet', args: { name: 'Ada' } });
      expect(prompt.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } },
      ]);
      expect(prompt.prompt.name).toBe('greet');

      // Over HTTP the wire shows the revision in every request after the handshake.
      if (transport === 'http') {
        const seen = new Set(sdkHttp.protocolVersions.slice(versionsBefore));
        expect(seen).toEqual(new Set([protocolVersion === 'legacy' ? '2025-11-25' : MODERN]));
      }
    },
  );
});

describe('MCPClient against @modelcontextprotocol/server-everything (stdio)', () => {
  const everything = (protocolVersion?: '2026-07-28' | 'legacy', logger = pidRecorder().logger) => ({
    command: process.execPath,
    args: [everythingEntry(), 'stdio'],
    logger,
    ...(protocolVersion ? { protocolVersion } : {}),
  });

  // server-everything is built on the 1.x SDK: it has no `server/discover` (it answers -32601), so
  // it speaks only the pre-2026 revisions. Probing (no protocolVersion) falls back to `initialize`,
  // and 'legacy' skips the probe; a pin to 2026-07-28 cannot work and must fail clearly.
  it.each([undefined, 'legacy'] as const)('works with protocolVersion %s', async (protocolVersion) => {
    const mcp = client({ everything: everything(protocolVersion) });

    const { tools, errors } = await mcp.listToolsWithErrors();
    expect(errors).toEqual({});
    expect(Object.keys(tools)).toEqual(
      expect.arrayContaining([
        'everything_echo',
        'everything_get-sum',
        'everything_get-structured-content',
        'everything_get-tiny-image',
      ]),
    );
    expect(mcp.getServerInfo().everything?.name).toBe('mcp-servers/everything');
    expect(mcp.getServerInstructions().everything).toMatch(/Everything Server/);

    expect(textOf(await run(tools.everything_echo, { message: 'hello there' }))).toBe('Echo: hello there');
    expect(textOf(await run(tools['everything_get-sum'], { a: 2, b: 40 }))).toBe(
      'The sum of 2 and 40 is 42.',
    );

    // Its outputSchema is draft-07 (`$schema` included); the result is the structured value.
    const weather = (await run(tools['everything_get-structured-content'], {
      location: 'Chicago',
    })) as Record<string, unknown>;
    expect(weather).toEqual({
      temperature: expect.any(Number),
      conditions: expect.any(String),
      humidity: expect.any(Number),
    });
    expect(Object.keys(weather).sort()).toEqual(['conditions', 'humidity', 'temperature']);
    expect(Object.getOwnPropertyDescriptor(weather, 'content')?.enumerable).toBe(false);
    expect(Array.isArray(weather.content)).toBe(true);

    // The enum of its draft-07 input schema is enforced client-side, the allowed values named.
    await expect(
      run(tools['everything_get-structured-content'], { location: 'Atlantis' }),
    ).rejects.toMatchObject({
      id: 'MCP_CLIENT_INVALID_TOOL_ARGUMENTS',
      message: expect.stringMatching(/location: expected one of "New York", .*, got "Atlantis"/),
    });

    const image = await run(tools['everything_get-tiny-image'], {});
    expect((image as { content: Array<{ type: string }> }).content.map((block) => block.type)).toContain(
      'image',
    );

    const resources = await mcp.resources.list();
    const uris = (resources.everything ?? []).map((resource) => resource.uri);
    expect(uris).toContain('demo://resource/static/document/architecture.md');
    const read = await mcp.resources.read('everything', 'demo://resource/static/document/architecture.md');
    expect(read.contents[0]).toMatchObject({
      uri: 'demo://resource/static/document/architecture.md',
      mimeType: 'text/markdown',
    });
    expect((read.contents[0] as { text: string }).text).toMatch(/Architecture/);

    const prompts = await mcp.prompts.list();
    expect((prompts.everything ?? []).map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt']),
    );
    const simple = await mcp.prompts.get({ serverName: 'everything', name: 'simple-prompt' });
    expect(simple.messages.length).toBeGreaterThan(0);
    const withArgs = await mcp.prompts.get({
      serverName: 'everything',
      name: 'args-prompt',
      args: { city: 'Lisbon' },
    });
    expect(withArgs.messages).toEqual([
      { role: 'user', content: { type: 'text', text: expect.stringContaining('Lisbon') } },
    ]);
  });

  it('a pin to 2026-07-28 fails with an error naming the server and the revision', async () => {
    const mcp = client({ everything: everything(MODERN) });
    const { tools, errors, errorDetails } = await mcp.listToolsWithErrors();
    expect(tools).toEqual({});
    expect(errors.everything).toMatch(/'everything'/);
    expect(errors.everything).toMatch(/2026-07-28/);
    expect(errorDetails.everything?.message).toBe(errors.everything);
  });
});
