/**
 * Whether a connected server can be sent `events/*` at all: it must have negotiated 2026-07-28
 * (or later) and advertise `capabilities.extensions["io.modelcontextprotocol/events"]`. Every
 * events request goes through `eventsRequest()`, which checks this on the client it is about to
 * use, so a server that lacks the extension never receives one.
 */
import type { Client, RequestOptions, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { EVENTS_EXTENSION_ID } from '../../shared/events-wire.js';
import { MODERN_REVISION } from '../../shared/revisions.js';
import type { ServerConnection } from '../connection.js';

export function assertEventsSupported(connection: ServerConnection, client: Client): void {
  const version = client.getNegotiatedProtocolVersion();
  if (client.getProtocolEra() !== 'modern' || !version || version < MODERN_REVISION) {
    throw mcpError(
      MCPErrorCode.EVENTS_NOT_SUPPORTED,
      `MCP server '${connection.name}' negotiated revision ${version ?? 'unknown'}; events need ${MODERN_REVISION}`,
      { server: connection.name, protocolVersion: version },
    );
  }
  const extensions = client.getServerCapabilities()?.extensions as Record<string, unknown> | undefined;
  if (
    !extensions ||
    typeof extensions[EVENTS_EXTENSION_ID] !== 'object' ||
    extensions[EVENTS_EXTENSION_ID] === null
  ) {
    throw mcpError(
      MCPErrorCode.EVENTS_NOT_SUPPORTED,
      `MCP server '${connection.name}' does not advertise the ${EVENTS_EXTENSION_ID} extension`,
      { server: connection.name },
    );
  }
}

/** Params with the server's request `_meta` (log level, trace context) added. */
export function withMeta(
  connection: ServerConnection,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const meta = connection.requestMeta();
  return meta ? { ...params, _meta: meta } : params;
}

/**
 * One events request on the server's connection (reconnecting first when it was lost), after
 * the extension check.
 */
export function eventsRequest<S extends StandardSchemaV1>(
  connection: ServerConnection,
  method: string,
  params: Record<string, unknown>,
  schema: S,
  options: RequestOptions = {},
): Promise<StandardSchemaV1.InferOutput<S>> {
  return connection.run(async (client) => {
    assertEventsSupported(connection, client);
    return client.request({ method, params: withMeta(connection, params) }, schema, {
      timeout: connection.timeout,
      ...options,
    });
  });
}
