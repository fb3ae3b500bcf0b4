/**
 * What MCPServer's spans and measurements say of where a request came from: the session (a 2025
 * session's id only: 2026-07-28 has none), the revision, and the network (TCP with the client's
 * address for HTTP, a pipe for stdio). Node's socket is behind the web `Request` the SDK hands
 * handlers, so the HTTP entry remembers each request's peer here (web-bridge.ts).
 */
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isSessionRevision } from '../shared/revisions.js';
import type { MCPAttributes } from '../shared/telemetry/attributes.js';

interface Peer {
  address: string | undefined;
  port: number | undefined;
  httpVersion: string;
}

const peers = new WeakMap<Request, Peer>();

/** Records who sent `request` (its socket's remote end) and over which HTTP version, for its spans. */
export function rememberPeer(
  request: Request,
  incoming: { httpVersion: string; socket?: { remoteAddress?: string; remotePort?: number } | null },
): void {
  const socket = incoming.socket ?? undefined;
  peers.set(request, {
    address: socket?.remoteAddress,
    port: socket?.remotePort,
    httpVersion: incoming.httpVersion,
  });
}

/** How the instance is reached: `pipe` once it serves stdio, else TCP when a request came over HTTP. */
export interface InstanceLink {
  overStdio: boolean;
}

/** The attributes of a request `server` serves (`ctx`) or sends (no `ctx`). */
export function servedAttributes(server: Server, link: InstanceLink, ctx?: ServerContext): MCPAttributes {
  const attributes: MCPAttributes = {};
  const envelope = ctx?.mcpReq.envelope as Record<string, unknown> | undefined;
  const version =
    (envelope?.[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? server.getNegotiatedProtocolVersion();
  if (version) attributes['mcp.protocol.version'] = version;
  const sessionId = ctx ? ctx.sessionId : server.transport?.sessionId;
  if (sessionId && isSessionRevision(version)) attributes['mcp.session.id'] = sessionId;
  if (link.overStdio) {
    attributes['network.transport'] = 'pipe';
    return attributes;
  }
  const request = ctx?.http?.req;
  if (request) return requestAttributes(request, attributes['mcp.protocol.version'], attributes);
  if (sessionId) attributes['network.transport'] = 'tcp';
  return attributes;
}

/** The attributes of an HTTP request at `version`: TCP, and its peer's address when known. */
export function requestAttributes(
  request: Request,
  version: string | undefined,
  attributes: MCPAttributes = {},
): MCPAttributes {
  if (version) attributes['mcp.protocol.version'] = version;
  attributes['network.transport'] = 'tcp';
  attributes['network.protocol.name'] = 'http';
  const peer = peers.get(request);
  if (peer) {
    attributes['network.protocol.version'] = peer.httpVersion;
    if (peer.address) {
      attributes['client.address'] = peer.address;
      if (peer.port !== undefined) attributes['client.port'] = peer.port;
    }
  }
  return attributes;
}
