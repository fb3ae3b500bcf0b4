/**
 * The "everything client" for the client scenarios of the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`): one CLI that, per scenario, builds an `MCPClient` for the
 * scenario server and does what the scenario expects through MCPClient's public API only (tools
 * from `listToolsets()` executed as a Mastra agent would, `resources`, `prompts`, `inputRequests`,
 * `sampling`, `roots`, `authProvider`, `authenticate()`). Nothing here talks to the MCP server around MCPClient. The
 * authorization-code scenarios use MCPClient's `MCPOAuthClientProvider` (extended with Dynamic
 * Client Registration, which most scenarios expect and MCPClient's provider deliberately lacks) and
 * complete each authorization with `mcp.authenticate()`; a headless "browser" answers the
 * authorization URL (see `headlessBrowser()`).
 *
 * The suite runs it as `<command> <server-url>` with the scenario name in
 * `MCP_CONFORMANCE_SCENARIO`, the spec revision to speak in `MCP_CONFORMANCE_PROTOCOL_VERSION` and,
 * for some scenarios, scenario data in `MCP_CONFORMANCE_CONTEXT` (JSON). It exits 0 when every
 * step succeeded, 1 when one failed (the error goes to stderr), 2 for an unknown scenario or a
 * bad invocation.
 *
 *   node --import tsx conformance/client.ts http://localhost:PORT/mcp
 *
 * Environment: `CONFORMANCE_CLIENT_NEGOTIATION=auto` leaves `protocolVersion` unset (MCPClient's
 * default: probe with `server/discover`, fall back to `initialize`) instead of pinning the revision
 * the suite asks for.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { MastraError } from '@mastra/core/error';
import { isValidationError } from '@mastra/core/tools';
import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';
import {
  getCallbackUrlCandidates,
  type MastraMCPServerDefinition,
  MCPClient,
  type MCPInputRequestHandler,
  MCPOAuthClientProvider,
  type MCPOAuthClientProviderOptions,
  type MCPSamplingHandler,
  type MCPTool,
} from '../src/index.js';

const SERVER = 'conformance';
const MODERN = '2026-07-28';

interface Run {
  url: URL;
  scenario: string;
  /** What the suite asked for: a dated revision (stateful, `initialize`) or 2026-07-28. */
  protocolVersion: string;
  context: Record<string, unknown> | undefined;
}

type Handler = (run: Run) => Promise<void>;

function log(message: string): void {
  process.stderr.write(`[client] ${message}\n`);
}

/** The revision pin that matches what the suite asked for (or none, with CONFORMANCE_CLIENT_NEGOTIATION=auto). */
function protocolOption(run: Run): Pick<MastraMCPServerDefinition, 'protocolVersion'> {
  if (process.env.CONFORMANCE_CLIENT_NEGOTIATION === 'auto') return {};
  return { protocolVersion: run.protocolVersion === MODERN ? MODERN : 'legacy' };
}

/**
 * What the everything client answers a server that asks for sampling: a fixed text, so a scenario
 * sees a well-formed result (the model is a stand-in: the suite checks the protocol, not the text).
 */
const sampling: MCPSamplingHandler = (request) => {
  log(`sampling request: ${JSON.stringify(request)}`);
  return {
    model: 'mastra-mcp-conformance-model',
    role: 'assistant',
    content: { type: 'text', text: 'Sampled by the MCPClient everything client.' },
    stopReason: 'endTurn',
  };
};

/** The roots the everything client declares: its working directory. */
const roots = [{ uri: pathToFileURL(process.cwd()).href, name: 'workspace' }];

/**
 * One MCPClient with the scenario server as its only server; always disconnected afterwards. It
 * answers sampling and roots in every scenario, as an everything client does, so MCPClient
 * declares both capabilities.
 */
async function withClient(
  run: Run,
  extra: Partial<MastraMCPServerDefinition>,
  body: (mcp: MCPClient) => Promise<void>,
): Promise<void> {
  const mcp = new MCPClient({
    id: `conformance-${run.scenario}`,
    registerProcessHooks: false,
    clientInfo: { name: 'mastra-mcp-conformance-client', version: '1.0.0' },
    sampling,
    roots,
    servers: {
      [SERVER]: {
        url: run.url,
        timeout: 20_000,
        ...protocolOption(run),
        logger: (entry) => log(`${entry.level}: ${entry.message}`),
        ...extra,
      } as MastraMCPServerDefinition,
    },
  });
  try {
    await body(mcp);
  } finally {
    await mcp.disconnect();
  }
}

/** The server's tools by their own names; a failed listing throws instead of yielding no tools. */
async function toolsOf(mcp: MCPClient): Promise<Record<string, MCPTool>> {
  const { toolsets, errors } = await mcp.listToolsetsWithErrors();
  if (errors[SERVER]) throw new Error(`listing tools failed: ${errors[SERVER]}`);
  const tools = toolsets[SERVER] ?? {};
  log(`tools: ${Object.keys(tools).join(', ') || '(none)'}`);
  return tools;
}

function toolNamed(tools: Record<string, MCPTool>, name: string): MCPTool {
  const tool = tools[name];
  if (!tool) throw new Error(`MCPClient offers no tool '${name}' (it has: ${Object.keys(tools).join(', ')})`);
  return tool;
}

/** Executes a tool the way an agent does; Mastra input validation errors become exceptions. */
async function call(
  tools: Record<string, MCPTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const tool = toolNamed(tools, name);
  if (!tool.execute) throw new Error(`tool '${name}' has no execute()`);
  // An agent passes its run context; a direct call has none.
  const result: unknown = await tool.execute(args, {} as Parameters<typeof tool.execute>[1]);
  if (isValidationError(result)) throw new Error(`tool '${name}': ${result.message}`);
  log(`${name} -> ${JSON.stringify(result)}`);
  return result;
}

/** The JSON Schema of a tool's input as the Mastra tool MCPClient built exposes it (`~standard.jsonSchema`). */
function inputJsonSchemaOf(tool: MCPTool): Record<string, unknown> {
  const schema = tool.inputSchema as
    | { '~standard'?: { jsonSchema?: { input?: (options: { target: string }) => unknown } } }
    | undefined;
  const toJson = schema?.['~standard']?.jsonSchema?.input;
  if (!toJson) throw new Error(`tool '${tool.id}' exposes no JSON Schema for its input`);
  return toJson({ target: 'draft-2020-12' }) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

const handlers: Record<string, Handler> = {};

/** `initialize`: connect (the handshake is what is checked) and list tools. */
handlers.initialize = (run) =>
  withClient(run, {}, async (mcp) => {
    await toolsOf(mcp);
  });

/** `tools_call`: list tools, call add_numbers with two numbers. */
handlers.tools_call = (run) =>
  withClient(run, {}, async (mcp) => {
    const tools = await toolsOf(mcp);
    await call(tools, 'add_numbers', { a: 5, b: 3 });
  });

/**
 * `request-metadata`: ordinary traffic; the scenario checks `_meta`, the version header and the
 * retry after -32022. An `inputRequests` handler makes MCPClient declare the elicitation capability
 * beside sampling and roots (withClient), so the shape of all three is checked.
 */
handlers['request-metadata'] = (run) =>
  withClient(run, { inputRequests: async () => ({ action: 'decline' }) }, async (mcp) => {
    await toolsOf(mcp);
  });

/**
 * `elicitation-sep1034-client-defaults`: the tool elicits a form whose fields all have defaults;
 * the user accepts without touching anything, and the client must fill in the defaults (declared
 * with the `applyDefaults` form capability).
 */
handlers['elicitation-sep1034-client-defaults'] = (run) =>
  withClient(
    run,
    {
      capabilities: { elicitation: { form: { applyDefaults: true } } },
      inputRequests: async (request) => {
        log(`input request ${request.key}: ${JSON.stringify(request.params)}`);
        return { action: 'accept', content: {} };
      },
    },
    async (mcp) => {
      const tools = await toolsOf(mcp);
      await call(tools, 'test_client_elicitation_defaults', {});
    },
  );

/** `sse-retry`: the server closes the POST stream mid-call with `retry:`; the transport must resume. */
handlers['sse-retry'] = (run) =>
  withClient(run, {}, async (mcp) => {
    const tools = await toolsOf(mcp);
    for (const name of Object.keys(tools)) await call(tools, name, {});
  });

/**
 * `sep-2322-client-request-state` (MRTR): the tools answer `input_required`; MCPClient must retry
 * with the answers, echo `requestState` verbatim (and only when given), use a new JSON-RPC id, keep
 * other calls made meanwhile clean, and treat a result without `resultType` as complete. The
 * unrelated tool is called from inside the input request handler, i.e. between the two rounds.
 */
handlers['sep-2322-client-request-state'] = async (run) => {
  let tools: Record<string, MCPTool> = {};
  let unrelatedCalled = false;
  const inputRequests: MCPInputRequestHandler = async (request) => {
    log(`input request ${request.key}: ${JSON.stringify(request.params)}`);
    if (!unrelatedCalled) {
      unrelatedCalled = true;
      await call(tools, 'test_mrtr_unrelated', {});
    }
    return { action: 'accept', content: { confirmed: true } };
  };
  await withClient(run, { inputRequests }, async (mcp) => {
    tools = await toolsOf(mcp);
    await call(tools, 'test_mrtr_echo_state', {});
    await call(tools, 'test_mrtr_no_state', {});
    await call(tools, 'test_mrtr_no_result_type', {});
    if (!unrelatedCalled) await call(tools, 'test_mrtr_unrelated', {});
  });
};

/**
 * `http-standard-headers` (SEP-2243): every kind of request, so the scenario can check the
 * `Mcp-Method` header on each and `Mcp-Name` on tools/call, resources/read and prompts/get.
 */
handlers['http-standard-headers'] = (run) =>
  withClient(run, {}, async (mcp) => {
    const tools = await toolsOf(mcp);
    for (const name of Object.keys(tools)) await call(tools, name, {});
    const { resources, errors } = await mcp.resources.listWithErrors();
    if (errors[SERVER]) throw new Error(`listing resources failed: ${errors[SERVER]}`);
    for (const resource of resources[SERVER] ?? []) {
      log(`reading ${resource.uri}`);
      await mcp.resources.read(SERVER, resource.uri);
    }
    const { prompts, errors: promptErrors } = await mcp.prompts.listWithErrors();
    if (promptErrors[SERVER]) throw new Error(`listing prompts failed: ${promptErrors[SERVER]}`);
    for (const prompt of prompts[SERVER] ?? []) {
      log(`getting prompt ${prompt.name}`);
      await mcp.prompts.get({ serverName: SERVER, name: prompt.name });
    }
  });

/**
 * `http-custom-headers` (SEP-2243): call the tools named in the scenario context with the given
 * arguments; the scenario checks the `Mcp-Param-*` headers mirrored from `x-mcp-header` parameters.
 */
handlers['http-custom-headers'] = (run) =>
  withClient(run, {}, async (mcp) => {
    const calls = run.context?.toolCalls;
    if (!Array.isArray(calls)) throw new Error('MCP_CONFORMANCE_CONTEXT has no toolCalls');
    const tools = await toolsOf(mcp);
    for (const { name, arguments: args } of calls as Array<{
      name: string;
      arguments: Record<string, unknown>;
    }>) {
      await call(tools, name, args);
    }
  });

/** Plausible arguments for a tool's input schema (strings, numbers, booleans; required fields only). */
function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set((schema.required ?? []) as string[]);
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!required.has(name)) continue;
    if (property.type === 'string') args[name] = 'us-west1';
    else if (property.type === 'integer' || property.type === 'number') args[name] = 1;
    else if (property.type === 'boolean') args[name] = true;
    else if (property.type === 'array') args[name] = [];
    else if (property.type === 'object') args[name] = {};
    else args[name] = null;
  }
  return args;
}

/**
 * `http-invalid-tool-headers` (SEP-2243): the server lists one valid tool and eleven with invalid
 * `x-mcp-header` declarations. Call every tool MCPClient offers, as an agent might: the invalid
 * ones must not be offered (and so never called).
 */
handlers['http-invalid-tool-headers'] = (run) =>
  withClient(run, {}, async (mcp) => {
    const tools = await toolsOf(mcp);
    for (const [name, tool] of Object.entries(tools)) {
      try {
        await call(tools, name, sampleArguments(inputJsonSchemaOf(tool)));
      } catch (error) {
        log(`calling ${name} failed: ${(error as Error).message}`);
      }
    }
  });

/** `json-schema-ref-no-deref` (SEP-2106): listing tools must not fetch the network `$ref`. */
handlers['json-schema-ref-no-deref'] = (run) =>
  withClient(run, {}, async (mcp) => {
    const tools = await toolsOf(mcp);
    for (const tool of Object.values(tools))
      log(`${tool.id} input: ${JSON.stringify(inputJsonSchemaOf(tool))}`);
  });

/**
 * `json-schema-2020-12-preservation` (SEP-1613, SEP-2106): echo the focal tool's input schema, as
 * MCPClient exposes it to Mastra, back through `json_schema_echo`.
 */
handlers['json-schema-2020-12-preservation'] = (run) =>
  withClient(run, {}, async (mcp) => {
    const tools = await toolsOf(mcp);
    const schema = inputJsonSchemaOf(toolNamed(tools, 'json_schema_2020_12_tool'));
    log(`json_schema_2020_12_tool input schema as exposed: ${JSON.stringify(schema)}`);
    await call(tools, 'json_schema_echo', { schema });
  });

/**
 * `sep-2640-client-no-prefetch` (skills extension): list the server's skills through `mcp.skills`
 * and load none; listing must retrieve no skill file.
 */
handlers['sep-2640-client-no-prefetch'] = (run) =>
  withClient(run, {}, async (mcp) => {
    const { skills, errors } = await mcp.skills.listWithErrors();
    if (errors[SERVER]) throw new Error(`listing skills failed: ${errors[SERVER]}`);
    log(`skills: ${(skills[SERVER] ?? []).map((entry) => entry.uri).join(', ') || '(none)'}`);
  });

/**
 * `sep-2640-client-verify-digest`, `-size`, `-frontmatter`: load the listed skill as a host does
 * (read its SKILL.md), then its reference. The server serves a SKILL.md that fails the named
 * check, so `skills.read()` must refuse it and the reference must never be asked for; a refusal
 * is the expected outcome (exit 0), a SKILL.md accepted is a failure.
 */
for (const scenario of [
  'sep-2640-client-verify-digest',
  'sep-2640-client-verify-size',
  'sep-2640-client-verify-frontmatter',
]) {
  handlers[scenario] = (run) =>
    withClient(run, {}, async (mcp) => {
      const entry = (await mcp.skills.list())[SERVER]?.[0];
      if (!entry) throw new Error('the server listed no skill');
      const refusal = await mcp.skills.read(SERVER, entry.uri).then(
        () => undefined,
        (error: Error) => error,
      );
      if (!refusal) {
        const files = Array.isArray(entry.skill.resources) ? entry.skill.resources : [];
        for (const file of files) await mcp.skills.read(SERVER, file.uri);
        throw new Error(`${entry.uri} was accepted although the server altered it`);
      }
      log(`refused as it should be: ${refusal.message}`);
    });
}

// ---------------------------------------------------------------------------------------------
// Authorization (auth/*)
// ---------------------------------------------------------------------------------------------

/** The Client ID Metadata Document URL the auth scenarios recognise (SEP-991). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
/** Authorizations per operation: a server that keeps refusing is not retried forever. */
const MAX_AUTHORIZATIONS = 3;
const AUTHENTICATE_TIMEOUT_MS = 20_000;

/** A loopback redirect URL on a port that was free a moment ago (authenticate() falls back if not). */
async function loopbackRedirectUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/callback`;
}

function pause(ms: number): Promise<void> {
  // Unref'd: a browser still retrying never keeps the client process alive.
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * The user's browser, headless: it opens the authorization URL (the scenario's authorization
 * server approves at once and redirects to the loopback callback with `code`, `state` and `iss`)
 * and follows the redirect to MCPClient's callback server. Like a user who approves a moment
 * later, it retries the callback while nothing listens there yet: an authorization the SDK starts
 * during an operation is answered once `authenticate()` binds its callback server.
 */
function headlessBrowser(url: URL): void {
  void (async () => {
    log(`authorization request: ${url}`);
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) {
      log(`browser: the authorization endpoint answered ${response.status} without a redirect`);
      return;
    }
    const callback = new URL(location, url);
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        const answer = await fetch(callback);
        await answer.body?.cancel();
        log(`browser: the callback server answered ${answer.status}`);
        return;
      } catch {
        await pause(50);
      }
    }
    log('browser: nothing listened on the callback URL');
  })().catch((error: unknown) => log(`browser: ${error instanceof Error ? error.message : String(error)}`));
}

/**
 * MCPClient's `MCPOAuthClientProvider`, which never registers a client once given an identity,
 * plus what the scenarios need beyond it: Dynamic Client Registration (RFC 7591) where the
 * authorization server offers neither Client ID Metadata Documents nor a pre-registered client
 * (most scenarios expect DCR),
 * credentials kept per issuer (SEP-2352), and an optional DPoP session (SEP-1932). Everything else
 * (storage, issuer binding, discovery pinning, the `authenticate()` flow) is MCPClient's own.
 */
class ConformanceOAuthProvider extends MCPOAuthClientProvider {
  private readonly registered = new Map<string, OAuthClientInformationMixed>();
  dpop?: () => Promise<DpopSession>;

  constructor({ dpop, ...options }: MCPOAuthClientProviderOptions & { dpop?: boolean }) {
    super(options);
    if (dpop) {
      const session = DpopSession.create();
      this.dpop = () => session;
    }
  }

  override async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<OAuthClientInformationMixed | undefined> {
    try {
      // Once this class registers, the base class looks in its own storage, which holds nothing.
      return (await super.clientInformation(ctx)) ?? (ctx ? this.registered.get(ctx.issuer) : undefined);
    } catch (error) {
      if (!(error instanceof MastraError && error.id === 'MCP_CLIENT_OAUTH_NO_CLIENT_IDENTITY')) throw error;
      // Undefined makes the SDK register with this authorization server.
      return ctx ? this.registered.get(ctx.issuer) : undefined;
    }
  }

  override readonly saveClientInformation = async (
    information: OAuthClientInformationMixed,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> => {
    const issuer = ctx?.issuer ?? (information as { issuer?: string }).issuer;
    if (issuer) this.registered.set(issuer, information);
  };

  override async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'all' || scope === 'client') this.registered.clear();
    await super.invalidateCredentials(scope);
  }
}

/**
 * Runs `operation`; when it fails and MCPClient records that the server wants authorization
 * ('needs-auth'), completes it with `mcp.authenticate()` and runs the operation again.
 */
async function authenticated<T>(mcp: MCPClient, operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (mcp.getServerAuthState(SERVER) !== 'needs-auth' || attempt >= MAX_AUTHORIZATIONS) throw error;
      log(`authorization needed (${(error as Error).message}); authenticate()`);
      await mcp.authenticate(SERVER, { timeoutMs: AUTHENTICATE_TIMEOUT_MS });
      log(`auth state: ${mcp.getServerAuthState(SERVER)}`);
    }
  }
}

/** Authorization-code scenarios: list tools and call `test-tool`, authenticating when asked to. */
async function authorizationCodeClient(
  run: Run,
  identity: { clientMetadataUrl: string } | { clientInformation: OAuthClientInformationMixed },
  dpop = false,
): Promise<void> {
  const redirectUrl = await loopbackRedirectUrl();
  const authProvider = new ConformanceOAuthProvider({
    redirectUrl,
    clientMetadata: clientMetadata('mastra-mcp-conformance-client', redirectUrl),
    onRedirectToAuthorization: headlessBrowser,
    ...identity,
    dpop,
  });
  await withClient(run, { authProvider }, async (mcp) => {
    const tools = await authenticated(mcp, () => toolsOf(mcp));
    await authenticated(mcp, () => call(tools, 'test-tool', {}));
  });
}

function clientMetadata(name: string, redirectUrl: string): OAuthClientMetadata {
  return {
    client_name: name,
    redirect_uris: getCallbackUrlCandidates(redirectUrl).map(String),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

for (const scenario of [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
]) {
  handlers[scenario] = (run) => authorizationCodeClient(run, { clientMetadataUrl: CIMD_URL });
}

/** `auth/pre-registration`: no registration endpoint; the client was registered out of band. */
handlers['auth/pre-registration'] = (run) => {
  const { client_id, client_secret } = run.context as { client_id: string; client_secret: string };
  return authorizationCodeClient(run, { clientInformation: { client_id, client_secret } });
};

/** `auth/client-credentials-basic` (extension): the SDK's client-credentials provider as `authProvider`. */
handlers['auth/client-credentials-basic'] = (run) => {
  const { client_id, client_secret } = run.context as { client_id: string; client_secret: string };
  const authProvider = new ClientCredentialsProvider({ clientId: client_id, clientSecret: client_secret });
  return withClient(run, { authProvider }, async (mcp) => {
    await toolsOf(mcp);
  });
};

/** `auth/client-credentials-jwt` (extension): the SDK's private_key_jwt provider as `authProvider`. */
handlers['auth/client-credentials-jwt'] = (run) => {
  const context = run.context as { client_id: string; private_key_pem: string; signing_algorithm?: string };
  const authProvider = new PrivateKeyJwtProvider({
    clientId: context.client_id,
    privateKey: context.private_key_pem,
    algorithm: context.signing_algorithm ?? 'ES256',
  });
  return withClient(run, { authProvider }, async (mcp) => {
    await toolsOf(mcp);
  });
};

/** `auth/dpop`, `auth/dpop-nonce` (extension, SEP-1932): the authorization-code flow with a DPoP session. */
for (const scenario of ['auth/dpop', 'auth/dpop-nonce']) {
  handlers[scenario] = (run) => authorizationCodeClient(run, { clientMetadataUrl: CIMD_URL }, true);
}

/**
 * `auth/enterprise-managed-authorization` (extension, SEP-990): the SDK's Cross-App Access provider
 * as `authProvider`, its assertion an ID-JAG obtained from the scenario's IdP by token exchange.
 */
handlers['auth/enterprise-managed-authorization'] = (run) => {
  const context = run.context as {
    client_id: string;
    client_secret: string;
    idp_client_id: string;
    idp_id_token: string;
    idp_token_endpoint: string;
  };
  const authProvider = new CrossAppAccessProvider({
    clientId: context.client_id,
    clientSecret: context.client_secret,
    clientName: 'mastra-mcp-conformance-client',
    assertion: async (ctx) => {
      const grant = await requestJwtAuthorizationGrant({
        tokenEndpoint: context.idp_token_endpoint,
        audience: ctx.authorizationServerUrl,
        resource: ctx.resourceUrl,
        idToken: context.idp_id_token,
        clientId: context.idp_client_id,
        ...(ctx.scope ? { scope: ctx.scope } : {}),
        fetchFn: ctx.fetchFn,
      });
      return grant.jwtAuthGrant;
    },
  });
  return withClient(run, { authProvider }, async (mcp) => {
    const tools = await toolsOf(mcp);
    await call(tools, 'test-tool', {});
  });
};

/**
 * A non-interactive provider for the RFC 7523 JWT-bearer grant with a workload identity assertion
 * (SEP-1933): no redirect, the token request carries the assertion.
 */
class WorkloadIdentityProvider implements OAuthClientProvider {
  private storedTokens: OAuthTokens | undefined;

  constructor(
    private readonly clientId: string,
    private readonly assertion: string,
  ) {}

  clientInformation(): OAuthClientInformationMixed {
    return { client_id: this.clientId };
  }

  tokens(): OAuthTokens | undefined {
    return this.storedTokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.storedTokens = tokens;
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'mastra-mcp-conformance-client',
      redirect_uris: [],
      grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
      token_endpoint_auth_method: 'none',
    };
  }

  redirectToAuthorization(): void {
    throw new Error('the JWT-bearer grant never redirects');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('the JWT-bearer grant uses no PKCE verifier');
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: this.assertion,
    });
    if (scope) params.set('scope', scope);
    return params;
  }
}

/** `auth/wif-jwt-bearer` (extension, SEP-1933): the JWT-bearer grant with the workload's JWT. */
handlers['auth/wif-jwt-bearer'] = (run) => {
  const { client_id, valid_jwt } = run.context as { client_id: string; valid_jwt: string };
  return withClient(
    run,
    { authProvider: new WorkloadIdentityProvider(client_id, valid_jwt) },
    async (mcp) => {
      const tools = await toolsOf(mcp);
      await call(tools, 'test-tool', {});
    },
  );
};

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const target = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  if (!target || !/^https?:\/\//.test(target) || !scenario) {
    log('usage: MCP_CONFORMANCE_SCENARIO=<scenario> client.ts <server-url>');
    return 2;
  }
  const handler = handlers[scenario];
  if (!handler) {
    log(`no handler for scenario '${scenario}'`);
    return 2;
  }
  const rawContext = process.env.MCP_CONFORMANCE_CONTEXT;
  const run: Run = {
    url: new URL(target),
    scenario,
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25',
    context: rawContext ? (JSON.parse(rawContext) as Record<string, unknown>) : undefined,
  };
  log(`scenario ${scenario} at ${run.protocolVersion} against ${target}`);
  try {
    await handler(run);
    log('done');
    return 0;
  } catch (error) {
    log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    let cause = (error as { cause?: unknown }).cause;
    for (let depth = 0; cause && depth < 5; depth++) {
      log(`  caused by: ${cause instanceof Error ? cause.message : String(cause)}`);
      cause = (cause as { cause?: unknown }).cause;
    }
    return 1;
  }
}

process.exitCode = await main();
