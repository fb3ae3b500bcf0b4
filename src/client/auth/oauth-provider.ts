/**
 * `MCPOAuthClientProvider`: the SDK's `OAuthClientProvider` for one MCP server, for the
 * authorization-code flow with PKCE. The SDK does discovery, PKCE, scopes, the requests and the
 * RFC 9207 `iss` check; this class holds the client identity and the state those steps leave
 * behind. Invariants:
 * - At most one client identity: pre-registered `clientInformation`, or a Client ID Metadata
 *   Document URL sent as `client_id` (the v2 reference's shapes). Given one, it never registers (it
 *   has no `saveClientInformation`), and an authorization server that accepts neither identity
 *   fails the flow with an error saying so. Given none (the v1 reference's shape), it lets the SDK
 *   register a client (RFC 7591) at each authorization server's `registration_endpoint` and keeps
 *   it in storage, one per issuer, so later flows reuse it; a server without that endpoint fails
 *   naming the fix. Each registration is reported to the `REGISTERED` listener.
 * - Tokens are bound to the issuer that minted them: one entry per validated issuer, plus the
 *   latest set for the per-request read. The latest set is withheld once discovery names a
 *   different issuer.
 * - Discovery state is pinned while an authorization is outstanding (a PKCE verifier is stored), so
 *   the code goes only to the authorization server that issued the redirect; otherwise every
 *   `auth()` discovers afresh and sees a changed `authorization_servers`.
 * - Every storage access goes through one per-provider queue (see storage.ts).
 * - While `MCPClient.authenticate()` runs a flow (see authenticate.ts), the redirect URL is the
 *   bound callback URL, `state` is the flow's, and only the flow's first authorization URL reaches
 *   `onRedirectToAuthorization`.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import {
  anyObject,
  assertOptions,
  either,
  fn,
  type OptionsOf,
  object,
  required,
  string,
  url,
} from '../../shared/options.js';
import { InMemoryOAuthStorage, type OAuthStorage, readJson, STORAGE_KEYS, StorageQueue } from './storage.js';

export interface MCPOAuthClientProviderOptions {
  /** Where the authorization server sends the browser back; a loopback URL for `authenticate()`. */
  redirectUrl: string | URL;
  /** This client's metadata (`client_id` may repeat the `clientMetadataUrl`, as the hosted document does). */
  clientMetadata: OAuthClientMetadata & { client_id?: string };
  /**
   * A client pre-registered with the authorization server. Exclusive with `clientMetadataUrl`;
   * with neither, the provider registers a client dynamically (RFC 7591).
   */
  clientInformation?: OAuthClientInformationMixed;
  /** HTTPS URL of this client's Client ID Metadata Document, sent as `client_id`. Exclusive with `clientInformation`. */
  clientMetadataUrl?: string;
  /** Receives the authorization URL: open it in the user's browser, or redirect to it. */
  onRedirectToAuthorization?: (url: URL) => void | Promise<void>;
  /** Where tokens, discovery state, the PKCE verifier, `state` and a registered client are kept. Default: in memory. */
  storage?: OAuthStorage;
}

/** The SDK's client metadata and information pass through, so only their kind is checked. */
const OPTIONS = object(
  {
    redirectUrl: required(either(string, url)),
    clientMetadata: required(anyObject),
    clientInformation: anyObject,
    clientMetadataUrl: string,
    onRedirectToAuthorization: fn,
    storage: anyObject,
  } satisfies OptionsOf<MCPOAuthClientProviderOptions>,
  'MCPOAuthClientProvider',
);

/** An authorization the SDK started outside `authenticate()`: its URL went to `onRedirectToAuthorization`. */
export interface PendingAuthorization {
  state: string;
  redirectUri: string;
  scope: string | undefined;
}

/** What `authenticate()` drives on the provider; not part of the public API. */
export interface InteractiveControl {
  readonly redirectUrl: string;
  /** The authorization started outside a flow and not yet answered, if any. */
  pendingAuthorization(): PendingAuthorization | undefined;
  /** Starts a flow; `redirected` when it adopts an authorization whose URL is already out. */
  begin(flow: { redirectUrl: string; state: string; redirected: boolean }): void;
  /** Whether the flow's authorization URL has gone to `onRedirectToAuthorization`. */
  redirected(): boolean;
  end(): void;
  /**
   * Forgets the stored verifier and `state` (and so the discovery pin): before a fresh
   * authorization, and once a code was exchanged (they are spent).
   */
  forgetAuthorization(): Promise<void>;
}

export const INTERACTIVE = Symbol('mastra-mcp.interactiveOAuth');

/** A client the provider registered at runtime (the v1 shape); `client_secret` is never part of it. */
export interface RegisteredClient {
  issuer: string;
  clientId: string;
  /** The storage key it is kept under. */
  storageKey: string;
}

/** Where a provider reports the clients it registers: the connection logs them under its server's name. */
export const REGISTERED = Symbol('mastra-mcp.registeredOAuthClient');

interface Flow {
  redirectUrl: string;
  state: string;
  redirected: boolean;
}

/** The issuer a discovery state names (as the SDK computes it). */
function issuerOf(discovery: OAuthDiscoveryState): string {
  return discovery.authorizationServerMetadata?.issuer ?? String(discovery.authorizationServerUrl);
}

/** Issuer identity with the SDK's one tolerance: a single trailing slash. */
function issuerKey(issuer: string): string {
  return issuer.endsWith('/') ? issuer.slice(0, -1) : issuer;
}

function sameUrl(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/**
 * A Client ID Metadata Document URL as the SDK accepts one for `client_id`: https, with a path.
 * Checked here rather than by the SDK's own check, which is in its client entry (sdk-load.ts).
 */
function isMetadataDocumentUrl(value: string): boolean {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return url?.protocol === 'https:' && url.pathname !== '/';
}

function configError(text: string, fields: string, cause?: unknown) {
  return mcpError(
    MCPErrorCode.CLIENT_OAUTH_INVALID_CONFIG,
    `MCPOAuthClientProvider: ${text}`,
    { fields },
    cause,
  );
}

export class MCPOAuthClientProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  readonly [INTERACTIVE]: InteractiveControl;
  /** Told of each client registered at runtime; set by the connection that uses this provider. */
  [REGISTERED]: ((client: RegisteredClient) => void) | undefined;
  /** Present only without a configured identity (the v1 shape): the SDK then registers a client. */
  declare readonly saveClientInformation?: (
    information: OAuthClientInformationMixed,
    ctx?: OAuthClientInformationContext,
  ) => Promise<void>;
  private readonly queue: StorageQueue;
  private readonly configuredRedirectUrl: string;
  private flow: Flow | undefined;
  private pending: PendingAuthorization | undefined;
  /** The `state` of the last flow that ended: a late redirect carrying it is dropped. */
  private endedFlowState: string | undefined;

  constructor(private readonly options: MCPOAuthClientProviderOptions) {
    assertOptions(OPTIONS, options, {
      where: 'MCPOAuthClientProvider',
      label: 'the MCPOAuthClientProvider options',
      code: MCPErrorCode.CLIENT_OAUTH_INVALID_CONFIG,
    });
    const { clientInformation, clientMetadataUrl, redirectUrl, clientMetadata } = options ?? {};
    if (clientInformation && clientMetadataUrl) {
      throw configError(
        "set either 'clientInformation' (a pre-registered client) or 'clientMetadataUrl' (a Client ID Metadata Document), not both",
        'clientInformation,clientMetadataUrl',
      );
    }
    if (clientInformation && typeof clientInformation.client_id !== 'string') {
      throw configError("'clientInformation.client_id' must be a string", 'clientInformation');
    }
    if (clientMetadataUrl) {
      if (!isMetadataDocumentUrl(clientMetadataUrl)) {
        throw configError(
          "'clientMetadataUrl' must be an https URL with a path (the Client ID Metadata Document)",
          'clientMetadataUrl',
        );
      }
      if (clientMetadata?.client_id !== undefined && clientMetadata.client_id !== clientMetadataUrl) {
        throw configError(
          "'clientMetadata.client_id' must equal 'clientMetadataUrl' (the URL is the client_id)",
          'clientMetadata.client_id,clientMetadataUrl',
        );
      }
    }
    if (!clientMetadata || !Array.isArray(clientMetadata.redirect_uris)) {
      throw configError("'clientMetadata' with 'redirect_uris' is required", 'clientMetadata');
    }
    try {
      new URL(redirectUrl);
    } catch (error) {
      throw configError("'redirectUrl' is not a valid URL", 'redirectUrl', error);
    }
    this.configuredRedirectUrl = String(redirectUrl);
    this.clientMetadataUrl = clientMetadataUrl;
    this.queue = new StorageQueue(options.storage ?? new InMemoryOAuthStorage());
    this[INTERACTIVE] = this.interactiveControl();
    // Only the v1 shape may register: the SDK registers exactly when this method exists.
    if (!clientInformation && !clientMetadataUrl) {
      this.saveClientInformation = (information, ctx) => this.saveRegisteredClient(information, ctx);
    }
  }

  get redirectUrl(): string {
    return this.flow?.redirectUrl ?? this.configuredRedirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.options.clientMetadata;
  }

  async state(): Promise<string> {
    const value = this.flow?.state ?? randomBytes(32).toString('base64url');
    await this.queue.run((storage) => storage.set(STORAGE_KEYS.state, value));
    return value;
  }

  /**
   * The configured identity. A metadata-document URL is offered only to an authorization server
   * whose validated metadata says `client_id_metadata_document_supported`. Without one, the client
   * registered with that authorization server, if any (undefined makes the SDK register one).
   */
  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<OAuthClientInformationMixed | undefined> {
    const { clientInformation } = this.options;
    if (clientInformation) return clientInformation;
    if (this.saveClientInformation) return this.registeredClient(ctx);
    const url = this.clientMetadataUrl as string;
    const discovery = await this.queue.run((storage) =>
      readJson<OAuthDiscoveryState>(storage, STORAGE_KEYS.discovery),
    );
    const metadata = discovery?.authorizationServerMetadata;
    const issuer = ctx?.issuer ?? (discovery ? issuerOf(discovery) : 'the authorization server');
    const sameServer =
      !ctx || (discovery !== undefined && issuerKey(issuerOf(discovery)) === issuerKey(ctx.issuer));
    if (metadata?.client_id_metadata_document_supported === true && sameServer) return { client_id: url };
    throw mcpError(
      MCPErrorCode.CLIENT_OAUTH_NO_CLIENT_IDENTITY,
      `Authorization server ${issuer} does not accept Client ID Metadata Documents (client_id_metadata_document_supported), and an MCPOAuthClientProvider given 'clientMetadataUrl' never registers a client dynamically: configure 'clientInformation' for a client pre-registered with it`,
      { issuer },
    );
  }

  /**
   * The client registered with the authorization server `ctx` names (or discovery last named). None
   * yet and that server has no `registration_endpoint`: nothing the SDK could do would work, so
   * the error names the two identities that would.
   */
  private async registeredClient(
    ctx?: OAuthClientInformationContext,
  ): Promise<OAuthClientInformationMixed | undefined> {
    return this.queue.run(async (storage) => {
      const discovery = await readJson<OAuthDiscoveryState>(storage, STORAGE_KEYS.discovery);
      const issuer = ctx?.issuer ?? (discovery ? issuerOf(discovery) : undefined);
      if (issuer === undefined) return undefined;
      const stored = await readJson<OAuthClientInformationMixed>(
        storage,
        STORAGE_KEYS.clientOf(issuerKey(issuer)),
      );
      if (stored) return stored;
      const metadata = discovery?.authorizationServerMetadata;
      if (
        metadata &&
        issuerKey(issuerOf(discovery)) === issuerKey(issuer) &&
        !metadata.registration_endpoint
      ) {
        throw mcpError(
          MCPErrorCode.CLIENT_OAUTH_NO_CLIENT_IDENTITY,
          `Authorization server ${issuer} has no registration_endpoint, so MCPOAuthClientProvider cannot register a client with it (RFC 7591): configure 'clientInformation' for a client pre-registered with it, or 'clientMetadataUrl' if it accepts Client ID Metadata Documents`,
          { issuer },
        );
      }
      return undefined;
    });
  }

  /** Keeps what the SDK registered (or re-stamped) under its issuer, and reports a new registration. */
  private async saveRegisteredClient(
    information: OAuthClientInformationMixed,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    const issuer = ctx?.issuer ?? information.issuer;
    if (issuer === undefined) return;
    const key = STORAGE_KEYS.clientOf(issuerKey(issuer));
    const previous = await this.queue.run(async (storage) => {
      const before = await readJson<OAuthClientInformationMixed>(storage, key);
      await storage.set(key, JSON.stringify(information));
      const issuers = (await readJson<string[]>(storage, STORAGE_KEYS.clientIssuers)) ?? [];
      if (!issuers.includes(issuerKey(issuer))) {
        await storage.set(STORAGE_KEYS.clientIssuers, JSON.stringify([...issuers, issuerKey(issuer)]));
      }
      return before;
    });
    if (previous?.client_id !== information.client_id) {
      this[REGISTERED]?.({ issuer, clientId: information.client_id, storageKey: key });
    }
  }

  /** With `ctx`: the tokens bound to that issuer. Without (the per-request read): the latest set. */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    return this.queue.run(async (storage) => {
      if (ctx) return readJson<StoredOAuthTokens>(storage, STORAGE_KEYS.tokensOf(issuerKey(ctx.issuer)));
      const latest = await readJson<StoredOAuthTokens>(storage, STORAGE_KEYS.latestTokens);
      if (!latest?.issuer) return latest;
      const discovery = await readJson<OAuthDiscoveryState>(storage, STORAGE_KEYS.discovery);
      // Discovery now names another authorization server: these tokens are not its to present.
      if (discovery && issuerKey(issuerOf(discovery)) !== issuerKey(latest.issuer)) return undefined;
      return latest;
    });
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    const stamped = issuer && !tokens.issuer ? { ...tokens, issuer } : tokens;
    const value = JSON.stringify(stamped);
    await this.queue.run(async (storage) => {
      if (issuer) {
        const key = issuerKey(issuer);
        await storage.set(STORAGE_KEYS.tokensOf(key), value);
        const issuers = (await readJson<string[]>(storage, STORAGE_KEYS.tokenIssuers)) ?? [];
        if (!issuers.includes(key)) {
          await storage.set(STORAGE_KEYS.tokenIssuers, JSON.stringify([...issuers, key]));
        }
      }
      await storage.set(STORAGE_KEYS.latestTokens, value);
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const state = authorizationUrl.searchParams.get('state') ?? undefined;
    const redirectUri = authorizationUrl.searchParams.get('redirect_uri') ?? undefined;
    const flow = this.flow;
    if (flow) {
      // Only the flow's own first authorization has a listener waiting; anything else is dropped.
      if (flow.redirected || state !== flow.state || !sameUrl(redirectUri, flow.redirectUrl)) return;
      const handler = this.options.onRedirectToAuthorization;
      if (!handler) {
        throw mcpError(
          MCPErrorCode.CLIENT_OAUTH_NO_REDIRECT_HANDLER,
          'MCPOAuthClientProvider has no onRedirectToAuthorization to hand the authorization URL to',
          { field: 'onRedirectToAuthorization' },
        );
      }
      flow.redirected = true;
      await handler(authorizationUrl);
      return;
    }
    if (state !== undefined && state === this.endedFlowState) return;
    if (state !== undefined && redirectUri !== undefined) {
      this.pending = { state, redirectUri, scope: authorizationUrl.searchParams.get('scope') ?? undefined };
    }
    await this.options.onRedirectToAuthorization?.(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    // The flow's authorization URL is out: its verifier is the one the code will need.
    if (this.flow?.redirected) return;
    await this.queue.run((storage) => storage.set(STORAGE_KEYS.codeVerifier, codeVerifier));
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.queue.run((storage) => storage.get(STORAGE_KEYS.codeVerifier));
    if (!verifier) {
      throw mcpError(
        MCPErrorCode.CLIENT_OAUTH_NO_CODE_VERIFIER,
        'No PKCE code verifier is stored: this authorization response does not belong to an authorization this provider started',
        {},
      );
    }
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.queue.run((storage) => storage.set(STORAGE_KEYS.discovery, JSON.stringify(state)));
  }

  /** Pinned only while an authorization is outstanding; otherwise the SDK discovers afresh. */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.queue.run(async (storage) => {
      if (!(await storage.get(STORAGE_KEYS.codeVerifier))) return undefined;
      return readJson<OAuthDiscoveryState>(storage, STORAGE_KEYS.discovery);
    });
  }

  /**
   * A configured identity is configuration, so 'client' forgets nothing; a registered client is
   * forgotten (the SDK does so when the authorization server no longer knows it, then registers anew).
   */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.queue.run(async (storage) => {
      if ((scope === 'all' || scope === 'client') && this.saveClientInformation) {
        const issuers = (await readJson<string[]>(storage, STORAGE_KEYS.clientIssuers)) ?? [];
        for (const issuer of issuers) await storage.delete(STORAGE_KEYS.clientOf(issuer));
        await storage.delete(STORAGE_KEYS.clientIssuers);
      }
      if (scope === 'all' || scope === 'tokens') {
        const issuers = (await readJson<string[]>(storage, STORAGE_KEYS.tokenIssuers)) ?? [];
        for (const issuer of issuers) await storage.delete(STORAGE_KEYS.tokensOf(issuer));
        await storage.delete(STORAGE_KEYS.tokenIssuers);
        await storage.delete(STORAGE_KEYS.latestTokens);
      }
      if (scope === 'all' || scope === 'verifier') {
        await storage.delete(STORAGE_KEYS.codeVerifier);
        await storage.delete(STORAGE_KEYS.state);
      }
      if (scope === 'all' || scope === 'discovery') await storage.delete(STORAGE_KEYS.discovery);
    });
  }

  private interactiveControl(): InteractiveControl {
    return {
      redirectUrl: this.configuredRedirectUrl,
      pendingAuthorization: () => this.pending,
      begin: (flow) => {
        if (this.flow) {
          throw mcpError(
            MCPErrorCode.CLIENT_OAUTH_PROVIDER_BUSY,
            'This MCPOAuthClientProvider is already running an authorization flow: give each server its own provider',
            {},
          );
        }
        this.flow = { ...flow };
        this.pending = undefined;
      },
      redirected: () => this.flow?.redirected === true,
      end: () => {
        if (!this.flow) return;
        this.endedFlowState = this.flow.state;
        this.flow = undefined;
      },
      forgetAuthorization: () => this.invalidateCredentials('verifier'),
    };
  }
}

/**
 * Logs (through `log`, the connection's, so the record names its server) each client `provider`
 * registers at runtime: only an MCPOAuthClientProvider without a configured identity does.
 */
export function reportRegistrations(provider: unknown, log: (message: string) => void): void {
  if (!(provider instanceof MCPOAuthClientProvider) || !provider.saveClientInformation) return;
  provider[REGISTERED] = ({ issuer, clientId, storageKey }) =>
    log(
      `registered OAuth client '${clientId}' with authorization server ${issuer} (RFC 7591 dynamic client registration, as the MCPOAuthClientProvider has neither 'clientInformation' nor 'clientMetadataUrl'); it is kept in the provider's storage under '${storageKey}' and reused from there. The MCPClient reference (v2) recommends a client pre-registered with the authorization server ('clientInformation') or a Client ID Metadata Document ('clientMetadataUrl')`,
    );
}
