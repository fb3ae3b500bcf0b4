/**
 * The seam that carries server-initiated notifications between MCPServer instances that serve the
 * same server behind one URL (`notifications.bus`). The SDK's `ServerEventBus` feeds only the
 * `subscriptions/listen` streams of one `createMcpHandler`; an instance must also reach its legacy
 * sessions, stdio and SSE connections, and log messages, so MCPServer joins this bus instead and
 * delivers whatever arrives to all of its own connections (connections.ts).
 *
 * Contract: each instance joins once per server id. `publish()` reaches every other member of that
 * server id and never the publisher itself (which has already delivered locally), so an event
 * reaches each connection exactly once and nothing is echoed back. Delivery across instances may
 * be at most once (pub/sub): list_changed and resource updates are hints, clients re-read.
 */

import type { LoggingMessageNotification } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';

/** The SDK's `ServerEvent` kinds (without forwarded params) plus log messages for legacy sessions. */
export type MCPServerBusEvent =
  | { kind: 'tools_list_changed' }
  | { kind: 'prompts_list_changed' }
  | { kind: 'resources_list_changed' }
  | { kind: 'resource_updated'; uri: string }
  | { kind: 'logging_message'; params: LoggingMessageNotification['params'] };

export interface MCPServerEventBusListener {
  /** An event another member published; called synchronously, must not throw. */
  deliver(event: MCPServerBusEvent): void;
  /** Something the bus could not do or dropped (a failed subscription, a malformed message). */
  onError(error: Error): void;
}

export interface MCPServerEventBusMember {
  /** Sends `event` to the other members; rejects when it could not be handed to the bus. */
  publish(event: MCPServerBusEvent): Promise<void>;
  /** Stops delivery to this member; idempotent. */
  leave(): Promise<void>;
}

export interface MCPServerEventBus {
  join(serverId: string, listener: MCPServerEventBusListener): MCPServerEventBusMember;
}

/** The bus membership `config` asks for: the bus and the id all instances share, or none. */
export function busMembership(
  config: { id?: string; name: string; notifications?: { bus?: MCPServerEventBus } },
  serverId: string,
): { bus: MCPServerEventBus; serverId: string } | undefined {
  const bus = config.notifications?.bus;
  if (!bus) return undefined;
  if (config.id === undefined) {
    throw mcpError(
      MCPErrorCode.SERVER_NOTIFICATION_BUS_NEEDS_ID,
      `MCP server '${config.name}': notifications.bus needs an explicit \`id\`, the same on every instance (the bus channel is named after it); a generated id differs per process`,
      { serverName: config.name },
    );
  }
  return { bus, serverId };
}
