/**
 * Per SDK client: routes `notifications/events/*` to the `events/stream` request they belong to
 * (by `_meta["io.modelcontextprotocol/subscriptionId"]`, the request's JSON-RPC id) and reports
 * when a stream's HTTP response ends without a result.
 *
 * The SDK neither exposes a request's id nor settles a request whose SSE stream the server reset
 * (it raises only `onerror`). So the router wraps the transport's `send` once per client: the
 * request `open()` issues is recognised as it is sent (the SDK sends synchronously inside
 * `request()`), its id recorded, and the transport's `onRequestStreamEnd` hook, which Streamable
 * HTTP calls when a per-request stream ends without a response, is chained to the listener.
 * stdio ignores the hook; a dead stdio server closes the connection, which rejects the request.
 */
import type { Client, JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import {
  EVENTS_METHODS,
  EVENTS_NOTIFICATIONS,
  type EventsActiveNotificationParams,
  EventsActiveNotificationParamsSchema,
  type EventsErrorNotificationParams,
  EventsErrorNotificationParamsSchema,
  type EventsEventNotificationParams,
  EventsEventNotificationParamsSchema,
  type EventsHeartbeatNotificationParams,
  EventsHeartbeatNotificationParamsSchema,
  SUBSCRIPTION_ID_META_KEY,
} from '../../shared/events-wire.js';

export interface StreamListener {
  active(params: EventsActiveNotificationParams): void;
  event(params: EventsEventNotificationParams): void;
  heartbeat(params: EventsHeartbeatNotificationParams): void;
  error(params: EventsErrorNotificationParams): void;
  terminated(params: EventsErrorNotificationParams): void;
  /** The request's HTTP stream ended without a response (the server reset it). */
  streamEnded(): void;
}

const routers = new WeakMap<Client, StreamRouter>();

/** The router of `client`, installed on first use. */
export function streamRouter(client: Client): StreamRouter {
  let router = routers.get(client);
  if (!router) {
    router = new StreamRouter(client);
    routers.set(client, router);
  }
  return router;
}

export class StreamRouter {
  private readonly listeners = new Map<string, StreamListener>();
  private opening: { listener: StreamListener; id?: string } | undefined;

  constructor(client: Client) {
    const route =
      <P extends { _meta: Record<string, unknown> }>(
        deliver: (listener: StreamListener, params: P) => void,
      ) =>
      (params: P) => {
        const listener = this.listeners.get(String(params._meta[SUBSCRIPTION_ID_META_KEY]));
        if (listener) deliver(listener, params);
      };
    client.setNotificationHandler(
      EVENTS_NOTIFICATIONS.active,
      { params: EventsActiveNotificationParamsSchema },
      route((listener, params: EventsActiveNotificationParams) => listener.active(params)),
    );
    client.setNotificationHandler(
      EVENTS_NOTIFICATIONS.event,
      { params: EventsEventNotificationParamsSchema },
      route((listener, params: EventsEventNotificationParams) => listener.event(params)),
    );
    client.setNotificationHandler(
      EVENTS_NOTIFICATIONS.heartbeat,
      { params: EventsHeartbeatNotificationParamsSchema },
      route((listener, params: EventsHeartbeatNotificationParams) => listener.heartbeat(params)),
    );
    client.setNotificationHandler(
      EVENTS_NOTIFICATIONS.error,
      { params: EventsErrorNotificationParamsSchema },
      route((listener, params: EventsErrorNotificationParams) => listener.error(params)),
    );
    client.setNotificationHandler(
      EVENTS_NOTIFICATIONS.terminated,
      { params: EventsErrorNotificationParamsSchema },
      route((listener, params: EventsErrorNotificationParams) => listener.terminated(params)),
    );
    const transport = client.transport as Transport | undefined;
    if (transport) this.watch(transport);
  }

  /**
   * Issues the `events/stream` request through `issue` and routes its notifications to `listener`
   * until the request settles. Returns the request's outcome.
   */
  open<T>(listener: StreamListener, issue: () => Promise<T>): Promise<T> {
    const opening: { listener: StreamListener; id?: string } = { listener };
    this.opening = opening;
    let result: Promise<T>;
    try {
      result = issue();
    } finally {
      this.opening = undefined;
    }
    const { id } = opening;
    if (id === undefined) return result;
    return result.finally(() => {
      if (this.listeners.get(id) === listener) this.listeners.delete(id);
    });
  }

  private watch(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
      const opening = this.opening;
      if (
        !opening ||
        !('method' in message) ||
        message.method !== EVENTS_METHODS.stream ||
        !('id' in message)
      ) {
        return send(message, options);
      }
      this.opening = undefined;
      const id = String(message.id);
      opening.id = id;
      const { listener } = opening;
      this.listeners.set(id, listener);
      const chained = options?.onRequestStreamEnd;
      return send(message, {
        ...options,
        onRequestStreamEnd: () => {
          chained?.();
          if (this.listeners.get(id) === listener) listener.streamEnded();
        },
      });
    };
  }
}
