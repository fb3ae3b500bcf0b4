/**
 * Where telemetry meets an SDK protocol instance (a `Client` or a `Server`): the funnels every
 * request and notification it sends pass through (its own requests, retries of `input_required`
 * rounds, those a handler sends back to its peer), the dispatch of the notifications it receives,
 * and (client side) the transport, for the few messages the SDK writes to it directly. (Requests
 * it serves are wrapped by the sides' `_wrapHandler`.)
 *
 * The funnels are private SDK members: test/unit/telemetry.unit.test.ts fails when an SDK upgrade
 * renames them, and an SDK without them sends untraced rather than failing.
 */
import type { MCPAttributes } from './attributes.js';
import type { MCPRequestShape, Telemetry } from './telemetry.js';

/** The SDK's private send funnels (`Protocol._requestWithSchemaViaCodec`, `_notificationViaCodec`) and id counter. */
export interface SendFunnels {
  _requestWithSchemaViaCodec(
    codec: unknown,
    request: MCPRequestShape,
    schema: unknown,
    options: unknown,
  ): Promise<unknown>;
  _notificationViaCodec(codec: unknown, notification: MCPRequestShape, options: unknown): Promise<void>;
  _requestMessageId: number;
}

/** What the funnels are sending right now: the transport tap leaves those messages to them. */
export interface SendState {
  funnelling: number;
}

/** Whether `protocol` has the funnels this SDK version is instrumented through. */
export function hasSendFunnels(protocol: object): boolean {
  const funnels = protocol as Partial<SendFunnels>;
  return (
    typeof funnels._requestWithSchemaViaCodec === 'function' &&
    typeof funnels._notificationViaCodec === 'function' &&
    typeof funnels._requestMessageId === 'number'
  );
}

/** Every request and notification `protocol` sends goes out in a span, carrying its context in `_meta`. */
export function instrumentSends(
  protocol: object,
  telemetry: Telemetry,
  connection: () => MCPAttributes,
): SendState {
  const state: SendState = { funnelling: 0 };
  if (!telemetry.enabled || !hasSendFunnels(protocol)) return state;
  const funnels = protocol as SendFunnels;
  const request = funnels._requestWithSchemaViaCodec.bind(protocol);
  const notify = funnels._notificationViaCodec.bind(protocol);
  // The SDK hands the message to the transport synchronously: the count covers that hand-over.
  const funnelled = <T>(send: () => T): T => {
    state.funnelling++;
    try {
      return send();
    } finally {
      state.funnelling--;
    }
  };
  // Own properties: they shadow the prototype's methods for this instance only.
  funnels._requestWithSchemaViaCodec = (codec, sending, schema, options) => {
    // Read as the request goes out: outbound() may hold it while the API loads, others going first.
    let next = Number.POSITIVE_INFINITY;
    return telemetry.outbound(
      sending,
      connection,
      (sent) => {
        next = funnels._requestMessageId;
        return funnelled(() => request(codec, sent, schema, options));
      },
      () => (funnels._requestMessageId > next ? String(next) : undefined),
    );
  };
  funnels._notificationViaCodec = (codec, notification, options) =>
    telemetry.outbound(notification, connection, (sent) => funnelled(() => notify(codec, sent, options)));
  return state;
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

/**
 * Handles a received request (a `_wrapHandler`'s wrapped handler) in a span parented on its
 * `_meta`. `telemetry` is read per request: the SDK's constructor registers handlers before a
 * subclass has set it.
 */
export function servedRequest<T>(
  telemetry: Telemetry | undefined,
  request: MCPRequestShape & { id?: string | number },
  connection: () => MCPAttributes,
  handle: () => Promise<T>,
): Promise<T> {
  return telemetry ? telemetry.inbound(request, connection, handle) : handle();
}
