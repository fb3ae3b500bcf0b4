/**
 * `MCPClient.authenticate()` for one server: the interactive authorization-code flow over a
 * loopback callback. Invariants:
 * - One flow per server at a time; concurrent calls join it. Each server has its own.
 * - Setup (binding the callback server) is abortable; a flow that ends for any reason (success,
 *   failure, cancel, timeout) closes its callback server and releases the provider.
 * - The browser is only involved when the server refuses the stored tokens: the flow first
 *   reconnects, and a refused connect makes the SDK start the authorization (discovery with the
 *   configured identity, PKCE, scope from the challenge) on the flow's callback URL. An
 *   authorization the SDK already started outside a flow (a 401 or a step-up during an
 *   operation) is adopted instead, on its own callback URL, so the URL the user already has stays
 *   valid.
 * - The code is exchanged with the SDK's `auth()` (sdk-load.ts) and the callback's `iss`, so the SDK checks
 *   RFC 9207 against the issuer recorded at redirect time, and the exchange uses the server's own
 *   fetch (so `allowedHosts` applies). Then the server reconnects.
 * - The auth state is the connection's: a refused connect records 'needs-auth', a successful one
 *   'authorized'; cancelling or timing out changes nothing by itself.
 */
import { randomBytes } from 'node:crypto';
import { MastraError } from '@mastra/core/error';
import type { FetchLike } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import type { ServerConnection } from '../connection.js';
import { messageOf } from '../errors.js';
import { loadSdkClient } from '../sdk-load.js';
import { serverFetch } from '../transport/http.js';
import type { HttpServerDefinition } from '../types.js';
import { isAuthorizationRequired } from './auth-required.js';
import {
  getCallbackUrlCandidates,
  isLoopbackRedirectUrl,
  listenForCallback,
  type OAuthCallbackServer,
} from './callback-server.js';
import {
  INTERACTIVE,
  type InteractiveControl,
  MCPOAuthClientProvider,
  type PendingAuthorization,
} from './oauth-provider.js';

/** How long `authenticate()` waits for the browser by default: 5 minutes. */
export const DEFAULT_AUTHENTICATE_TIMEOUT_MS = 300_000;

interface RunningFlow {
  promise: Promise<void>;
  abort: AbortController;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export class ServerAuthenticator {
  private flow: RunningFlow | undefined;

  constructor(private readonly connection: ServerConnection) {}

  private get serverName(): string {
    return this.connection.name;
  }

  /** The server's provider, if `authenticate()` can drive it; otherwise a clear error. */
  private interactiveProvider(): { provider: MCPOAuthClientProvider; definition: HttpServerDefinition } {
    const definition = this.connection.definition as HttpServerDefinition;
    const provider = 'url' in definition ? definition.authProvider : undefined;
    const unsupported = (reason: string) =>
      mcpError(
        MCPErrorCode.CLIENT_AUTH_NOT_SUPPORTED,
        `MCP server '${this.serverName}': authenticate() ${reason}`,
        {
          server: this.serverName,
        },
      );
    if (!(provider instanceof MCPOAuthClientProvider)) {
      throw unsupported('needs an HTTP server whose authProvider is an MCPOAuthClientProvider');
    }
    if (!isLoopbackRedirectUrl(new URL(provider[INTERACTIVE].redirectUrl))) {
      throw unsupported(
        'needs a loopback http redirect URL (127.0.0.1, [::1] or localhost); with another redirect URL, host the callback yourself',
      );
    }
    return { provider, definition };
  }

  authenticate(timeoutMs = DEFAULT_AUTHENTICATE_TIMEOUT_MS): Promise<void> {
    if (this.flow) return this.flow.promise;
    let target: ReturnType<ServerAuthenticator['interactiveProvider']>;
    try {
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
        throw mcpError(
          MCPErrorCode.CLIENT_AUTH_INVALID_TIMEOUT,
          `MCP server '${this.serverName}': authenticate() timeoutMs must be a positive number of milliseconds`,
          { server: this.serverName },
        );
      }
      target = this.interactiveProvider();
    } catch (error) {
      return Promise.reject(error);
    }
    const abort = new AbortController();
    const promise = this.run(target.provider, target.definition, abort, timeoutMs).finally(() => {
      if (this.flow?.abort === abort) this.flow = undefined;
    });
    this.flow = { promise, abort };
    return promise;
  }

  /** Cancels the flow in progress; resolves once it has cleaned up. */
  async cancel(): Promise<boolean> {
    const flow = this.flow;
    if (!flow) return false;
    flow.abort.abort(
      mcpError(
        MCPErrorCode.CLIENT_AUTH_CANCELLED,
        `MCP server '${this.serverName}': the authorization was cancelled`,
        { server: this.serverName },
      ),
    );
    await flow.promise.catch(() => {});
    return true;
  }

  private async run(
    provider: MCPOAuthClientProvider,
    definition: HttpServerDefinition,
    abort: AbortController,
    timeoutMs: number,
  ): Promise<void> {
    const { signal } = abort;
    const timer = setTimeout(() => {
      abort.abort(
        mcpError(
          MCPErrorCode.CLIENT_AUTH_TIMEOUT,
          `MCP server '${this.serverName}': the authorization was not completed within ${timeoutMs} ms`,
          { server: this.serverName, timeoutMs },
        ),
      );
    }, timeoutMs);
    const control = provider[INTERACTIVE];
    let callback: OAuthCallbackServer | undefined;
    let begun = false;
    try {
      const pending = control.pendingAuthorization();
      // Binding takes a moment and is not interrupted; a cancel meanwhile closes the server at once.
      const bound = await this.bindCallback(control, pending);
      callback = bound.server;
      if (signal.aborted) throw signal.reason;
      control.begin({ redirectUrl: bound.redirectUrl, state: bound.state, redirected: bound.adopted });
      begun = true;
      this.connection.log(
        'info',
        bound.adopted
          ? `waiting for the authorization response on ${callback.url.origin}${callback.url.pathname}`
          : `authorization flow started; callback server on ${callback.url.origin}${callback.url.pathname}`,
      );
      const fetchFn = serverFetch(definition, this.serverName);
      if (!bound.adopted) {
        const outcome = await this.startAuthorization(provider, definition.url, pending, fetchFn, signal);
        if (outcome === 'connected') return;
      }
      await this.redeemCode(provider, definition.url, callback, fetchFn, signal);
      control.end();
      begun = false;
      await abortable(this.connection.reconnect(), signal);
      this.connection.log('info', 'authorized');
    } catch (error) {
      throw this.flowError(signal.aborted ? signal.reason : error);
    } finally {
      clearTimeout(timer);
      if (begun) control.end();
      await callback?.close();
    }
  }

  /**
   * Gets the user to the authorization server, unless no browser is needed: without an
   * authorization the SDK already asked for, a reconnect may succeed on stored (or refreshed)
   * tokens; a refused one makes the SDK start the authorization on the flow's callback URL.
   * Otherwise the SDK is asked directly, with the scope of the authorization it wanted.
   */
  private async startAuthorization(
    provider: MCPOAuthClientProvider,
    serverUrl: URL,
    pending: PendingAuthorization | undefined,
    fetchFn: FetchLike,
    signal: AbortSignal,
  ): Promise<'connected' | 'redirected'> {
    const control = provider[INTERACTIVE];
    await control.forgetAuthorization();
    if (!pending && (await this.reconnected(signal))) return 'connected';
    if (!control.redirected()) {
      const { auth } = await loadSdkClient();
      const result = await abortable(
        auth(provider, {
          serverUrl,
          fetchFn,
          forceReauthorization: true,
          ...(pending?.scope ? { scope: pending.scope } : {}),
        }),
        signal,
      );
      if (result === 'AUTHORIZED' && (await this.reconnected(signal))) return 'connected';
    }
    if (control.redirected()) return 'redirected';
    throw mcpError(
      MCPErrorCode.CLIENT_AUTH_FAILED,
      `MCP server '${this.serverName}': the authorization could not be started`,
      { server: this.serverName },
    );
  }

  /**
   * Waits for the browser, then exchanges the code with the SDK's `auth()`: the `iss` goes along
   * for the RFC 9207 check, and the token request goes to the authorization server pinned at
   * redirect time. The verifier and `state` are spent afterwards.
   */
  private async redeemCode(
    provider: MCPOAuthClientProvider,
    serverUrl: URL,
    callback: OAuthCallbackServer,
    fetchFn: FetchLike,
    signal: AbortSignal,
  ): Promise<void> {
    const { code, iss } = await abortable(callback.waitForCode(), signal);
    const { auth } = await loadSdkClient();
    const result = await abortable(
      auth(provider, { serverUrl, authorizationCode: code, ...(iss !== undefined ? { iss } : {}), fetchFn }),
      signal,
    );
    if (result !== 'AUTHORIZED') {
      throw mcpError(
        MCPErrorCode.CLIENT_AUTH_FAILED,
        `MCP server '${this.serverName}': the authorization code exchange did not yield tokens`,
        { server: this.serverName },
      );
    }
    await provider[INTERACTIVE].forgetAuthorization();
  }

  /**
   * The callback server: on the redirect URI of an authorization the SDK already started (adopted,
   * when its port is free), else on the provider's redirect URL or the next free candidate port.
   */
  private async bindCallback(
    control: InteractiveControl,
    pending: PendingAuthorization | undefined,
  ): Promise<{ server: OAuthCallbackServer; redirectUrl: string; state: string; adopted: boolean }> {
    const candidates = getCallbackUrlCandidates(control.redirectUrl);
    const adoptable = pending && new URL(pending.redirectUri);
    // Its own callback URL, when that is one this server may bind (a port-0 URL names no port to return to).
    if (
      pending &&
      adoptable &&
      adoptable.port !== '0' &&
      candidates.some((candidate) => candidate.href === adoptable.href)
    ) {
      try {
        const server = await listenForCallback([adoptable], pending.state);
        return { server, redirectUrl: pending.redirectUri, state: pending.state, adopted: true };
      } catch (error) {
        if (!(error instanceof MastraError && error.id === MCPErrorCode.CLIENT_OAUTH_CALLBACK_PORT_IN_USE))
          throw error;
      }
    }
    const state = randomBytes(32).toString('base64url');
    const server = await listenForCallback(candidates, state);
    // A port-0 redirect URL binds any port: the bound URL is the one to send.
    const redirectUrl =
      server.url.port === new URL(control.redirectUrl).port ? control.redirectUrl : server.url.href;
    return { server, redirectUrl, state, adopted: false };
  }

  /** Reconnects; false when the server wants authorization, which the connection has recorded. */
  private async reconnected(signal: AbortSignal): Promise<boolean> {
    try {
      await abortable(this.connection.reconnect(), signal);
      return true;
    } catch (error) {
      if (!signal.aborted && isAuthorizationRequired(error)) return false;
      throw error;
    }
  }

  private flowError(error: unknown): MastraError {
    if (error instanceof MastraError) return error;
    return mcpError(
      MCPErrorCode.CLIENT_AUTH_FAILED,
      `MCP server '${this.serverName}': authorization failed: ${messageOf(error)}`,
      { server: this.serverName },
      error,
    );
  }
}
