/**
 * The `eventStore` option as one legacy Streamable HTTP session sees it. `startHTTP` takes one store
 * for every session, but the SDK names streams per session only (each session's standalone GET
 * stream is `_GET_stream`), so stream ids are prefixed with the session id: sessions never share a
 * stream, and a `Last-Event-ID` of another session's event replays nothing here.
 *
 * A store that cannot store an event (Redis down) would make the SDK answer the request with a 400
 * "Parse error" or drop its response; instead the failure is reported and the message is sent live
 * with no event id. A connected client still gets it; it is only not resumable.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

export function sessionEventStore(
  store: EventStore,
  sessionId: () => string | undefined,
  onerror: (error: Error) => void,
): EventStore {
  // The SDK stores the first event after it assigned the session id.
  const prefix = () => `${sessionId()}/`;
  const own = (scoped: string | undefined) =>
    scoped?.startsWith(prefix()) ? scoped.slice(prefix().length) : undefined;
  const { getStreamIdForEventId } = store;
  return {
    storeEvent: async (streamId, message) => {
      try {
        return await store.storeEvent(prefix() + streamId, message);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        onerror(
          new Error(
            `legacy session '${sessionId()}': an event was sent without an id and cannot be resumed: ${reason}`,
          ),
        );
        return '';
      }
    },
    ...(getStreamIdForEventId
      ? { getStreamIdForEventId: async (eventId) => own(await getStreamIdForEventId.call(store, eventId)) }
      : {}),
    replayEventsAfter: async (lastEventId, { send }) => {
      // Held back until the store says whose stream it was.
      const events: Array<[string, JSONRPCMessage]> = [];
      const streamId = own(
        await store.replayEventsAfter(lastEventId, {
          send: async (eventId, message) => {
            events.push([eventId, message]);
          },
        }),
      );
      if (streamId === undefined) {
        throw new Error(
          `legacy session '${sessionId()}': Last-Event-ID '${lastEventId}' is not one of its events`,
        );
      }
      for (const [eventId, message] of events) await send(eventId, message);
      return streamId;
    },
  };
}
