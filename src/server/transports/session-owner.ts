/**
 * Who may use a legacy session (Streamable HTTP session, HTTP+SSE connection): the principal that
 * opened it. A session opened without credentials has no owner and stays open to any caller, as
 * when only the message endpoint is protected; to anyone else an owned session does not exist.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { principalOf } from '../auth/principal.js';

/** Who opened a session (`principalOf` its request's auth); `undefined` without credentials. */
export type SessionOwner = string | undefined;

export function mayUseSession(owner: SessionOwner, authInfo: AuthInfo | undefined): boolean {
  return owner === undefined || owner === principalOf(authInfo);
}
