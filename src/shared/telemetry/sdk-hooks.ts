/**
 * Where telemetry meets an SDK protocol instance (a `Client` or a `Server`): the one funnel every
 * request it sends passes through: its own requests, retries of `input_required` rounds, and those a
 * handler sends back to its peer. (Requests it serves are wrapped by the sides' `_wrapHandler`.)
 */
import type { MCPAttributes } from './attributes.js';
import type { MCPRequestShape, Telemetry } from './telemetry.js';

/** The SDK's private request funnel (`Protocol._requestWithSchemaViaCodec`) and id counter. */
interface RequestFunnel {
  _requestWithSchemaViaCodec(
    codec: unknown,
    request: MCPRequestShape,
    schema: unknown,
    options: unknown,
  ): Promise<unknown>;
  _requestMessageId: number;
}

/** Every request `protocol` sends goes out in a span, carrying its context in `_meta`. */
export function instrumentRequests(
  protocol: object,
  telemetry: Telemetry,
  connection: () => MCPAttributes,
): void {
  if (!telemetry.enabled) return;
  const funnel = protocol as RequestFunnel;
  const send = funnel._requestWithSchemaViaCodec.bind(protocol);
  // An own property: it shadows the prototype's method for this instance only.
  funnel._requestWithSchemaViaCodec = (codec, request, schema, options) => {
    const next = funnel._requestMessageId;
    return telemetry.outbound(
      request,
      connection,
      (sent) => send(codec, sent, schema, options),
      () => (funnel._requestMessageId > next ? String(next) : undefined),
    );
  };
}
