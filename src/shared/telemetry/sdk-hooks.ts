/**
 * Where telemetry meets an SDK protocol instance (a `Client` or a `Server`): the funnels every
 * request and notification it sends pass through (its own requests, retries of `input_required`
 * rounds, those a handler sends back to its peer), and the dispatch of the notifications it
 * receives. (Requests it serves are wrapped by the sides' `_wrapHandler`.)
 */
import type { MCPAttributes } from './attributes.js';
import type { MCPRequestShape, Telemetry } from './telemetry.js';

/** The SDK's private send funnels (`Protocol._requestWithSchemaViaCodec`, `_notificationViaCodec`) and id counter. */
interface SendFunnels {
  _requestWithSchemaViaCodec(
    codec: unknown,
    request: MCPRequestShape,
    schema: unknown,
    options: unknown,
  ): Promise<unknown>;
  _notificationViaCodec(codec: unknown, notification: MCPRequestShape, options: unknown): Promise<void>;
  _requestMessageId: number;
}

/** Every request and notification `protocol` sends goes out in a span, carrying its context in `_meta`. */
export function instrumentSends(
  protocol: object,
  telemetry: Telemetry,
  connection: () => MCPAttributes,
): void {
  if (!telemetry.enabled) return;
  const funnels = protocol as SendFunnels;
  const request = funnels._requestWithSchemaViaCodec.bind(protocol);
  const notify = funnels._notificationViaCodec.bind(protocol);
  // Own properties: they shadow the prototype's methods for this instance only.
  funnels._requestWithSchemaViaCodec = (codec, sending, schema, options) => {
    const next = funnels._requestMessageId;
    return telemetry.outbound(
      sending,
      connection,
      (sent) => request(codec, sent, schema, options),
      () => (funnels._requestMessageId > next ? String(next) : undefined),
    );
  };
  funnels._notificationViaCodec = (codec, notification, options) =>
    telemetry.outbound(notification, connection, (sent) => notify(codec, sent, options));
}

/** Dispatches a received notification (`super._onnotification`) in a span parented on its `_meta`. */
export function receivedNotification(
  telemetry: Telemetry | undefined,
  notification: MCPRequestShape,
  connection: () => MCPAttributes,
  dispatch: () => void,
): void {
  if (telemetry) void telemetry.inbound(notification, connection, async () => dispatch());
  else dispatch();
}
