/**
 * Who receives server-initiated notifications. Legacy connections (stdio, SSE, each Streamable
 * HTTP session) and a modern stdio connection each own a live SDK instance; 2026-07-28 HTTP
 * clients listen through the `subscriptions/listen` bus of the HTTP handler. `notifyUpdated`
 * reaches only connections subscribed to that URI; serverless clients receive nothing. With a
 * `notifications.bus`, every event is also published to the other instances of this server, and
 * their events are delivered here. Local delivery does not depend on the bus: while it is down,
 * local clients are still told and the failed publish is logged.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { LoggingMessageNotification, ServerNotifier } from '@modelcontextprotocol/server';
import type { MCPServerBusEvent, MCPServerEventBus, MCPServerEventBusMember } from './event-bus.js';
import type { ProtocolInstance } from './protocol-server.js';

/** Each list-changed kind: what the modern listen streams are told, and what a live instance sends. */
const LIST_CHANGED = {
  tools_list_changed: { notify: 'toolsChanged', send: 'sendToolListChanged' },
  prompts_list_changed: { notify: 'promptsChanged', send: 'sendPromptListChanged' },
  resources_list_changed: { notify: 'resourcesChanged', send: 'sendResourceListChanged' },
} as const;

export interface LiveConnection extends ProtocolInstance {
  era: 'legacy' | 'modern';
  /** The transport session the SDK keys per-session log levels by (HTTP and SSE). */
  sessionId?: string | undefined;
}

export class Connections {
  private readonly live = new Set<LiveConnection>();
  private readonly notifiers = new Set<ServerNotifier>();
  private readonly member: MCPServerEventBusMember | undefined;

  /** `logger` is read at each use: a Mastra instance replaces the server's logger after construction. */
  constructor(
    private readonly logger: () => IMastraLogger,
    shared?: { bus: MCPServerEventBus; serverId: string },
  ) {
    const onError = (error: Error) =>
      this.logger().error(`MCP server '${shared?.serverId}' notification bus: ${error.message}`);
    this.member = shared?.bus.join(shared.serverId, {
      deliver: (event) => void this.deliver(event).catch(onError),
      onError,
    });
  }

  track(connection: LiveConnection): () => void {
    this.live.add(connection);
    return () => this.live.delete(connection);
  }

  addNotifier(notifier: ServerNotifier): void {
    this.notifiers.add(notifier);
  }

  /** Sends to each connection independently: one broken peer must not stop the others. */
  private async each(
    filter: (connection: LiveConnection) => boolean,
    send: (connection: LiveConnection) => Promise<void>,
  ): Promise<void> {
    const targets = [...this.live].filter(filter);
    const results = await Promise.allSettled(targets.map(send));
    for (const result of results) {
      if (result.status === 'rejected') {
        const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
        this.logger().debug(`MCP notification not delivered to one connection: ${reason}`);
      }
    }
  }

  toolsChanged(): Promise<void> {
    return this.emit({ kind: 'tools_list_changed' });
  }

  promptsChanged(): Promise<void> {
    return this.emit({ kind: 'prompts_list_changed' });
  }

  resourcesChanged(): Promise<void> {
    return this.emit({ kind: 'resources_list_changed' });
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.emit({ kind: 'resource_updated', uri });
  }

  log(params: LoggingMessageNotification['params']): Promise<void> {
    return this.emit({ kind: 'logging_message', params });
  }

  /** Delivers here and publishes to the other instances; a bus failure is logged, never thrown. */
  private async emit(event: MCPServerBusEvent): Promise<void> {
    await Promise.all([
      this.deliver(event),
      this.member?.publish(event).catch((error: Error) => {
        this.logger().error(
          `MCP notification '${event.kind}' not shared with other instances: ${error.message}`,
        );
      }),
    ]);
  }

  private async deliver(event: MCPServerBusEvent): Promise<void> {
    switch (event.kind) {
      case 'tools_list_changed':
      case 'prompts_list_changed':
      case 'resources_list_changed': {
        const { notify, send } = LIST_CHANGED[event.kind];
        for (const notifier of this.notifiers) notifier[notify]();
        return this.each(
          () => true,
          (c) => c.server[send](),
        );
      }
      // Modern listen streams filter by their own `resourceSubscriptions`; legacy ones by `resources/subscribe`.
      case 'resource_updated':
        for (const notifier of this.notifiers) notifier.resourceUpdated(event.uri);
        return this.each(
          (c) => c.era === 'modern' || c.subscriptions.has(event.uri),
          (c) => c.server.sendResourceUpdated({ uri: event.uri }),
        );
      // 2026-07-28 has no out-of-request log channel, so only legacy connections receive these.
      case 'logging_message':
        return this.each(
          (c) => c.era === 'legacy',
          (c) => c.server.sendLoggingMessage(event.params, c.sessionId),
        );
    }
  }

  async closeAll(): Promise<void> {
    await this.member?.leave().catch((error: Error) => this.logger().error(error.message));
    const connections = [...this.live];
    this.live.clear();
    this.notifiers.clear();
    await Promise.allSettled(connections.map((c) => c.server.close()));
  }
}
