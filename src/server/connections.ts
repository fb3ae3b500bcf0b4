/**
 * Who receives server-initiated notifications. Legacy connections (stdio, SSE, each Streamable
 * HTTP session) and a modern stdio connection each own a live SDK instance; 2026-07-28 HTTP
 * clients listen through the `subscriptions/listen` bus of the HTTP handler. `notifyUpdated`
 * reaches only connections subscribed to that URI; serverless clients receive nothing. Log
 * messages reach legacy connections at their `logging/setLevel` and a 2026-07-28 stdio connection
 * at the level its requests name; 2026-07-28 HTTP clients have no channel for them. With a
 * `notifications.bus`, every event is also published to the other instances of this server, and
 * their events are delivered here. Local delivery does not depend on the bus: while it is down,
 * local clients are still told and the failed publish is logged. A broadcast goes to every
 * connection at once and waits for none longer than `limits.streamWriteTimeoutMs`, and so does
 * `closeAll()`: one client that stops reading holds up neither the others nor the caller.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { LoggingLevel, LoggingMessageNotification, ServerNotifier } from '@modelcontextprotocol/server';
import type { MCPServerBusEvent, MCPServerEventBus, MCPServerEventBusMember } from './event-bus.js';
import { DEFAULT_LIMITS } from './limits.js';
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

/**
 * How much longer than `limits.streamWriteTimeoutMs` a broadcast waits for one connection: an HTTP
 * stream's own bound of that length (stream-guard.ts) closes a stalled stream first, so what is
 * left to report here is what nothing else bounds (a stdio parent that stopped reading).
 */
const GRACE_MS = 250;

/**
 * RFC 5424 severities, least severe first (`indexOf(level)` below stops compiling should the
 * protocol's LoggingLevel ever name one this list lacks).
 */
const SEVERITY = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const satisfies readonly LoggingLevel[];

/**
 * Whether a log message at `level` goes to `connection`. The SDK filters a legacy one by its
 * `logging/setLevel`. 2026-07-28 has no such method: each request names its own level, and one
 * that names none gets no log messages, so a modern (stdio) connection hears those at or above the
 * level its latest request named, and none before it named one.
 */
function hearsLog(connection: LiveConnection, level: LoggingLevel): boolean {
  if (connection.era === 'legacy') return true;
  const wanted = connection.requestedLogLevel?.();
  return wanted !== undefined && SEVERITY.indexOf(level) >= SEVERITY.indexOf(wanted);
}

/** How logs name a connection: only stdio connections have no session id. */
function nameOf(connection: LiveConnection): string {
  return connection.sessionId === undefined ? 'the stdio connection' : `session '${connection.sessionId}'`;
}

export class Connections {
  private readonly live = new Set<LiveConnection>();
  private readonly notifiers = new Set<ServerNotifier>();
  private readonly member: MCPServerEventBusMember | undefined;
  /** Whether the server log said, once, that log messages do not reach 2026-07-28 HTTP clients. */
  private logsUnreachableNoted = false;

  /**
   * `logger` is read at each use: a Mastra instance replaces the server's logger after construction.
   * `waitMs` is `limits.streamWriteTimeoutMs`.
   */
  constructor(
    private readonly logger: () => IMastraLogger,
    shared?: { bus: MCPServerEventBus; serverId: string },
    private readonly waitMs = DEFAULT_LIMITS.streamWriteTimeoutMs,
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

  /**
   * Runs `work` on every connection at once, each independently: one broken peer does not stop the
   * others, and none is waited for much beyond `waitMs` (a stdio parent that stopped reading would
   * hold its send forever; the HTTP transports close such streams themselves within that time).
   */
  private async settleEach(
    connections: LiveConnection[],
    what: string,
    work: (connection: LiveConnection) => Promise<void>,
  ): Promise<void> {
    if (connections.length === 0) return;
    const pending = connections.map((connection) => ({
      connection,
      outcome: work(connection).then(
        () => 'done' as const,
        (error: unknown) => ({ error }),
      ),
    }));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, this.waitMs + GRACE_MS, 'late').unref();
    });
    try {
      await Promise.all(
        pending.map(async ({ connection, outcome: settled }) => {
          const outcome = await Promise.race([settled, late]);
          if (outcome === 'late') {
            this.logger().error(
              `MCP ${what} not done for ${nameOf(connection)} within ${this.waitMs + GRACE_MS} ms, no longer waited for ` +
                '(raise limits.streamWriteTimeoutMs for slower clients)',
            );
          } else if (outcome !== 'done') {
            const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
            this.logger().debug(`MCP ${what} not done for ${nameOf(connection)}: ${reason}`);
          }
        }),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private each(
    event: MCPServerBusEvent,
    filter: (connection: LiveConnection) => boolean,
    send: (connection: LiveConnection) => Promise<void>,
  ): Promise<void> {
    return this.settleEach([...this.live].filter(filter), `notification '${event.kind}'`, send);
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
          event,
          () => true,
          (c) => c.server[send](),
        );
      }
      // Modern listen streams filter by their own `resourceSubscriptions`; legacy ones by `resources/subscribe`.
      case 'resource_updated':
        for (const notifier of this.notifiers) notifier.resourceUpdated(event.uri);
        return this.each(
          event,
          (c) => c.era === 'modern' || c.subscriptions.has(event.uri),
          (c) => c.server.sendResourceUpdated({ uri: event.uri }),
        );
      case 'logging_message':
        this.noteLogsUnreachable();
        return this.each(
          event,
          (c) => hearsLog(c, event.params.level),
          (c) => c.server.sendLoggingMessage(event.params, c.sessionId),
        );
    }
  }

  /**
   * Once 2026-07-28 HTTP clients were served (their handler's notifier is here), says once that log
   * messages do not reach them: that revision sends one only on the stream of the request that
   * asked for it, never on a listen stream, and their requests hold no stream between calls.
   */
  private noteLogsUnreachable(): void {
    if (this.logsUnreachableNoted || this.notifiers.size === 0) return;
    this.logsUnreachableNoted = true;
    this.logger().debug(
      'MCP log messages (sendLoggingMessage()) are not sent to 2026-07-28 HTTP clients: that revision ' +
        'sends notifications/message only on the stream of the request that asked for it; a tool logs to ' +
        'its caller with context.mcp.log()',
    );
  }

  async closeAll(): Promise<void> {
    await this.member?.leave().catch((error: Error) => this.logger().error(error.message));
    const connections = [...this.live];
    this.live.clear();
    this.notifiers.clear();
    await this.settleEach(connections, 'close', (c) => c.server.close());
  }
}
