/**
 * Which failures mean "the server wants authorization": the SDK's `UnauthorizedError` (a 401 the
 * provider could not answer, or an authorization redirect it started), a 401 that survived a
 * token refresh, an `insufficient_scope` the transport may not step up, and our own
 * `MCP_CLIENT_AUTH_REQUIRED`. A connection that fails with one records 'needs-auth'.
 */
import { MastraError } from '@mastra/core/error';
import { SdkHttpError } from '@modelcontextprotocol/server';
import { MCPErrorCode } from '../../errors.js';
import { causeChain } from '../errors.js';
import { isSdkClientError } from '../sdk-load.js';

export type ServerAuthState = 'needs-auth' | 'authorized';

export function isAuthorizationRequired(error: unknown): boolean {
  for (const current of causeChain(error)) {
    if (isSdkClientError(current, 'UnauthorizedError') || isSdkClientError(current, 'InsufficientScopeError'))
      return true;
    if (current instanceof SdkHttpError && current.status === 401) return true;
    if (current instanceof MastraError && current.id === MCPErrorCode.CLIENT_AUTH_REQUIRED) return true;
  }
  return false;
}
