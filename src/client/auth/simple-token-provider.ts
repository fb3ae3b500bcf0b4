/**
 * `createSimpleTokenProvider`: an `MCPOAuthClientProvider` that starts out holding one access
 * token, for tests and for callers that already have a valid token. The token is sent as a Bearer
 * token on every request; when the server rejects it the server's state becomes 'needs-auth' as
 * with any provider (there is no refresh token to fall back on). Without `clientInformation` (the
 * v1 reference's shape) the provider registers a client if it ever needs to authorize.
 */
import type { OAuthClientInformationMixed, OAuthClientMetadata } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import {
  anyObject,
  assertOptions,
  either,
  type OptionsOf,
  object,
  required,
  string,
  url,
} from '../../shared/options.js';
import { MCPOAuthClientProvider } from './oauth-provider.js';
import { InMemoryOAuthStorage, STORAGE_KEYS } from './storage.js';

export interface SimpleTokenProviderOptions {
  redirectUrl: string | URL;
  clientMetadata: OAuthClientMetadata;
  /** A pre-registered client; without one, a client is registered at runtime if authorization is needed. */
  clientInformation?: OAuthClientInformationMixed;
}

const OPTIONS = object(
  {
    redirectUrl: required(either(string, url)),
    clientMetadata: required(anyObject),
    clientInformation: anyObject,
  } satisfies OptionsOf<SimpleTokenProviderOptions>,
  'createSimpleTokenProvider()',
);

export function createSimpleTokenProvider(
  token: string,
  options: SimpleTokenProviderOptions,
): MCPOAuthClientProvider {
  assertOptions(OPTIONS, options, {
    where: 'createSimpleTokenProvider()',
    label: 'the createSimpleTokenProvider() options',
    code: MCPErrorCode.CLIENT_OAUTH_INVALID_CONFIG,
  });
  if (typeof token !== 'string' || token === '') {
    throw mcpError(
      MCPErrorCode.CLIENT_OAUTH_INVALID_CONFIG,
      'createSimpleTokenProvider: the token must be a non-empty string',
      {
        fields: 'token',
      },
    );
  }
  const storage = new InMemoryOAuthStorage({
    [STORAGE_KEYS.latestTokens]: JSON.stringify({ access_token: token, token_type: 'Bearer' }),
  });
  return new MCPOAuthClientProvider({ ...options, storage });
}
