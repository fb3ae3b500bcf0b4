/**
 * `mcpClient.elicitation.onRequest()`, the v1 MCPClient reference's way to answer a server's form
 * requests: adapted onto the connection's input request handler (the v2 `inputRequests` option).
 */
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/client';
import type { ConnectionLookup } from '../client/actions.js';
import { MCPErrorCode, mcpError } from '../errors.js';

/**
 * What an `elicitation.onRequest()` handler receives (the v1 MCPClient reference's
 * `ElicitationHandler` request): the form request's own fields (`message`, `requestedSchema`,
 * `_meta`), plus the server it came from, the request key and a signal that aborts when the
 * server or the call gives up.
 */
export type MCPElicitationRequest = ElicitRequestFormParams & {
  serverName: string;
  key: string;
  signal: AbortSignal;
};

/** The v1 MCPClient reference's `ElicitationHandler`: answers one form request from a server. */
export type ElicitationHandler = (request: MCPElicitationRequest) => ElicitResult | Promise<ElicitResult>;

/**
 * `mcpClient.elicitation` (v1 MCPClient reference): sets a server's handler for form requests.
 * The v2 equivalent is the server definition's `inputRequests`, which also answers URL requests.
 */
export interface MCPClientElicitation {
  onRequest(serverName: string, handler: ElicitationHandler): Promise<void>;
}

/**
 * `elicitation.onRequest()` (v1 MCPClient reference): the handler becomes the server's input
 * request handler, called with the form request's fields flattened as that reference documents.
 */
export function elicitationActions(lookup: ConnectionLookup): MCPClientElicitation {
  return {
    onRequest: async (serverName, handler) => {
      const connection = lookup.get(serverName);
      const hadHandler = connection.inputRequests !== undefined;
      connection.inputRequests = ({ key, params, signal }) => {
        // Only form support is declared for such a handler, so a URL request breaks the contract.
        if (params.mode === 'url')
          throw mcpError(
            MCPErrorCode.CLIENT_INPUT_REQUEST_UNSUPPORTED,
            `MCP server '${serverName}' sent a URL-mode input request, but handlers set with elicitation.onRequest() answer form requests only: configure the server's inputRequests option to answer URL requests`,
            { server: serverName, mode: 'url' },
          );
        return handler({ ...params, serverName, key, signal });
      };
      // The capability is declared at connect: a live connection without it must reconnect.
      if (!hadHandler && connection.connected) await connection.reconnect();
    },
  };
}
