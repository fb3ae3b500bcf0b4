import { serve } from '@hono/node-server';
import type { Client } from '@modelcontextprotocol/client';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { answerElicitations, connectSse, newClient, serveHttp } from '../helpers.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function exercise(client: Client): Promise<void> {
  expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  expect((await client.listTools()).tools.map((t) => t.name)).toContain('ask_helper');
  const weather = await client.callTool({ name: 'weatherTool', arguments: { location: 'Bern' } });
  expect(weather.structuredContent).toEqual({ location: 'Bern', forecast: 'Weather in Bern is sunny.' });
  expect(textOf(await client.callTool({ name: 'contactTool', arguments: {} }))).toBe(
    'Collected {"name":"Sam"} confirmed=true',
  );
  const progress: number[] = [];
  await client.callTool(
    { name: 'progressTool', arguments: { n: 2 } },
    { onprogress: (p) => progress.push(p.progress) },
  );
  expect(progress).toEqual([1, 2]);
  expect((await client.getPrompt({ name: 'analyze-code', arguments: { code: 'x' } })).messages).toHaveLength(
    1,
  );
}

function sseClient(): Client {
  const client = newClient('legacy');
  answerElicitations(
    client,
    (message): Record<string, string | boolean> => (message === 'Confirm?' ? { ok: true } : { name: 'Sam' }),
  );
  return client;
}

describe.each(['/sse', '/hono/sse'])('legacy SSE transport at %s', (path) => {
  it('serves tools, elicitation, progress and prompts, and cleans up on disconnect', async () => {
    const server = new MCPServer(fullConfig());
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const client = await connectSse(new URL(`${http.base}${path}`), sseClient());
    await exercise(client);
    const transport = path === '/sse' ? server.getSseTransport() : server.getSseHonoTransport();
    expect(transport?.sessionId).toMatch(/[0-9a-f-]{36}/);

    const updates: unknown[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params);
    });
    await client.subscribeResource({ uri: 'file://data/1.txt' });
    await server.resources.notifyUpdated({ uri: 'file://data/1.txt' });
    await eventually('the resource update', () => updates.length === 1);

    await client.close();
    const postToClosedSession = () =>
      fetch(`${http.base}${path.replace('sse', 'message')}?sessionId=${transport?.sessionId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    await eventually(
      'the closed session to be forgotten',
      async () => (await postToClosedSession()).status === 404,
    );
  });
});

describe('Hono SSE inside a Hono app', () => {
  it('serves MCP through startHonoSSE({ context, authInfo })', async () => {
    const server = new MCPServer(fullConfig());
    const app = new Hono();
    app.all(
      '/mcp-sse/*',
      (c) =>
        server.startHonoSSE({
          url: new URL(c.req.url),
          ssePath: '/mcp-sse/sse',
          messagePath: '/mcp-sse/message',
          context: c,
          authInfo: { token: 'hono-token', clientId: 'hono-client', scopes: ['mcp:read'] },
        }) as Promise<Response>,
    );
    const listening = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    cleanups.push(
      () => new Promise((resolve) => listening.close(resolve)),
      () => server.close(),
    );
    const { port } = listening.address() as { port: number };
    const client = await connectSse(new URL(`http://127.0.0.1:${port}/mcp-sse/sse`), sseClient());
    cleanups.push(() => client.close());
    await exercise(client);
    // The authInfo given to startHonoSSE reaches the tool as context.mcp.extra.authInfo.
    const who = JSON.parse(textOf(await client.callTool({ name: 'contextTool', arguments: {} })));
    expect(who.authInfo).toMatchObject({
      token: 'hono-token',
      clientId: 'hono-client',
      scopes: ['mcp:read'],
    });
  });
});
