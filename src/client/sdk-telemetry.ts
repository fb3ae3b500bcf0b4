/**
 * The SDK `Client` a connection talks through, with OpenTelemetry (shared/telemetry/): a CLIENT span
 * per request it sends (the connect's `server/discover` probe and the listen request through the
 * transport tap, transport-telemetry.ts), a SERVER span per request the server sends it
 * (elicitation, sampling, roots), and a session duration for a 2025 session, a stdio connection
 * and each `subscriptions/listen` stream.
 */
import {
  Client,
  type ClientContext,
  type ClientOptions,
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  type Implementation,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type McpSubscription,
  type MessageExtraInfo,
  type RequestOptions,
  type Result,
  SdkError,
  SdkErrorCode,
  type SubscriptionFilter,
  type Transport,
} from '@modelcontextprotocol/client';
import { isSessionRevision } from '../shared/revisions.js';
import type { MCPAttributes } from '../shared/telemetry/attributes.js';
import { instrumentSends, receivedNotification, servedRequest } from '../shared/telemetry/sdk-hooks.js';
import { SessionClock, type Telemetry } from '../shared/telemetry/telemetry.js';
import { TransportTap } from './transport-telemetry.js';
import type { MastraMCPServerDefinition } from './types.js';

/** What a server's definition says of the network: a URL is TCP to its host and port, a command a pipe. */
function networkOf(definition: MastraMCPServerDefinition): MCPAttributes {
  const url = 'url' in definition ? definition.url : undefined;
  if (!url) return { 'network.transport': 'pipe' };
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  // The HTTP version is the fetch implementation's choice, unseen here: only the name is recorded.
  return {
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    'server.address': url.hostname.replace(/^\[|\]$/g, ''),
    'server.port': port,
  };
}

export class TelemetryClient extends Client {
  private readonly network: MCPAttributes;
  private readonly session: SessionClock;
  private readonly tap: TransportTap;

  constructor(
    info: Implementation,
    options: ClientOptions,
    private readonly telemetry: Telemetry,
    private readonly server: { name: string; definition: MastraMCPServerDefinition },
  ) {
    super(info, options);
    this.network = networkOf(server.definition);
    this.session = new SessionClock(telemetry, () => this.attributes());
    const connection = () => this.attributes();
    this.tap = new TransportTap(telemetry, connection, instrumentSends(this, telemetry, connection));
  }

  /** The attributes every span and measurement of this connection carries, as of now. */
  private attributes(): MCPAttributes {
    const attributes: MCPAttributes = { ...this.network, 'mastra.mcp.server.name': this.server.name };
    const version = this.getNegotiatedProtocolVersion() ?? this.tap?.protocolVersion;
    if (version) attributes['mcp.protocol.version'] = version;
    // Only 2025 Streamable HTTP has an Mcp-Session-Id; 2026-07-28 has no sessions.
    const sessionId = isSessionRevision(version) ? this.transport?.sessionId : undefined;
    if (sessionId) attributes['mcp.session.id'] = sessionId;
    return attributes;
  }

  override async connect(transport: Transport, options?: Parameters<Client['connect']>[1]): Promise<void> {
    this.tap.attach(transport);
    try {
      await super.connect(transport, options);
    } catch (error) {
      this.tap.abandon(error);
      throw error;
    }
    // A probe still unanswered once connected is one the SDK stopped waiting for, after its timeout.
    const timeout = options?.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC;
    this.tap.abandon(new SdkError(SdkErrorCode.RequestTimeout, 'server/discover timed out', { timeout }));
    // 2026-07-28 HTTP has no session; a stdio connection counts as one.
    if (this.getProtocolEra() === 'legacy' || this.network['network.transport'] === 'pipe')
      this.session.start();
  }

  /**
   * Opens a listen stream in a CLIENT span that ends with the server's acknowledgement (the
   * conventions' "response or ack"); the open stream then counts as a session until it closes.
   */
  override async listen(filter: SubscriptionFilter, options?: RequestOptions): Promise<McpSubscription> {
    const request = { method: 'subscriptions/listen', params: { notifications: filter } };
    const subscription = await this.telemetry.outbound(
      request,
      () => this.attributes(),
      (sent) => {
        this.tap.listenId = undefined;
        this.tap.listenMeta = sent.params?._meta as Record<string, unknown> | undefined;
        try {
          return super.listen(filter, options);
        } finally {
          this.tap.listenMeta = undefined;
        }
      },
      () => this.tap.listenId,
    );
    const end = this.telemetry.session(() => this.attributes());
    if (end) void subscription.closed.then(() => end());
    return subscription;
  }

  protected override _onclose(): void {
    this.session?.stop();
    super._onclose();
  }

  protected override _onnotification(notification: JSONRPCNotification, extra?: MessageExtraInfo): void {
    receivedNotification(
      this.telemetry,
      notification,
      () => this.attributes(),
      () => super._onnotification(notification, extra),
    );
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) =>
      servedRequest(
        this.telemetry,
        request,
        () => this.attributes(),
        () => wrapped(request, ctx),
      );
  }
}
