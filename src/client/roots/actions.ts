/** `mcpClient.roots`: `set()` over the servers that have roots. */
import { MCPErrorCode, mcpError } from '../../errors.js';
import type { ConnectionLookup } from '../actions.js';
import { assertRoots } from './server-roots.js';
import type { MCPClientRoots } from './types.js';

export function rootsActions(lookup: ConnectionLookup): MCPClientRoots {
  return {
    set: async (roots, options) => {
      const server = options?.server;
      assertRoots(roots, 'roots', 'roots.set()', server);
      const targets = (server === undefined ? lookup.names() : [server]).map((name) => lookup.get(name));
      const holders = targets.flatMap((connection) => connection.answers.roots ?? []);
      if (holders.length === 0)
        throw mcpError(
          MCPErrorCode.CLIENT_INVALID_ROOTS,
          `roots.set(): ${server === undefined ? 'no server has' : `MCP server '${server}' has no`} roots option, so no server was told this client has roots (the capability is declared when connecting); give the client or the server \`roots: []\``,
          { server },
        );
      await Promise.all(holders.map((holder) => holder.set(roots)));
    },
  };
}
