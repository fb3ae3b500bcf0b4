/**
 * The client-side Redis stores against a real redis-server (test/fixtures/redis-server.ts), each
 * "process" with its own node-redis connection: OAuth tokens one provider saves are what another
 * provider's MCPClient presents to a protected MCPServer; an MCPEventsSignalProvider resumes from
 * the cursor another one stored; acknowledged writes survive a Redis crash (AOF); while Redis is
 * down every operation fails within its deadline with a named MCP_REDIS_UNAVAILABLE, and works
 * again once Redis is back without touching the clients.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MastraError } from '@mastra/core/error';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createOAuthMiddleware,
  createStaticTokenValidator,
  MCPClient,
  MCPEventsSignalProvider,
  MCPOAuthClientProvider,
  MCPServer,
} from '../../src/index.js';
import { REDIS_UNAVAILABLE, RedisMCPEventCursorStore, RedisOAuthStorage } from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { agentWith } from '../fixtures/signals-agent.js';
import { weatherTool } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});

/** One process's connection; its reconnect errors during an outage are expected and collected. */
async function connection() {
  const errors: Error[] = [];
  const client = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  client.on('error', (error: Error) => errors.push(error));
  await client.connect();
  cleanups.push(() => client.close());
  return { client, errors };
}

function oauthProvider(storage: RedisOAuthStorage) {
  return new MCPOAuthClientProvider({
    redirectUrl: 'http://127.0.0.1:5533/oauth/callback',
    clientMetadata: { redirect_uris: ['http://127.0.0.1:5533/oauth/callback'], client_name: 'test' },
    clientInformation: { client_id: 'registered-client' },
    storage,
  });
}

/** An MCPServer that accepts only the Bearer token `token`. */
async function protectedServer(token: string) {
  const server = new MCPServer({ name: 'weather', version: '1.0.0', tools: { weatherTool } });
  const front = http.createServer();
  await listenLocal(front);
  const base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const guard = createOAuthMiddleware({
    oauth: {
      resource: `${base}/mcp`,
      authorizationServers: ['https://auth.example.com'],
      validateToken: createStaticTokenValidator([token]),
    },
  });
  front.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if ((await guard(req, res, url)).proceed) await server.startHTTP({ url, httpPath: '/mcp', req, res });
  });
  cleanups.push(
    () => server.close(),
    () =>
      new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      }),
  );
  return new URL(`${base}/mcp`);
}

describe('RedisOAuthStorage', () => {
  it('tokens saved by one process are what another process presents, and a refresh is seen by both', async () => {
    const prefix = 'test:oauth:weather:';
    const first = oauthProvider(
      new RedisOAuthStorage({ client: (await connection()).client, keyPrefix: prefix }),
    );
    const second = oauthProvider(
      new RedisOAuthStorage({ client: (await connection()).client, keyPrefix: prefix }),
    );
    await first.saveTokens({ access_token: 'shared-token', token_type: 'Bearer' });

    const mcp = new MCPClient({
      id: 'redis-oauth-second',
      registerProcessHooks: false,
      servers: { weather: { url: await protectedServer('shared-token'), authProvider: second } },
    });
    cleanups.push(() => mcp.disconnect());
    const tools = await mcp.listTools();
    expect(Object.keys(tools)).toEqual(['weather_weatherTool']);

    await second.saveTokens({ access_token: 'refreshed', token_type: 'Bearer', refresh_token: 'r2' });
    expect(await first.tokens()).toEqual({
      access_token: 'refreshed',
      token_type: 'Bearer',
      refresh_token: 'r2',
    });
    const { client } = await connection();
    expect(JSON.parse((await client.get(`${prefix}tokens`)) ?? 'null')).toMatchObject({
      access_token: 'refreshed',
    });
    await first.invalidateCredentials('tokens');
    expect(await second.tokens()).toBeUndefined();
    expect(await client.exists(`${prefix}tokens`)).toBe(0);
  });

  it('expires entries after ttlSeconds and rejects options that cannot work', async () => {
    const { client } = await connection();
    const storage = new RedisOAuthStorage({ client, keyPrefix: 'test:ttl:', ttlSeconds: 60 });
    await storage.set('state', 'abc');
    expect(await storage.get('state')).toBe('abc');
    const ttl = await client.ttl('test:ttl:state');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    expect(await storage.get('missing')).toBeUndefined();

    for (const options of [{ ttlSeconds: 1.5 }, { ttlSeconds: 0 }, { timeoutMs: -1 }]) {
      let error: unknown;
      try {
        new RedisOAuthStorage({ client, ...options });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(MastraError);
      expect((error as MastraError).id).toBe('MCP_REDIS_INVALID_OPTION');
      expect((error as MastraError).message).toContain(
        `RedisOAuthStorage: option '${Object.keys(options)[0]}'`,
      );
    }
  });
});

describe('RedisMCPEventCursorStore', () => {
  it('a provider in another process resumes from the cursor the first one stored: nothing missed, nothing repeated', async () => {
    const server = new MCPServer({
      name: 'signals-events',
      version: '1.0.0',
      tools: {},
      events: {
        heartbeatIntervalMs: 50,
        types: { 'repo.push': { description: 'A push', inputSchema: z.object({ repo: z.string() }) } },
      },
    });
    const served = await serveHttp(server);
    cleanups.push(
      () => served.close(),
      () => server.close(),
    );
    const repo = { server: 'github', event: 'repo.push', args: { repo: 'a' } } as const;
    const key = MCPEventsSignalProvider.key(repo);
    const thread = { resourceId: 'user-1', threadId: 'thread-1' };
    const prefix = 'test:cursors:';
    /** One agent process: its own MCPClient, Redis connection, cursor store and agent storage. */
    const agentProcess = async (id: string) => {
      const mcp = new MCPClient({
        id,
        registerProcessHooks: false,
        servers: { github: { url: served.mcpUrl, protocolVersion: '2026-07-28' } },
      });
      cleanups.push(() => mcp.disconnect());
      const cursorStore = new RedisMCPEventCursorStore({
        client: (await connection()).client,
        keyPrefix: prefix,
      });
      const signals = new MCPEventsSignalProvider({ client: mcp, cursorStore });
      cleanups.push(() => signals.stop());
      const { inbox } = agentWith(signals);
      await signals.subscribeThread(thread, repo);
      const eventIds = async () =>
        (await inbox(thread)).map((record) => (record.payload as { eventId: string }).eventId).sort();
      return { signals, cursorStore, eventIds };
    };

    const first = await agentProcess('cursor-first');
    const one = await server.events.emit('repo.push', { repo: 'a' }, { eventId: 'evt-1' });
    await eventually('evt-1 stored', async () => (await first.cursorStore.get(key)) === one.cursor);
    await first.signals.stop();
    await eventually('the first stream closed', () => server.events.stats().streams === 0);
    await server.events.emit('repo.push', { repo: 'a' }, { eventId: 'evt-2' });
    const three = await server.events.emit('repo.push', { repo: 'a' }, { eventId: 'evt-3' });

    const second = await agentProcess('cursor-second');
    await eventually(
      'evt-2 and evt-3 in the second process',
      async () => (await second.eventIds()).length === 2,
    );
    expect(await second.eventIds()).toEqual(['evt-2', 'evt-3']);
    expect(await first.eventIds()).toEqual(['evt-1']);
    await eventually(
      'the shared cursor moved on',
      async () => (await first.cursorStore.get(key)) === three.cursor,
    );
    const { client } = await connection();
    expect(await client.get(`${prefix}${key}`)).toBe(three.cursor);
  });
});

describe('a Redis outage', () => {
  it('fails every operation in bounded time with a named error, keeps acknowledged writes, and recovers by itself', async () => {
    const { client } = await connection();
    const oauth = new RedisOAuthStorage({ client, keyPrefix: 'test:outage:oauth:', timeoutMs: 300 });
    const cursors = new RedisMCPEventCursorStore({
      client,
      keyPrefix: 'test:outage:cursors:',
      timeoutMs: 300,
    });
    await oauth.set('tokens', '{"access_token":"kept"}');
    await cursors.set('k', 'cursor-1');

    await redis.stop();
    const failures = await Promise.all([
      rejectionOf(oauth.get('tokens'), MastraError),
      rejectionOf(oauth.set('tokens', '{"access_token":"lost"}'), MastraError),
      rejectionOf(cursors.set('k', 'cursor-2'), MastraError),
      rejectionOf(cursors.delete('k'), MastraError),
    ]);
    for (const error of failures) expect(error.id).toBe(REDIS_UNAVAILABLE);
    expect(failures[1]?.message).toContain(
      "RedisOAuthStorage: set of 'test:outage:oauth:tokens' (prefix 'test:outage:oauth:')",
    );
    expect(failures[1]?.message).toContain('check that Redis is running');
    expect(failures[1]?.details).toMatchObject({
      store: 'RedisOAuthStorage',
      operation: 'set',
      keyPrefix: 'test:outage:oauth:',
    });
    expect(failures[3]?.details).toMatchObject({ store: 'RedisMCPEventCursorStore', operation: 'delete' });

    await redis.restart();
    await eventually('the client reconnected', () => client.isReady);
    // What was acknowledged before the crash is there; what failed was never applied.
    expect(await oauth.get('tokens')).toBe('{"access_token":"kept"}');
    expect(await cursors.get('k')).toBe('cursor-1');
    await cursors.set('k', 'cursor-3');
    expect(await cursors.get('k')).toBe('cursor-3');
  });

  it('fails at once with a client that disables the offline queue', async () => {
    const client = createClient({
      url: redis.url,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: () => 50 },
    });
    client.on('error', () => {});
    await client.connect();
    cleanups.push(() => client.close());
    const cursors = new RedisMCPEventCursorStore({ client, timeoutMs: 60_000 });
    await redis.stop();
    await eventually('the client saw the disconnect', () => !client.isReady);
    try {
      const error = await rejectionOf(cursors.get('k'), MastraError);
      expect(error.id).toBe(REDIS_UNAVAILABLE);
      expect(error.message).toContain("RedisMCPEventCursorStore: get of 'mastra-mcp:cursors:k'");
      expect(error.message).toContain('while Redis is not connected');
    } finally {
      await redis.restart();
    }
    await eventually('the client reconnected', () => client.isReady);
    expect(await cursors.get('k')).toBeNull();
  });
});
