/**
 * `events.list(serverName)`: every event type the server offers, following `nextCursor` until
 * the last page (a repeated cursor or more than MAX_PAGES pages is an error, not a loop).
 */
import { EVENTS_METHODS, type EventDescriptor, ListEventsResultSchema } from '../../shared/events-wire.js';
import type { ServerConnection } from '../connection.js';
import { eventsRequest } from './support.js';
import type { MCPEventDescriptor } from './types.js';

const MAX_PAGES = 1000;

function descriptorOf(event: EventDescriptor): MCPEventDescriptor {
  return {
    name: event.name,
    ...(event.description !== undefined ? { description: event.description } : {}),
    delivery: [...event.delivery],
    ...(event.inputSchema !== undefined ? { inputSchema: event.inputSchema } : {}),
    ...(event.payloadSchema !== undefined ? { payloadSchema: event.payloadSchema } : {}),
    ...(event._meta !== undefined ? { _meta: event._meta } : {}),
  };
}

/** Every page of `events/list`; throws what the request threw (MCP_EVENTS_NOT_SUPPORTED included). */
export async function listEventTypes(connection: ServerConnection): Promise<MCPEventDescriptor[]> {
  const events: MCPEventDescriptor[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await eventsRequest(
      connection,
      EVENTS_METHODS.list,
      cursor === undefined ? {} : { cursor },
      ListEventsResultSchema,
    );
    events.push(...result.events.map(descriptorOf));
    cursor = result.nextCursor;
    if (cursor === undefined) return events;
    if (seen.has(cursor)) throw new Error(`events/list returned the cursor '${cursor}' twice`);
    seen.add(cursor);
  }
  throw new Error(`events/list returned more than ${MAX_PAGES} pages`);
}
