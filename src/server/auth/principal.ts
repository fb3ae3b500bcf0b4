/**
 * Who a request comes from, as one string: what legacy sessions, suspended calls and webhook
 * subscriptions are bound to. `undefined` means an unauthenticated caller.
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** The token's subject, else its client id, else a digest of the token (an API key's identity). */
export function defaultPrincipal(authInfo: AuthInfo): string | undefined {
  const subject = authInfo.extra?.subject ?? authInfo.extra?.sub;
  if (typeof subject === 'string' && subject) return `sub:${subject}`;
  if (authInfo.clientId) return `client:${authInfo.clientId}`;
  if (authInfo.token)
    return `token:${createHash('sha256').update(authInfo.token).digest('hex').slice(0, 32)}`;
  return undefined;
}

/** The principal of an optional `AuthInfo` (`undefined` without one). */
export function principalOf(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo ? defaultPrincipal(authInfo) : undefined;
}
