/**
 * Webhook replays (issue 13, item 10). A real MCPServer with events delivers signed webhooks over
 * https on 127.0.0.1 to an endpoint that calls the client's `events.handleWebhook()`. A delivery
 * captured off the wire and sent again within the 5-minute signature tolerance is answered as a
 * duplicate however many occurrences came after it; a subscription's cursor never moves back; the
 * remembered webhook-ids are capped per server (`webhook.maxRememberedDeliveries`: 503 past it,
 * the sender retries) and each is forgotten once its signature can no longer verify.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  type MCPClientWebhookOptions,
  type MCPEventSubscription,
  type MCPReceivedEvent,
} from '../../src/index.js';
import { generateWebhookSecret } from '../../src/shared/events-wire.js';
import { eventsServer, pushOccurrence } from '../fixtures/events.js';
import { signedDelivery, startWebhookEndpoint } from '../fixtures/webhook-endpoint.js';
import { bearerAuth, serveHttp } from '../helpers.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let nextId = 0;

/**
 * An events server over HTTP delivering to an https endpoint that calls the client's handleWebhook.
 * The client signs with a configured secret, so the test can sign deliveries of its own; `capture`
 * names a webhook-id whose request is kept (a clone) for replaying.
 */
async function setup(webhook: Partial<MCPClientWebhookOptions> = {}, capture?: string) {
  const secret = generateWebhookSecret();
  const holder: { mcp?: MCPClient; captured?: Request } = {};
  const endpoint = await startWebhookEndpoint((request) =>
    (holder.mcp as MCPClient).events.handleWebhook(request),
  );
  endpoint.override = (request) => {
    if (capture && request.headers.get('webhook-id') === capture) holder.captured ??= request.clone();
    return undefined;
  };
  const server = eventsServer({
    webhook: {
      allowPrivateAddresses: true,
      fetch: endpoint.fetch,
      retry: { initialDelayMs: 20, maxDelayMs: 200, attempts: 100 },
    },
  });
  const http = await serveHttp(server, { before: bearerAuth });
  const mcp = new MCPClient({
    id: `webhook-replay-${++nextId}`,
    registerProcessHooks: false,
    servers: {
      remote: {
        url: http.mcpUrl,
        protocolVersion: '2026-07-28',
        requestInit: { headers: { authorization: 'Bearer alice' } },
      } as MastraMCPServerDefinition,
    },
    webhook: { url: endpoint.url, secret, ...webhook },
  });
  holder.mcp = mcp;
  cleanups.push(
    () => endpoint.close(),
    () => http.close(),
    () => server.close(),
    () => mcp.disconnect(),
  );
  const subscription = await mcp.events.subscribe(
    'remote',
    'repo.push',
    { repo: 'a' },
    { delivery: 'webhook', maxBufferedEvents: 5000 },
  );
  cleanups.push(() => subscription.cancel());
  /** The server-assigned subscription id, from the first delivery the endpoint answered. */
  const subscriptionId = () =>
    eventually(
      'a delivery',
      () =>
        endpoint.answered.find((answer) => !answer.headers['webhook-id']?.startsWith('msg_verification'))
          ?.headers['x-mcp-subscription-id'],
    );
  const emit = (sha: string, eventId?: string) =>
    server.events.emit('repo.push', { repo: 'a', sha }, eventId ? { eventId } : {});
  return {
    server,
    mcp,
    endpoint,
    secret,
    subscription,
    subscriptionId,
    emit,
    captured: () => holder.captured,
  };
}

/** Reads `count` occurrences without ending the subscription, with the cursor as seen at each. */
async function read(subscription: MCPEventSubscription, count: number) {
  const iterator = subscription[Symbol.asyncIterator]();
  const seen: Array<MCPReceivedEvent & { cursor: string | null; truncated: boolean }> = [];
  while (seen.length < count) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the subscription ended after ${seen.length} occurrences`);
    seen.push({ ...next.value, cursor: subscription.cursor, truncated: subscription.truncated });
  }
  return seen;
}

/** A delivery to the endpoint signed with `secret` at `at`, as a server would send it. */
const signed = (body: string, secret: string, subscriptionId: string, messageId: string, at?: Date) =>
  signedDelivery('https://127.0.0.1/mcp/webhook', body, {
    secret,
    subscriptionId,
    messageId,
    ...(at ? { at } : {}),
  });

describe('webhook replays', () => {
  it('a captured delivery replayed after more than 1,000 newer occurrences is a duplicate: not delivered, cursor unchanged', async () => {
    const { mcp, subscription, subscriptionId, emit, secret, captured } = await setup({}, 'evt-captured');
    await emit('0', 'evt-captured');
    await emit('1');
    await read(subscription, 2);
    const replay = await eventually('the captured delivery', captured);
    const cursor = subscription.cursor;
    expect(cursor).not.toBeNull();
    // 1,001 newer occurrences, signed as the server signs them (straight to the handler: fast).
    const id = await subscriptionId();
    for (let index = 0; index < 1001; index++) {
      const eventId = `evt-newer-${index}`;
      const delivery = signed(pushOccurrence(eventId, `n${index}`, cursor), secret, id, eventId);
      expect((await mcp.events.handleWebhook(delivery)).status).toBe(200);
    }
    expect((await read(subscription, 1001)).at(-1)?.eventId).toBe('evt-newer-1000');

    const response = await mcp.events.handleWebhook(replay);
    expect(response.status).toBe(200);
    expect(subscription.cursor).toBe(cursor);
    // The next occurrence the loop reads is the one the server sends after the replay, not the replay.
    await emit('after', 'evt-after');
    const [next] = await read(subscription, 1);
    expect(next?.eventId).toBe('evt-after');
    expect(next?.cursor).not.toBe(cursor);
  });

  it('an older cursor from another delivery (occurrence or gap) never moves the cursor back', async () => {
    const { mcp, subscription, subscriptionId, emit, secret } = await setup();
    for (const sha of ['1', '2', '3']) await emit(sha);
    const seen = await read(subscription, 3);
    const id = await subscriptionId();
    const older = seen[1]?.cursor ?? null;
    const latest = subscription.cursor;
    expect(older).not.toBeNull();
    expect(latest).not.toBe(older);
    const handle = (request: Request) =>
      mcp.events.handleWebhook(request).then((response) => response.status);

    // A new occurrence carrying an older cursor is delivered; the cursor stays.
    expect(await handle(signed(pushOccurrence('evt-late', 'late', older), secret, id, 'evt-late'))).toBe(200);
    const [late] = await read(subscription, 1);
    expect(late).toMatchObject({ eventId: 'evt-late', cursor: latest });
    // A gap with an older cursor marks the next occurrence; the cursor stays.
    const gap = JSON.stringify({ type: 'gap', cursor: older });
    expect(await handle(signed(gap, secret, id, 'msg_gap_late'))).toBe(200);
    expect(subscription.cursor).toBe(latest);
    await emit('4');
    const [fourth] = await read(subscription, 1);
    expect(fourth).toMatchObject({ data: { sha: '4' }, truncated: true });
    expect(fourth?.cursor).not.toBe(older);
  });

  it('past webhook.maxRememberedDeliveries new deliveries get 503 (none forgotten early); ids expire with their signatures', async () => {
    const cap = 20;
    const { mcp, subscription, subscriptionId, emit, secret } = await setup({ maxRememberedDeliveries: cap });
    await emit('0', 'evt-0');
    await read(subscription, 1);
    const id = await subscriptionId();
    // Signed 298 s ago: still valid, and unverifiable (so forgettable) within about 3 s.
    const nearlyStale = new Date((Math.floor(Date.now() / 1000) - 298) * 1000);
    const flood = Array.from({ length: 3 * cap }, (_, index) =>
      signed(
        pushOccurrence(`evt-flood-${index}`, `f${index}`, null),
        secret,
        id,
        `evt-flood-${index}`,
        nearlyStale,
      ),
    );
    const answers: Response[] = [];
    for (const request of flood) answers.push(await mcp.events.handleWebhook(request));
    const statuses = answers.map((response) => response.status);
    // evt-0 holds one place: cap - 1 flood deliveries fit, every later one is refused.
    expect(statuses.slice(0, cap - 1)).toEqual(Array(cap - 1).fill(200));
    expect(statuses.slice(cap - 1)).toEqual(Array(2 * cap + 1).fill(503));
    const retryAfter = Number(answers.at(-1)?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(4);
    expect(await answers.at(-1)?.text()).toContain('webhook.maxRememberedDeliveries');
    // A remembered id is still a duplicate at the cap.
    const again = signed(pushOccurrence('evt-flood-0', 'f0', null), secret, id, 'evt-flood-0', nearlyStale);
    expect((await mcp.events.handleWebhook(again)).status).toBe(200);

    // The server's next delivery is refused until the flood's ids expire, then its retry gets in.
    await emit('after', 'evt-after');
    const delivered = await read(subscription, cap);
    expect(delivered.map((event) => event.eventId)).toEqual([
      ...Array.from({ length: cap - 1 }, (_, index) => `evt-flood-${index}`),
      'evt-after',
    ]);
    // Expired ids cannot come back: their signatures are stale now.
    const expired = signed(pushOccurrence('evt-flood-1', 'f1', null), secret, id, 'evt-flood-1', nearlyStale);
    expect((await mcp.events.handleWebhook(expired)).status).toBe(401);
  });

  it('refuses an invalid webhook.maxRememberedDeliveries, naming the option', () => {
    for (const value of [0, -1, 1.5, Number.NaN]) {
      expect(
        () =>
          new MCPClient({
            id: `webhook-replay-invalid-${++nextId}`,
            registerProcessHooks: false,
            servers: {},
            webhook: { url: 'https://agent.example/hooks', maxRememberedDeliveries: value },
          }),
      ).toThrow(/webhook\.maxRememberedDeliveries/);
    }
  });
});
