/**
 * EventsService (src/server/events/service.ts) directly and through an in-process MCPServer:
 * emit() checks (unknown type, invalid data, after close, not configured), poll from a cursor in
 * order and in pages, leases for types without replay, remove() dropping them, and the handlers
 * attached only to 2026-07-28 instances.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPErrorCode, type MCPServer, type MCPServerEventsConfig } from '../../src/index.js';
import { EventsService } from '../../src/server/events/service.js';
import { PollEventsResultSchema } from '../../src/shared/events-wire.js';
import { eventsServer, eventTypes } from '../fixtures/events.js';
import { linkInProcess } from '../support/in-process.js';
import { RecordingLogger } from '../support/logger.js';
import { rejectionOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function service(config: MCPServerEventsConfig | undefined = { types: eventTypes(), webhook: false }) {
  const events = new EventsService(config, () => new RecordingLogger());
  cleanups.push(() => events.close());
  return events;
}

async function served(era: 'modern' | 'legacy' = 'modern'): Promise<{ server: MCPServer; client: Client }> {
  const server = eventsServer({ webhook: false, pollIntervalMs: 1500 });
  cleanups.push(() => server.close());
  const link = await linkInProcess(server, { era });
  cleanups.push(link.close);
  return { server, client: link.client };
}

const poll = (client: Client, params: Record<string, unknown>) =>
  client.request({ method: 'events/poll', params }, PollEventsResultSchema);

describe('EventsService: emit()', () => {
  it('refuses an unknown type, data its schema refuses, and anything after close()', async () => {
    const events = service();
    expect(await rejectionOf(events.api.emit('nope', {}))).toMatchObject({
      id: MCPErrorCode.SERVER_UNKNOWN_EVENT_TYPE,
      message: "events: unknown event type 'nope'",
    });
    expect(await rejectionOf(events.api.emit('repo.push', { repo: 1 }))).toMatchObject({
      id: MCPErrorCode.SERVER_INVALID_EVENT_DATA,
    });
    const emitted = await events.api.emit('repo.push', { repo: 'a', sha: '1' }, { eventId: 'e1' });
    expect(emitted).toMatchObject({ eventId: 'e1', name: 'repo.push', data: { repo: 'a', sha: '1' } });
    expect(typeof emitted.cursor).toBe('string');
    await events.close();
    expect(await rejectionOf(events.api.emit('repo.push', { repo: 'a', sha: '2' }))).toMatchObject({
      id: MCPErrorCode.SERVER_EVENTS_CLOSED,
    });
  });

  it('refuses define() on a server without events', () => {
    const events = new EventsService(undefined, () => new RecordingLogger());
    expect(events.enabled).toBe(false);
    expect(() => events.api.define('x', {})).toThrow(
      expect.objectContaining({ id: MCPErrorCode.SERVER_EVENTS_NOT_CONFIGURED }),
    );
  });
});

describe('EventsService: events/poll', () => {
  it('starts now on a null cursor, then hands out what followed in order, a page at a time', async () => {
    const { server, client } = await served();
    const start = await poll(client, { name: 'repo.push', arguments: { repo: 'a' }, cursor: null });
    expect(start).toMatchObject({ events: [], truncated: false, hasMore: false, nextPollMs: 1500 });
    for (const sha of ['1', '2', '3']) await server.events.emit('repo.push', { repo: 'a', sha });
    await server.events.emit('repo.push', { repo: 'b', sha: 'other' });
    const first = await poll(client, {
      name: 'repo.push',
      arguments: { repo: 'a' },
      cursor: start.cursor,
      maxEvents: 2,
    });
    expect(first.events.map((event) => event.data.sha)).toEqual(['1', '2']);
    expect(first.hasMore).toBe(true);
    const rest = await poll(client, { name: 'repo.push', arguments: { repo: 'a' }, cursor: first.cursor });
    expect(rest.events.map((event) => event.data.sha)).toEqual(['3']);
    expect(rest.hasMore).toBe(false);
  });

  it('keeps a lease for a type without replay, and remove() drops it', async () => {
    const { server, client } = await served();
    const first = await poll(client, { name: 'alert' });
    expect(first).toMatchObject({ events: [], cursor: null });
    expect(server.events.stats().pollLeases).toBe(1);
    await server.events.emit('alert', { level: 'high' });
    const second = await poll(client, { name: 'alert' });
    expect(second.events.map((event) => event.data)).toEqual([{ level: 'high' }]);
    expect(second.cursor).toBeNull();
    expect(await poll(client, { name: 'alert' })).toMatchObject({ events: [] });
    expect(await server.events.remove('alert')).toBe(true);
    expect(server.events.stats().pollLeases).toBe(0);
  });

  it('is not served to a 2025-era client (no handler attached)', async () => {
    const { client } = await served('legacy');
    expect(await rejectionOf(poll(client, { name: 'alert' }))).toMatchObject({ code: -32601 });
  });
});
