/**
 * OpenTelemetry for a 2026-07-28 Streamable HTTP `subscriptions/listen` request, which the SDK's
 * handler answers itself (no protocol instance's handler runs, so nothing else traces it): a SERVER
 * span parented on the request's `_meta`, ended once the stream is opened (its acknowledgement is
 * the stream's first frame), and the open stream's lifetime measured as a server session.
 */
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { MCPAttributes } from '../../shared/telemetry/attributes.js';
import type { MCPRequestShape, Telemetry } from '../../shared/telemetry/telemetry.js';
import { requestAttributes } from '../request-telemetry.js';
import type { QueueingGuard } from './stream-guard.js';

export function tracedListen(
  telemetry: Telemetry,
  request: Request,
  body: unknown,
  guard: QueueingGuard,
  open: () => Promise<Response>,
): Promise<Response> {
  const listen = body as MCPRequestShape & { id?: string | number };
  const meta = listen.params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  const connection = (): MCPAttributes =>
    requestAttributes(request, typeof version === 'string' ? version : undefined);
  return telemetry.inbound(listen, connection, async () => {
    const response = await open();
    if (response.ok && response.headers.get('content-type')?.includes('text/event-stream')) {
      const end = telemetry.session(connection);
      guard.onEnd(() => end?.());
    }
    return response;
  });
}
