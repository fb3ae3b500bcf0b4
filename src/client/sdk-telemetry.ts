/**
 * The SDK `Client` a connection talks through, with OpenTelemetry (shared/telemetry/): a CLIENT span
 * per request it sends, a SERVER span per request the server sends it (elicitation, sampling,
 * roots), and the connection's session duration for a 2025 session or a stdio connection.
 */
import {
  Client,
  type ClientContext,
  type ClientOptions,
  type Implementation,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type Result,
  type Transport,
} from '@modelcontextprotocol/client';
import type { MCPAttributes } from '../shared/telemetry/attributes.js';
import { instrumentSends, receivedNotification } from '../shared/telemetry/sdk-hooks.js';
import { SessionClock, type Telemetry } from '../shared/telemetry/telemetry.js';
import type { MastraMCPServerDefinition } from './types.js';

/** What a server's definition says of the network: a URL is TCP to its host and port, a command a pipe. */
function networkOf(definition: MastraMCPServerDefinition): MCPAttributes {
  const url = 'url' in definition ? definition.url : undefined;
  if (!url) return { 'network.transport': 'pipe' };
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return {
    'network.transport': 'tcp',
    'server.address': url.hostname.replace(/^\[|\]$/g, ''),
    'server.port': port,
  };
}

export class TelemetryClient extends Client {
  private readonly network: MCPAttributes;
  private readonly session: SessionClock;

  constructor(
    info: Implementation,
    options: ClientOptions,
    private readonly telemetry: Telemetry,
    private readonly server: { name: string; definition: MastraMCPServerDefinition },
  ) {
    super(info, options);
    this.network = networkOf(server.definition);
    this.session = new SessionClock(telemetry, () => this.attributes());
    instrumentSends(this, telemetry, () => this.attributes());
  }

  /** The attributes every span and measurement of this connection carries, as of now. */
  private attributes(): MCPAttributes {
    const attributes: MCPAttributes = { ...this.network, 'mastra.mcp.server.name': this.server.name };
    const version = this.getNegotiatedProtocolVersion();
    if (version) attributes['mcp.protocol.version'] = version;
    // Only 2025 Streamable HTTP has an Mcp-Session-Id; 2026-07-28 has no sessions.
    const sessionId = this.getProtocolEra() === 'legacy' ? this.transport?.sessionId : undefined;
    if (sessionId) attributes['mcp.session.id'] = sessionId;
    return attributes;
  }

  override async connect(transport: Transport, options?: Parameters<Client['connect']>[1]): Promise<void> {
    await super.connect(transport, options);
    // 2026-07-28 HTTP has no session; a stdio connection counts as one.
    if (this.getProtocolEra() === 'legacy' || this.network['network.transport'] === 'pipe')
      this.session.start();
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
    // Registered from Client's constructor too, before `telemetry` is set: read it per request.
    return (request, ctx) =>
      this.telemetry
        ? this.telemetry.inbound(
            request,
            () => this.attributes(),
            () => wrapped(request, ctx),
          )
        : wrapped(request, ctx);
  }
}
