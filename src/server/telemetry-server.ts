/**
 * An SDK `Server` with OpenTelemetry (shared/telemetry/): a SERVER span per request it serves and
 * per notification it receives, a CLIENT span per request it sends its client, and the session
 * duration of a 2025 session or a stdio connection. MCPServer's instances (protocol-server.ts)
 * and a client proxy's gateway (src/proxy/) are both one, so a trace crosses either unbroken.
 */
import type {
  Implementation,
  JSONRPCNotification,
  JSONRPCRequest,
  MessageExtraInfo,
  Result,
  ServerContext,
  ServerOptions,
  Transport,
} from '@modelcontextprotocol/server';
import { instrumentSends, receivedNotification, servedRequest } from '../shared/telemetry/sdk-hooks.js';
import { SessionClock, type Telemetry } from '../shared/telemetry/telemetry.js';
import { type ErrorReporting, ErrorShapingServer } from './request-errors.js';
import { type InstanceLink, servedAttributes } from './request-telemetry.js';

export class TelemetryServer extends ErrorShapingServer {
  readonly link: InstanceLink = { overStdio: false };
  private readonly clock: SessionClock;

  constructor(
    info: Implementation,
    options: ServerOptions,
    reporting: ErrorReporting,
    private readonly telemetry: Telemetry,
    /** A 2025 session: its duration is measured from connect to close (so is a stdio connection's). */
    private readonly session: boolean,
  ) {
    super(info, options, reporting);
    const attributes = () => servedAttributes(this, this.link);
    this.clock = new SessionClock(telemetry, attributes);
    instrumentSends(this, telemetry, attributes);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    if (this.session || this.link.overStdio) this.clock.start();
  }

  protected override _onclose(): void {
    this.clock?.stop();
    super._onclose();
  }

  protected override _onnotification(notification: JSONRPCNotification, extra?: MessageExtraInfo): void {
    receivedNotification(
      this.telemetry,
      notification,
      () => servedAttributes(this, this.link),
      () => super._onnotification(notification, extra),
    );
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) =>
      servedRequest(
        this.telemetry,
        request,
        () => servedAttributes(this, this.link, ctx),
        () => wrapped(request, ctx),
      );
  }
}
