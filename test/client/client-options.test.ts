/**
 * MCPClient's option checks: its options, every server definition (stdio and HTTP), `webhook`,
 * `events.subscribe()`'s options, MCPEventsSignalProvider's and the OAuth providers' refuse an
 * unknown key with its path and the nearest known key, and a value of the wrong type with its path
 * and the type expected, at construction (or at the call), before anything connects. Every option
 * of the v2 and v1 MCPClient references is still accepted: a client built with all of them lists
 * tools from a real server on 127.0.0.1.
 */
import type { MastraError } from '@mastra/core/error';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSimpleTokenProvider,
  InMemoryMCPEventCursorStore,
  InMemoryOAuthStorage,
  type MastraMCPServerDefinition,
  MCPClient,
  MCPErrorCode,
  MCPEventsSignalProvider,
  MCPOAuthClientProvider,
  MCPServer,
} from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';
import { rejectionOf, thrownBy as thrownByCall } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let nextId = 0;
function client(options: Record<string, unknown>): MCPClient {
  const mcp = new MCPClient({ id: `options-${++nextId}`, registerProcessHooks: false, ...options } as never);
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

const thrownBy = (call: () => unknown) => thrownByCall<MastraError>(call);

const weatherUrl = new URL('http://127.0.0.1:9/mcp');
const weather = (extra: Record<string, unknown>) => () =>
  client({ servers: { weather: { url: weatherUrl, ...extra } } });

describe('MCPClient options', () => {
  it('refuses `timout`, naming the server, the path and the option meant', () => {
    expect(thrownBy(weather({ timout: 5000 }))).toMatchObject({
      id: MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG,
      category: 'USER',
      message:
        "MCPClient: `servers.weather.timout` is not an option of server 'weather'; did you mean `timeout`?",
      details: { server: 'weather', field: 'servers.weather.timout' },
    });
  });

  it('refuses `requestInt` for `requestInit`', () => {
    expect(thrownBy(weather({ requestInt: { headers: {} } })).message).toBe(
      "MCPClient: `servers.weather.requestInt` is not an option of server 'weather'; did you mean `requestInit`?",
    );
  });

  it('refuses `server:` for `servers:` (it used to be a TypeError), and a missing `servers`', () => {
    expect(thrownBy(() => client({ server: { weather: { url: weatherUrl } } }))).toMatchObject({
      id: MCPErrorCode.CLIENT_INVALID_OPTION,
      message: 'MCPClient: `server` is not an option of MCPClient; did you mean `servers`?',
    });
    expect(thrownBy(() => client({})).message).toBe(
      'MCPClient: `servers` is required: an object of server definitions by name',
    );
    expect(thrownBy(() => new MCPClient(undefined as never)).message).toBe(
      'MCPClient: the MCPClient options must be an object, got undefined',
    );
  });

  it('refuses unknown keys nested in a server definition and in the client options', () => {
    expect(thrownBy(weather({ capabilities: { elicitation: { froms: {} } } })).message).toBe(
      'MCPClient: `servers.weather.capabilities.elicitation.froms` is not an option of `servers.weather.capabilities.elicitation`; did you mean `form`?',
    );
    expect(thrownBy(() => client({ servers: {}, clientInfo: { verison: '1' } })).message).toBe(
      'MCPClient: `clientInfo.verison` is not an option of `clientInfo`; did you mean `version`?',
    );
    expect(
      thrownBy(() => client({ servers: {}, webhook: { url: 'https://agent.example/hooks', ttl: 1000 } })),
    ).toMatchObject({
      id: MCPErrorCode.CLIENT_INVALID_WEBHOOK_CONFIG,
      message: 'MCPClient: `webhook.ttl` is not an option of `webhook`; did you mean `ttlMs`?',
    });
    expect(thrownBy(() => client({ servers: {}, typegen: { outfile: 'a.ts' } }))).toMatchObject({
      id: MCPErrorCode.CLIENT_INVALID_TYPEGEN_CONFIG,
      message: 'MCPClient: `typegen.outfile` is not an option of `typegen`; did you mean `outFile`?',
    });
  });

  it('names the path and the expected type of a wrong value, and the choice meant', () => {
    expect(thrownBy(weather({ timeout: '5000' })).message).toBe(
      'MCPClient: `servers.weather.timeout` must be a number, got a string',
    );
    expect(thrownBy(() => client({ servers: { weather: { url: 'http://127.0.0.1:9/mcp' } } })).message).toBe(
      "MCPClient: `servers.weather.url` must be a URL object (new URL('https://…')), got a string",
    );
    expect(thrownBy(weather({ onToolError: 'thorw' })).message).toBe(
      "MCPClient: `servers.weather.onToolError` must be 'throw' or 'return', got \"thorw\"; did you mean 'throw'?",
    );
    expect(
      thrownBy(() => client({ servers: { local: { command: 'node', args: '--version' } } })).message,
    ).toBe('MCPClient: `servers.local.args` must be an array (each a string), got a string');
    expect(thrownBy(() => client({ servers: { weather: null } })).message).toBe(
      'MCPClient: `servers.weather` must be a server definition (an object with `command` for stdio or `url` for HTTP), got null',
    );
  });

  it('says which kind of server an option of the other kind belongs to', () => {
    expect(thrownBy(weather({ env: { TOKEN: 'x' } })).message).toBe(
      'MCPClient: `servers.weather.env` is an option of stdio servers (with `command`); this server is an HTTP server (it has `url`)',
    );
    expect(thrownBy(() => client({ servers: { local: { command: 'node', requestInit: {} } } })).message).toBe(
      'MCPClient: `servers.local.requestInit` is an option of HTTP servers (with `url`); this server is a stdio server (it has `command`)',
    );
    expect(thrownBy(() => client({ servers: { both: { command: 'node', url: weatherUrl } } })).message).toBe(
      'MCPClient: `servers.both.url` cannot be set together with `command`: a server is either stdio (`command`) or HTTP (`url`)',
    );
    expect(thrownBy(() => client({ servers: { none: { comand: 'node' } } })).message).toBe(
      "MCPClient: `servers.none.comand` is not an option of server 'none'; did you mean `command`?",
    );
    expect(thrownBy(() => client({ servers: { none: { args: [] } } })).message).toBe(
      'MCPClient: `servers.none` needs `command` (a stdio server) or `url` (an HTTP server)',
    );
  });

  it('accepts undefined for an optional option, as a spread config carries it', () => {
    expect(weather({ timeout: undefined, requestInit: undefined })()).toBeInstanceOf(MCPClient);
  });

  it('accepts every option of the v2 and v1 references, and the client built from them works', async () => {
    const server = new MCPServer(fullConfig());
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const headers: string[] = [];
    const common = {
      logger: () => {},
      timeout: 30_000,
      clientInfo: { name: 'options-test', version: '1.0.0' },
      capabilities: { elicitation: { form: {} }, extensions: {} },
      inputRequests: () => ({ action: 'decline' as const }),
      enableServerLogs: true,
      serverLogLevel: 'info' as const,
      enableProgressTracking: false,
      traceContext: () => undefined,
      forwardInstructions: false,
      instructionsMaxLength: 512,
      requireToolApproval: false,
      onToolError: 'throw' as const,
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      maxPatternInstructions: 50_000,
      maxMessageBytes: 16 * 1024 * 1024,
    };
    const mcp = client({
      servers: {
        remote: {
          ...common,
          url: http.mcpUrl,
          protocolVersion: '2026-07-28',
          requestInit: { headers: { 'x-test': 'requestInit' } },
          eventSourceInit: { fetch: (url: string | URL, init?: RequestInit) => fetch(url, init) },
          fetch: (url: string | URL, init?: RequestInit) => {
            headers.push(new Headers(init?.headers).get('x-test') ?? '');
            return fetch(url, init);
          },
          allowedHosts: [http.mcpUrl.host],
          authProvider: createSimpleTokenProvider('token', {
            redirectUrl: 'http://127.0.0.1:3000/callback',
            clientMetadata: { redirect_uris: ['http://127.0.0.1:3000/callback'] },
            clientInformation: { client_id: 'options-test' },
          }),
        } satisfies MastraMCPServerDefinition,
        local: {
          ...common,
          command: process.execPath,
          args: ['--version'],
          env: { A: 'b' },
          inheritDefaultEnv: true,
          cwd: process.cwd(),
          protocolVersion: 'legacy',
        } satisfies MastraMCPServerDefinition,
      },
      timeout: 60_000,
      clientInfo: { name: 'app', version: '2.0.0' },
      typegen: { outFile: 'unused.generated.ts' },
      webhook: {
        url: 'https://agent.example/hooks',
        ttlMs: null,
        refreshMarginMs: 60_000,
        maxRememberedDeliveries: 100,
      },
    });
    const { toolsets, errors } = await mcp.listToolsetsWithErrors();
    expect(errors.remote).toBeUndefined();
    expect(Object.keys(toolsets.remote ?? {})).toContain('weatherTool');
    expect(headers).toContain('requestInit');
  });
});

describe('options of calls and of the events and OAuth helpers', () => {
  it('refuses a misspelt events.subscribe() option before connecting', async () => {
    const mcp = client({ servers: { weather: { url: weatherUrl } } });
    const error = (await rejectionOf(
      mcp.events.subscribe('weather', 'repo.push', {}, { curser: null } as never),
    )) as MastraError;
    expect(error).toMatchObject({
      id: MCPErrorCode.CLIENT_INVALID_OPTION,
      message:
        'events.subscribe(): `curser` is not an option of events.subscribe() options; did you mean `cursor`?',
    });
  });

  it('refuses misspelt MCPEventsSignalProvider options, nested ones too', () => {
    const mcp = client({ servers: {} });
    expect(
      thrownBy(() => new MCPEventsSignalProvider({ client: mcp, subscribeOption: {} } as never)),
    ).toMatchObject({
      id: MCPErrorCode.CLIENT_INVALID_OPTION,
      message:
        'MCPEventsSignalProvider: `subscribeOption` is not an option of MCPEventsSignalProvider; did you mean `subscribeOptions`?',
    });
    expect(
      thrownBy(() => new MCPEventsSignalProvider({ client: mcp, subscribeOptions: { cursor: 'c' } } as never))
        .message,
    ).toContain('`subscribeOptions.cursor` is not an option of `subscribeOptions`');
    const provider = new MCPEventsSignalProvider({
      client: mcp,
      id: 'events',
      name: 'Events',
      cursorStore: new InMemoryMCPEventCursorStore(),
      subscribeOptions: { maxAgeMs: 60_000, retry: { maxAttempts: 3 } },
      priority: 'high',
      coalesce: true,
      tools: { servers: ['weather'] },
      onError: () => {},
    });
    expect(provider.id).toBe('events');
  });

  it('refuses misspelt OAuth provider options under the OAuth id', () => {
    const options = {
      redirectUrl: 'http://127.0.0.1:3000/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1:3000/callback'] },
      clientInformation: { client_id: 'app' },
    };
    expect(
      thrownBy(() => new MCPOAuthClientProvider({ ...options, storge: new InMemoryOAuthStorage() } as never)),
    ).toMatchObject({
      id: MCPErrorCode.CLIENT_OAUTH_INVALID_CONFIG,
      message:
        'MCPOAuthClientProvider: `storge` is not an option of MCPOAuthClientProvider; did you mean `storage`?',
    });
    expect(
      thrownBy(() => createSimpleTokenProvider('token', { ...options, redirectUri: 'x' } as never)),
    ).toMatchObject({
      id: MCPErrorCode.CLIENT_OAUTH_INVALID_CONFIG,
      message:
        'createSimpleTokenProvider(): `redirectUri` is not an option of createSimpleTokenProvider(); did you mean `redirectUrl`?',
    });
    expect(
      new MCPOAuthClientProvider({
        ...options,
        onRedirectToAuthorization: () => {},
        storage: new InMemoryOAuthStorage(),
      }),
    ).toBeInstanceOf(MCPOAuthClientProvider);
  });
});
