/**
 * The one-shot loopback server that receives the browser's authorization response (RFC 8252
 * §7.3). Invariants: it listens only on a loopback redirect URL over plain HTTP (anything else is
 * refused); it binds the redirect URL's port or, when that is taken, the next of
 * `CALLBACK_PORT_ATTEMPTS` sequential ports, exactly the URLs `getCallbackUrlCandidates()` lists;
 * only a GET on the redirect path whose `state` equals the expected one counts. A response with a
 * foreign or missing `state` is answered 400 and ignored, and the server keeps waiting: a request
 * any local page or process can forge must not end the user's sign-in. The first response with the
 * right `state` settles `waitForCode()` (a code resolves it, an `error` rejects it) and the server
 * closes itself.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MCPErrorCode, mcpError } from '../../errors.js';

/** How many sequential ports (the redirect URL's own first) the callback server tries. */
export const CALLBACK_PORT_ATTEMPTS = 10;

export interface OAuthCallbackServerOptions {
  /** A loopback `http:` URL: 127.0.0.1, [::1] or localhost. */
  redirectUrl: string | URL;
  /** The OAuth `state` the authorization request carried. */
  state: string;
}

export interface OAuthCallbackResult {
  code: string;
  /** RFC 9207 issuer identifier, when the authorization server sent one: pass it to the code exchange. */
  iss?: string;
}

export interface OAuthCallbackServer {
  /** The URL actually bound: the redirect URL, or the same URL on the fallback port that was free. */
  readonly url: URL;
  waitForCode(): Promise<OAuthCallbackResult>;
  close(): Promise<void>;
}

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether `url` is a redirect URL the loopback callback server may serve. */
export function isLoopbackRedirectUrl(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTNAMES.has(url.hostname);
}

function loopbackUrl(redirectUrl: string | URL): URL {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch (error) {
    throw mcpError(
      MCPErrorCode.CLIENT_OAUTH_INVALID_REDIRECT_URL,
      'OAuth callback server: redirectUrl is not a valid URL',
      { field: 'redirectUrl' },
      error,
    );
  }
  if (!isLoopbackRedirectUrl(url)) {
    throw mcpError(
      MCPErrorCode.CLIENT_OAUTH_INVALID_REDIRECT_URL,
      `OAuth callback server: '${url.origin}' is not a loopback http URL (http://127.0.0.1, http://[::1] or http://localhost); an https redirect URL needs a callback endpoint of your own`,
      { field: 'redirectUrl' },
    );
  }
  return url;
}

/**
 * Every URL the callback server may bind for `redirectUrl`, in the order it tries them: the URL
 * itself, then the same URL on each following port. Register all of them as redirect URIs. A
 * port-0 URL (any free port) has itself as its only candidate.
 */
export function getCallbackUrlCandidates(redirectUrl: string | URL): URL[] {
  const url = loopbackUrl(redirectUrl);
  const first = url.port === '' ? 80 : Number(url.port);
  if (first === 0) return [url];
  const candidates: URL[] = [];
  for (let port = first; port < first + CALLBACK_PORT_ATTEMPTS && port <= 65_535; port++) {
    const candidate = new URL(url);
    candidate.port = String(port);
    candidates.push(candidate);
  }
  return candidates;
}

function sameSecret(received: string | null, expected: string): boolean {
  if (received === null) return false;
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An authorization server's error text, reduced to what is safe to show and log. */
function printable(value: string | null, max: number): string | undefined {
  if (!value) return undefined;
  const clean = value.replace(/[^\x20-\x7e]/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max)}...` : clean;
}

const PAGE_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

function listen(server: http.Server, url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, ''));
  });
}

/**
 * The callback server on the first of `candidates` that is free (EADDRINUSE moves on to the next;
 * any other listen error fails at once).
 */
export async function listenForCallback(candidates: URL[], state: string): Promise<OAuthCallbackServer> {
  if (typeof state !== 'string' || state === '') {
    throw mcpError(
      MCPErrorCode.CLIENT_OAUTH_INVALID_STATE,
      'OAuth callback server: state must be a non-empty string',
      {
        field: 'state',
      },
    );
  }
  let settle: { resolve(result: OAuthCallbackResult): void; reject(error: Error): void } | undefined;
  const result = new Promise<OAuthCallbackResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // close() before a response rejects it; nobody has to be waiting.
  result.catch(() => {});
  let done = false;
  let bound: URL | undefined;
  const finish = (outcome: () => void) => {
    if (done) return;
    done = true;
    outcome();
  };

  const server = http.createServer((req, res) => {
    const target = bound as URL;
    const url = new URL(req.url ?? '/', target);
    if (req.method !== 'GET' || url.pathname !== target.pathname) {
      res.writeHead(404, PAGE_HEADERS).end('Not found.');
      return;
    }
    if (done) {
      res.writeHead(410, PAGE_HEADERS).end('This sign-in has already finished.');
      return;
    }
    const params = url.searchParams;
    if (!sameSecret(params.get('state'), state)) {
      res.writeHead(400, PAGE_HEADERS).end('This authorization response does not belong to this sign-in.');
      return;
    }
    const error = params.get('error');
    if (error !== null) {
      const code = /^[\w.-]{1,64}$/.test(error) ? error : 'invalid_error_code';
      const description = printable(params.get('error_description'), 200);
      res.writeHead(400, PAGE_HEADERS).end(`Authorization failed (${code}). You can close this window.`);
      res.once('finish', () => void close());
      finish(() =>
        settle?.reject(
          mcpError(
            MCPErrorCode.CLIENT_OAUTH_AUTHORIZATION_FAILED,
            `The authorization server refused the authorization: ${code}${description ? ` (${description})` : ''}`,
            { error: code },
          ),
        ),
      );
      return;
    }
    const code = params.get('code');
    if (!code) {
      res.writeHead(400, PAGE_HEADERS).end('This authorization response carries no code.');
      return;
    }
    const iss = params.get('iss');
    res.writeHead(200, PAGE_HEADERS).end('Authorization complete. You can close this window.');
    res.once('finish', () => void close());
    finish(() => settle?.resolve({ code, ...(iss !== null ? { iss } : {}) }));
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    finish(() =>
      settle?.reject(
        mcpError(
          MCPErrorCode.CLIENT_OAUTH_CALLBACK_CLOSED,
          'The OAuth callback server closed before the authorization response arrived',
          {},
        ),
      ),
    );
    closing ??= new Promise<void>((resolve) => {
      if (!server.listening) {
        resolve();
        return;
      }
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };

  for (const candidate of candidates) {
    try {
      await listen(server, candidate);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
      throw mcpError(
        MCPErrorCode.CLIENT_OAUTH_CALLBACK_LISTEN_FAILED,
        `OAuth callback server: cannot listen on ${candidate.host}: ${(error as Error).message}`,
        { host: candidate.host },
        error,
      );
    }
    const url = new URL(candidate);
    url.port = String((server.address() as AddressInfo).port);
    bound = url;
    return { url, waitForCode: () => result, close };
  }
  const hosts = candidates.map((candidate) => candidate.host);
  throw mcpError(
    MCPErrorCode.CLIENT_OAUTH_CALLBACK_PORT_IN_USE,
    `OAuth callback server: every candidate port is in use (${hosts[0]}${hosts.length > 1 ? ` to ${hosts.at(-1)}` : ''})`,
    { ports: hosts.join(',') },
  );
}

/** A one-shot loopback server for the authorization response of the sign-in that sent `state`. */
export async function createOAuthCallbackServer(
  options: OAuthCallbackServerOptions,
): Promise<OAuthCallbackServer> {
  return listenForCallback(getCallbackUrlCandidates(options.redirectUrl), options.state);
}
