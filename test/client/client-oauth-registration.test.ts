/**
 * Runtime client registration (RFC 7591) by an MCPOAuthClientProvider built in the v1 reference's
 * shape (no `clientInformation`, no `clientMetadataUrl`), against a real authorization server with
 * registration open (fixtures/oidc-server.ts) protecting an MCPServer, at both protocol eras:
 * registration, the client kept in the provider's storage and reused, the log line, the error of
 * an authorization server without a `registration_endpoint`; and createSimpleTokenProvider in the
 * v1 shape.
 */
import { MastraError } from '@mastra/core/error';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSimpleTokenProvider,
  type HttpServerDefinition,
  InMemoryOAuthStorage,
  type LogHandler,
  MCPClient,
} from '../../src/index.js';
import { Browser, type Cleanups, callWeather, protectedStack, type Stack } from '../support/oauth-stack.js';
import { rejectionOf } from '../support/results.js';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Every request the client sends (OAuth ones included: they go through the server's fetch), and the MCP methods. */
class Wire {
  readonly requests: string[] = [];
  readonly methods: string[] = [];
  readonly fetch: NonNullable<HttpServerDefinition['fetch']> = async (url, init) => {
    const target = new URL(url);
    this.requests.push(`${init?.method ?? 'GET'} ${target.origin}${target.pathname}`);
    if (typeof init?.body === 'string' && target.pathname === '/mcp') {
      const { method } = JSON.parse(init.body) as { method?: string };
      if (method) this.methods.push(method);
    }
    return fetch(url, init);
  };

  count(request: string): number {
    return this.requests.filter((seen) => seen === request).length;
  }
}

/** The authorization server's registration endpoint, as its metadata names it. */
async function registrationEndpoint(stack: Stack): Promise<string | undefined> {
  const response = await fetch(`${stack.as.issuer}/.well-known/openid-configuration`);
  return ((await response.json()) as { registration_endpoint?: string }).registration_endpoint;
}

const ERAS = [
  ['2026-07-28', '2026-07-28'],
  ['legacy (2025-11-25)', 'legacy'],
] as const;

describe.each(ERAS)('the v1-shaped MCPOAuthClientProvider at %s', (_label, protocolVersion) => {
  it('registers a client, keeps it in its storage, obtains a token, and the MCP call succeeds; a second connect reuses the registration', async () => {
    const stack = await protectedStack(cleanups);
    const endpoint = await registrationEndpoint(stack);
    expect(endpoint).toEqual(expect.any(String));
    const register = `POST ${endpoint}`;
    const storage = new InMemoryOAuthStorage();
    const wire = new Wire();
    const records: Parameters<LogHandler>[0][] = [];
    const browser = new Browser(stack.as);
    const connect = () =>
      stack.client({
        onRedirectToAuthorization: browser.onRedirectToAuthorization,
        identity: {},
        storage,
        fetch: wire.fetch,
        logger: (entry) => records.push(entry),
        protocolVersion,
      });

    const first = connect();
    const refused = await first.listToolsWithErrors();
    expect(refused.errors.secured).toContain('requires authorization');
    expect(first.getServerAuthState('secured')).toBe('needs-auth');
    expect(wire.count(register)).toBe(1);
    const registered = JSON.parse((await storage.get(`client:${stack.as.issuer}`)) as string);
    expect(registered.client_id).toEqual(expect.any(String));
    expect(registered.client_id).not.toBe(stack.as.clientId);
    expect(registered.issuer).toBe(stack.as.issuer);
    // The authorization the SDK started is the registered client's.
    expect(browser.visits).toHaveLength(1);
    expect(browser.visits[0]?.searchParams.get('client_id')).toBe(registered.client_id);

    await first.authenticate('secured');
    expect(first.getServerAuthState('secured')).toBe('authorized');
    expect(await callWeather(first, 'secured')).toEqual({
      location: 'Paris',
      forecast: 'Weather in Paris is sunny.',
    });
    expect(JSON.parse((await storage.get('tokens')) as string).issuer).toBe(stack.as.issuer);
    expect(wire.methods.includes('initialize')).toBe(protocolVersion === 'legacy');

    const logged = records.filter((record) => record.message.includes('registered OAuth client'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'warning', serverName: 'secured' });
    expect(logged[0]?.message).toContain(registered.client_id);
    expect(logged[0]?.message).toContain(`'client:${stack.as.issuer}'`);
    expect(logged[0]?.message).toContain(
      "pre-registered with the authorization server ('clientInformation')",
    );
    expect(logged[0]?.message).toContain("a Client ID Metadata Document ('clientMetadataUrl')");
    expect(logged[0]?.message).not.toContain(registered.client_secret ?? 'no secret was issued');
    await first.disconnect();

    // A new client on the same storage whose tokens are gone authorizes again with the same client.
    await storage.delete('tokens');
    await storage.delete(`tokens:${stack.as.issuer}`);
    const second = connect();
    // listTools() resolves without the server's tools (the reference pages' catch never runs).
    expect(await second.listTools()).toEqual({});
    expect(second.getServerAuthState('secured')).toBe('needs-auth');
    expect(browser.visits).toHaveLength(2);
    expect(browser.visits[1]?.searchParams.get('client_id')).toBe(registered.client_id);
    await second.authenticate('secured');
    expect(await callWeather(second, 'secured')).toMatchObject({ location: 'Paris' });
    expect(wire.count(register)).toBe(1);
    expect(records.filter((record) => record.message.includes('registered OAuth client'))).toHaveLength(1);
  });

  it('createSimpleTokenProvider(token, { redirectUrl, clientMetadata }) constructs and sends the token', async () => {
    const stack = await protectedStack(cleanups);
    const { access_token: token } = await stack.as.issueTokens();
    const wire = new Wire();
    const mcp = new MCPClient({
      id: `simple-token-${protocolVersion}`,
      registerProcessHooks: false,
      servers: {
        secured: {
          url: stack.mcpUrl,
          protocolVersion,
          fetch: wire.fetch,
          authProvider: createSimpleTokenProvider(token, {
            redirectUrl: stack.redirectUrl,
            clientMetadata: { redirect_uris: [stack.redirectUrl], client_name: 'Test Client' },
          }),
        },
      },
    });
    cleanups.push(() => mcp.disconnect());
    expect(await callWeather(mcp, 'secured')).toMatchObject({ location: 'Paris' });
    expect(mcp.getServerAuthState('secured')).toBe('authorized');
    // The token was accepted as given: nothing was registered, no token requested.
    expect(wire.requests.filter((request) => !request.endsWith('/mcp'))).toEqual([]);
    expect(wire.methods.includes('initialize')).toBe(protocolVersion === 'legacy');
  });
});

describe('the v1-shaped MCPOAuthClientProvider without a registration endpoint', () => {
  it('fails naming the authorization server and the identities that would work, registering nothing', async () => {
    const stack = await protectedStack(cleanups, { registration: false });
    expect(await registrationEndpoint(stack)).toBeUndefined();
    const storage = new InMemoryOAuthStorage();
    const browser = new Browser(stack.as);
    const mcp = stack.client({
      onRedirectToAuthorization: browser.onRedirectToAuthorization,
      identity: {},
      storage,
    });

    const { errors } = await mcp.listToolsWithErrors();
    expect(errors.secured).toContain(`Authorization server ${stack.as.issuer} has no registration_endpoint`);
    expect(errors.secured).toContain("configure 'clientInformation'");
    expect(errors.secured).toContain("'clientMetadataUrl'");
    expect(browser.visits).toEqual([]);
    expect(await storage.get(`client:${stack.as.issuer}`)).toBeUndefined();

    const flow = await rejectionOf(mcp.authenticate('secured'), MastraError);
    expect(flow.message).toContain('has no registration_endpoint');
    expect(browser.visits).toEqual([]);
  });
});
