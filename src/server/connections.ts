/**
 * Who receives server-initiated notifications. Legacy connections (stdio, SSE, each Streamable
 * HTTP session) and a modern stdio connection each own a live SDK instance; 2026-07-28 HTTP
 * clients listen through the `subscriptions/listen` bus of the HTTP handler. `notifyUpdated`
 * reaches only connections subscribed to that URI; serverless clients receive nothing.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { LoggingMessageNotification, ServerNotifier } from '@modelcontextprotocol/server';
import type { ProtocolInstance } from './protocol-server.js';

export interface LiveConnection extends ProtocolInstance {
  era: 'legacy' | 'modern';
  /** The transport session the SDK keys per-session log levels by (HTTP and SSE). */
  sessionId?: string | undefined;
}

export class Connections {
  private readonly live = new Set<LiveConnection>();
  private readonly notifiers = new Set<ServerNotifier>();

  constructor(private readonly logger: IMastraLogger) {}

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
        this.logger.debug(`MCP notification not delivered to one connection: ${reason}`);
      }
    }
  }

  async toolsChanged(): Promise<void> {
    for (const notifier of this.notifiers) notifier.toolsChanged();
    await this.each(
      () => true,
      (c) => c.server.sendToolListChanged(),
    );
  }

  async promptsChanged(): Promise<void> {
    for (const notifier of this.notifiers) notifier.promptsChanged();
    await this.each(
      () => true,
      (c) => c.server.sendPromptListChanged(),
    );
  }

  async resourcesChanged(): Promise<void> {
    for (const notifier of this.notifiers) notifier.resourcesChanged();
    await this.each(
      () => true,
      (c) => c.server.sendResourceListChanged(),
    );
  }

  /** Modern listen streams filter by their own `resourceSubscriptions`; legacy ones by `resources/subscribe`. */
  async resourceUpdated(uri: string): Promise<void> {
    for (const notifier of this.notifiers) notifier.resourceUpdated(uri);
    await this.each(
      (c) => c.era === 'modern' || c.subscriptions.has(uri),
      (c) => c.server.sendResourceUpdated({ uri }),
    );
  }

  /** 2026-07-28 has no out-of-request log channel, so only legacy connections receive these. */
  async log(params: LoggingMessageNotification['params']): Promise<void> {
    await this.each(
      (c) => c.era === 'legacy',
      (c) => c.server.sendLoggingMessage(params, c.sessionId),
    );
  }

  async closeAll(): Promise<void> {
    const connections = [...this.live];
    this.live.clear();
    this.notifiers.clear();
    await Promise.allSettled(connections.map((c) => c.server.close()));
  }
}
