/**
 * Serving without boilerplate: `server.listen()` (its own node:http listener: both eras, legacy
 * SSE, /health, close()) and `server.fetch()` (the web-standard handler, here in a Hono app on
 * @hono/node-server: sessions, streams, tasks, OAuth, limits, the host guard, stream bounds), and
 * the `cors` option as a browser's requests meet it (preflights, tags, the Origin check). The same
 * in a real browser is test/e2e/cors-browser.test.ts; other runtimes are test/runtimes/.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { ConsoleLogger } from '@mastra/core/logger';
import type { Client } from '@modelcontextprotocol/client';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createStaticTokenValidator,
  InMemoryMCPTaskStore,
  MCPErrorCode,
  MCPServer,
  type MCPServerConfig,
} from '../../src/index.js';
import { releasableWork, TASKS_DECLARED, type TaskReply } from '../fixtures/task-tools.js';
import { fullConfig } from '../fixtures/tools.js';
import { connectHttp, connectSse, type Era, modernRequest, replyOf } from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { rejectionOf, textOf } from '../support/results.js';
import { ListenStream } from '../support/sse.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function track<T extends { close(): Promise<unknown> }>(value: T): T {
  cleanups.push(() => value.close());
  return value;
}

async function connect(url: URL, era: Era): Promise<Client> {
  return track(await connectHttp(url, era));
}

/** `server.fetch` mounted in a Hono app on @hono/node-server, as the deployment guide shows. */
async function honoApp(server: MCPServer, path = '/mcp'): Promise<URL> {
  const app = new Hono();
  app.all(path, (c) => server.fetch(c.req.raw));
  const node = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => node.once('listening', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        node.closeAllConnections();
        node.close(resolve);
      }),
  );
  return new URL(`http://127.0.0.1:${(node.address() as AddressInfo).port}${path}`);
}

function newServer(overrides: Partial<MCPServerConfig> = {}): MCPServer {
  return track(new MCPServer(fullConfig(overrides)));
}

describe('server.listen()', () => {
  it('serves both eras at /mcp, legacy SSE at /sse, /health; port 0 picks a free port on 127.0.0.1', async () => {
    const server = newServer();
    const { url } = await server.listen({ port: 0 });
    expect(url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(Number(url.port)).toBeGreaterThan(0);
    for (const era of ['modern', 'legacy'] as const) {
      const client = await connect(url, era);
      const weather = await client.callTool({ name: 'weatherTool', arguments: { location: 'Oslo' } });
      expect(weather.structuredContent).toEqual({ location: 'Oslo', forecast: 'Weather in Oslo is sunny.' });
    }
    const sse = track(await connectSse(new URL('/sse', url)));
    expect((await sse.listTools()).tools.map((tool) => tool.name)).toContain('weatherTool');
    const health = await fetch(new URL('/health', url));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(new URL('/elsewhere', url))).status).toBe(404);
  });

  it('takes the http option and its own: path, stateless legacy clients, allowedHosts', async () => {
    const sessions: string[] = [];
    const server = newServer({ http: { path: '/api/mcp', onsessioninitialized: (id) => sessions.push(id) } });
    const { url } = await server.listen({ port: 0, sessionIdGenerator: undefined });
    expect(url.pathname).toBe('/api/mcp');
    const legacy = await connect(url, 'legacy');
    expect(textOf(await legacy.callTool({ name: 'zod3Tool', arguments: { a: 2, b: 3 } }))).toBe('5');
    expect(sessions).toEqual([]);

    const guarded = newServer({ id: 'guarded' });
    const own = await guarded.listen({ port: 0, allowedHosts: ['mcp.example.com'] });
    const refused = await fetch(own.url, modernRequest('tools/list'));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('allowedHosts: mcp.example.com');
  });

  it('refuses a taken port and a bad path with errors that say what to change', async () => {
    const server = newServer();
    const first = await server.listen({ port: 0 });
    const taken = await rejectionOf(server.listen({ port: Number(first.url.port) }));
    expect(taken).toMatchObject({ id: MCPErrorCode.SERVER_LISTEN_FAILED });
    expect((taken as Error).message).toBe(
      `MCP server 'test-server' cannot listen on 127.0.0.1:${first.url.port}: port ${first.url.port} is in use; stop what holds it, pick another port, or pass port: 0 for a free one`,
    );
    const badPath = await rejectionOf(server.listen({ port: 0, path: 'mcp' }));
    expect(badPath).toMatchObject({ id: MCPErrorCode.SERVER_INVALID_HTTP_OPTION });
    expect((badPath as Error).message).toContain("listen(): path must be a URL path starting with '/'");
    const taken2 = await rejectionOf(server.listen({ port: 0, path: '/sse' }));
    expect((taken2 as Error).message).toContain("path '/sse' is taken by legacy SSE or the health check");
  });

  it('close() ends open streams at once, lets a call in flight finish, then frees the port', async () => {
    const { work, releases } = releasableWork();
    const server = track(new MCPServer({ name: 'closing', version: '1.0.0', tools: { work } }));
    const listener = await server.listen({ port: 0, closeTimeoutMs: 20_000 });
    // The legacy client holds a GET stream open, which never ends by itself.
    const legacy = await connect(listener.url, 'legacy');
    const call = legacy.callTool({ name: 'work', arguments: { label: 'late' } });
    await eventually('the call to be in flight', () => releases.has('late'));
    const closed = listener.close();
    releases.get('late')?.();
    expect(textOf(await call)).toBe('done late');
    await closed;
    const after = await rejectionOf(fetch(listener.url, modernRequest('tools/list')));
    expect(String((after as Error & { cause?: { code?: string } }).cause?.code)).toBe('ECONNREFUSED');
  });

  it('server.close() closes its listeners', async () => {
    const server = new MCPServer(fullConfig());
    const { url } = await server.listen({ port: 0 });
    await server.close();
    const after = await rejectionOf(fetch(new URL('/health', url)));
    expect(String((after as Error & { cause?: { code?: string } }).cause?.code)).toBe('ECONNREFUSED');
  });
});

describe('server.fetch() in a Hono app on Node', () => {
  it('serves both eras, legacy sessions and their GET streams, and ignores extra arguments', async () => {
    const server = newServer();
    const url = await honoApp(server);
    const modern = await connect(url, 'modern');
    const legacy = await connect(url, 'legacy');
    const changed: string[] = [];
    legacy.setNotificationHandler('notifications/tools/list_changed', () => {
      changed.push('legacy');
    });
    for (const client of [modern, legacy]) {
      const result = await client.callTool({ name: 'progressTool', arguments: { n: 3 } });
      expect(result.structuredContent ?? JSON.parse(textOf(result))).toEqual({ counted: 3 });
    }
    // The list change reaches the legacy session over its GET stream.
    await server.toolActions.notifyListChanged();
    await eventually('the legacy session to hear the list change', () => changed.length > 0);
    // Runtimes call fetch(request, env, ctx): the rest is ignored.
    const direct = await (server.fetch as (...args: unknown[]) => Promise<Response>)(
      new Request(url, modernRequest('tools/list')),
      { incoming: 'not a socket' },
      { waitUntil: () => {} },
    );
    expect(direct.status).toBe(200);
    expect(((await replyOf<TaskReply>(direct)).result as { tools: unknown[] }).tools.length).toBeGreaterThan(
      5,
    );
  });

  it('serves tasks and task listen streams', async () => {
    const { work, releases } = releasableWork();
    const server = track(
      new MCPServer({
        name: 'tasks',
        version: '1.0.0',
        tools: { work },
        tasks: { tools: { work: 'optional' }, store: new InMemoryMCPTaskStore(), pollIntervalMs: 50 },
      }),
    );
    const url = await honoApp(server);
    const started = await replyOf<TaskReply>(
      await fetch(
        url,
        modernRequest(
          'tools/call',
          { name: 'work', arguments: { label: 'a' } },
          { capabilities: TASKS_DECLARED },
        ),
      ),
    );
    expect(started.result?.resultType).toBe('task');
    const taskId = started.result?.taskId as string;
    const stream = await ListenStream.open(url, (signal) =>
      modernRequest(
        'subscriptions/listen',
        { notifications: { taskIds: [taskId] } },
        { id: 'l', capabilities: TASKS_DECLARED, signal },
      ),
    );
    cleanups.push(async () => stream.close());
    expect((await stream.next('the acknowledgement')).params).toMatchObject({
      notifications: { taskIds: [taskId] },
    });
    await eventually('the task to run', () => releases.has('a'));
    releases.get('a')?.();
    await stream.task(taskId, 'completed');
  });

  it('puts OAuth in front: metadata, 401 with its challenge, the token reaching the tool', async () => {
    const server = newServer({
      http: {
        oauth: {
          resource: 'http://127.0.0.1/mcp',
          authorizationServers: ['https://auth.example.com'],
          validateToken: createStaticTokenValidator(['good-token']),
        },
      },
    });
    const url = await honoApp(server);
    const app = new Hono();
    app.all('*', (c) => server.fetch(c.req.raw));
    const all = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => all.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => all.close(resolve)));
    const base = `http://127.0.0.1:${(all.address() as AddressInfo).port}`;
    const metadata = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({ authorization_servers: ['https://auth.example.com'] });

    const anonymous = await fetch(url, modernRequest('tools/list'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=');
    const who = await fetch(
      url,
      modernRequest(
        'tools/call',
        { name: 'contextTool', arguments: {} },
        { headers: { authorization: 'Bearer good-token' } },
      ),
    );
    const reply = await replyOf<{ result: { content: Array<{ text: string }> } }>(who);
    expect(JSON.parse(reply.result.content[0]?.text ?? '{}').authInfo).toMatchObject({ token: 'good-token' });
  });

  it('bounds bodies, refuses foreign hosts, answers OPTIONS without cors with 405', async () => {
    const server = newServer({ limits: { maxBodyBytes: 1024, maxJsonDepth: 8 } });
    const url = await honoApp(server);
    const big = modernRequest('tools/call', {
      name: 'weatherTool',
      arguments: { location: 'x'.repeat(4096) },
    });
    const tooLarge = await fetch(url, big);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain('limits.maxBodyBytes');
    const deep = await fetch(url, { ...modernRequest('ping'), body: `${'['.repeat(20)}${']'.repeat(20)}` });
    expect(deep.status).toBe(400);
    const foreign = await server.fetch(
      new Request(url, {
        ...modernRequest('tools/list'),
        headers: { ...modernRequest('tools/list').headers, host: 'evil.example' },
      }),
    );
    expect(foreign.status).toBe(403);
    const options = await fetch(url, { method: 'OPTIONS' });
    expect(options.status).toBe(405);
    expect(await options.text()).toContain('cors option');
  });

  it('closes a stream whose reader stops reading once it holds more than limits.maxStreamBufferBytes', async () => {
    const errors = vi.spyOn(ConsoleLogger.prototype, 'error').mockImplementation(() => {});
    cleanups.push(async () => errors.mockRestore());
    const server = newServer({ limits: { maxStreamBufferBytes: 512 } });
    const url = await honoApp(server);
    // A listen stream whose body nobody reads: the handler's answer, held here unread.
    const unread = await server.fetch(
      new Request(
        url,
        modernRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'held' }),
      ),
    );
    expect(unread.headers.get('content-type')).toContain('text/event-stream');
    // Each list change is a frame of about 150 bytes; the reader takes none of them.
    for (let i = 0; i < 10; i++) await server.toolActions.notifyListChanged();
    await eventually('the stalled stream to be closed', () =>
      errors.mock.calls.some(([line]) => String(line).includes('limits.maxStreamBufferBytes')),
    );
    await expect(unread.text()).rejects.toThrow();
  });
});

describe('cors', () => {
  async function corsServer() {
    const server = newServer({ http: { cors: { origins: ['http://app.example:8080'] } } });
    const { url } = await server.listen({ port: 0, cors: { origins: ['http://app.example:8080'] } });
    return { server, url, fetchUrl: await honoApp(server) };
  }

  it('answers a preflight from a listed origin with the methods and the MCP headers it asked for', async () => {
    const { url, fetchUrl } = await corsServer();
    for (const target of [url, fetchUrl]) {
      const preflight = await fetch(target, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://app.example:8080',
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'content-type, mcp-protocol-version, mcp-session-id, mcp-param-city, x-other',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.example:8080');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
      expect(preflight.headers.get('access-control-allow-headers')).toBe(
        'content-type, mcp-protocol-version, mcp-session-id, mcp-param-city',
      );
      const unlisted = await fetch(target, {
        method: 'OPTIONS',
        headers: { origin: 'http://other.example', 'access-control-request-method': 'POST' },
      });
      expect(unlisted.status).toBe(403);
      expect(unlisted.headers.get('access-control-allow-origin')).toBeNull();
      expect(await unlisted.text()).toContain('is not in cors.origins');
    }
  });

  it('tags answers to a listed origin, which passes the Origin check; an unlisted foreign origin gets 403', async () => {
    const { url, fetchUrl } = await corsServer();
    for (const target of [url, fetchUrl]) {
      const listed = await fetch(target, {
        ...modernRequest('tools/list'),
        headers: { ...modernRequest('tools/list').headers, origin: 'http://app.example:8080' },
      });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('access-control-allow-origin')).toBe('http://app.example:8080');
      expect(listed.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
      const foreign = await fetch(target, {
        ...modernRequest('tools/list'),
        headers: { ...modernRequest('tools/list').headers, origin: 'http://other.example' },
      });
      expect(foreign.status).toBe(403);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('works on startHTTP, and refuses an entry that is not an origin', async () => {
    const server = newServer();
    const http = createServer((req, res) => {
      void server.startHTTP({
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        httpPath: '/mcp',
        req,
        res,
        cors: { origins: ['https://app.example'] },
      });
    });
    const local = await listenLocal(http);
    cleanups.push(() => local.close());
    const preflight = await fetch(`${local.url}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    const bad = await rejectionOf(
      Promise.resolve().then(() => newServer({ http: { cors: { origins: ['https://app.example/path'] } } })),
    );
    expect(bad).toMatchObject({ id: MCPErrorCode.SERVER_INVALID_HTTP_OPTION });
    expect((bad as Error).message).toContain(
      `http.cors.origins[0] "https://app.example/path" is not an origin: write scheme://host[:port]`,
    );
  });
});
