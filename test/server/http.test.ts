import { randomUUID } from 'node:crypto';
import { createTool } from '@mastra/core/tools';
import type { Client } from '@modelcontextprotocol/client';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import {
  answerElicitations,
  connectHttp,
  type Era,
  type HarnessOptions,
  type HttpHarness,
  newClient,
  serveHttp,
} from '../helpers.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function setup(harness: HarnessOptions = {}, server = new MCPServer(fullConfig())) {
  const http = await serveHttp(server, harness);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

async function connect(http: HttpHarness, era: Era, client?: Client, url = http.mcpUrl): Promise<Client> {
  const connected = await connectHttp(url, era, client);
  cleanups.push(() => connected.close());
  return connected;
}

function collect(
  client: Client,
  method: 'notifications/tools/list_changed' | 'notifications/resources/updated' | 'notifications/message',
) {
  const seen: unknown[] = [];
  client.setNotificationHandler(method, (notification) => {
    seen.push(notification.params ?? {});
  });
  return seen;
}

describe('Streamable HTTP serves both protocol eras on one endpoint', () => {
  it.each<Era>(['modern', 'legacy'])(
    '%s client: tools, auth info and session id reach the tool',
    async (era) => {
      const sessions: string[] = [];
      const { http } = await setup({
        options: {
          sessionIdGenerator: () => `s-${randomUUID()}`,
          onsessioninitialized: (id) => sessions.push(id),
        },
        before: (req) => {
          req.auth = { token: 'tok', clientId: 'client-1', scopes: ['read'], extra: { userId: 'u1' } };
        },
      });
      const client = await connect(http, era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      const weather = await client.callTool({ name: 'weatherTool', arguments: { location: 'Lima' } });
      expect(weather.structuredContent).toEqual({ location: 'Lima', forecast: 'Weather in Lima is sunny.' });
      const who = JSON.parse(textOf(await client.callTool({ name: 'contextTool', arguments: {} })));
      expect(who.authInfo).toMatchObject({ token: 'tok', clientId: 'client-1', extra: { userId: 'u1' } });
      expect(who.hasSignal).toBe(true);
      expect(who.viaRequestContext).toBe(true);
      if (era === 'legacy') {
        expect(sessions).toHaveLength(1);
        expect(sessions[0]).toMatch(/^s-/);
        expect(who.sessionId).toBe(sessions[0]);
      } else {
        // 2026-07-28 has no sessions: the session options only govern legacy clients.
        expect(sessions).toHaveLength(0);
        expect(who.sessionId).toBeNull();
      }
    },
  );

  it('passes ready-made CallToolResults through intact', async () => {
    const { http } = await setup();
    const client = await connect(http, 'modern');
    const result = await client.callTool({ name: 'richTool', arguments: {} });
    expect(result.content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource_link',
    ]);
    expect(result.structuredContent).toEqual({ kinds: 5 });
  });

  it('routes each elicitation to the session that called the tool', async () => {
    const { http } = await setup();
    const clients = await Promise.all(
      (['ann', 'bob'] as const).map(async (name) => {
        const client = newClient('legacy');
        answerElicitations(
          client,
          (message): Record<string, string | boolean> =>
            message === 'Confirm?' ? { ok: name === 'ann' } : { name },
        );
        return connect(http, 'legacy', client);
      }),
    );
    const [ann, bob] = await Promise.all(
      clients.map((c) => c.callTool({ name: 'contactTool', arguments: {} })),
    );
    expect(textOf(ann as object)).toBe('Collected {"name":"ann"} confirmed=true');
    expect(textOf(bob as object)).toBe('Collected {"name":"bob"} confirmed=false');
  });

  it('elicits from a 2026-07-28 client through input_required and resumes the same tool run', async () => {
    const { http } = await setup();
    const client = newClient('modern');
    answerElicitations(
      client,
      (message): Record<string, string | boolean> => (message === 'Confirm?' ? { ok: true } : { name: 'Mo' }),
    );
    await connect(http, 'modern', client);
    const result = await client.callTool({ name: 'contactTool', arguments: { reason: 'For the invoice.' } });
    expect(textOf(result)).toBe('Collected {"name":"Mo"} confirmed=true');
  });
});

describe('notification delivery', () => {
  it('broadcasts list changes to every session and resource updates only to subscribers', async () => {
    const { server, http } = await setup();
    const subscribed = await connect(http, 'legacy');
    const other = await connect(http, 'legacy');
    const modern = await connect(http, 'modern');
    const subscribedUpdates = collect(subscribed, 'notifications/resources/updated');
    const otherUpdates = collect(other, 'notifications/resources/updated');
    const modernUpdates = collect(modern, 'notifications/resources/updated');
    const toolChanges = [subscribed, other, modern].map((c) =>
      collect(c, 'notifications/tools/list_changed'),
    );
    await subscribed.subscribeResource({ uri: 'file://data/1.txt' });
    const listen = await modern.listen({
      toolsListChanged: true,
      resourceSubscriptions: ['file://data/1.txt'],
    });

    await server.resources.notifyUpdated({ uri: 'file://data/1.txt' });
    await server.resources.notifyUpdated({ uri: 'file://data/logo.png' });
    await eventually(
      'the subscribed sessions to be told',
      () => subscribedUpdates.length > 0 && modernUpdates.length > 0,
    );
    await server.toolActions.add({
      echo: createTool({
        id: 'echo',
        description: 'Echo',
        inputSchema: z.object({ text: z.string() }),
        execute: async ({ text }) => text,
      }),
    });
    await eventually('every client to see the tool list change', () =>
      toolChanges.every((seen) => seen.length === 1),
    );
    expect(subscribedUpdates).toEqual([{ uri: 'file://data/1.txt' }]);
    expect(modernUpdates).toMatchObject([{ uri: 'file://data/1.txt' }]);
    expect(otherUpdates).toEqual([]);
    expect(textOf(await other.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');

    await server.toolActions.remove(['no-such-tool']);
    await server.toolActions.remove(['echo']);
    await eventually('the removal to be announced', () => toolChanges.every((seen) => seen.length === 2));
    expect((await modern.listTools()).tools.map((t) => t.name)).not.toContain('echo');
    await listen.close();
  });

  it('honours each legacy session log level', async () => {
    const { server, http } = await setup();
    const verbose = await connect(http, 'legacy');
    const quiet = await connect(http, 'legacy');
    const verboseLogs = collect(verbose, 'notifications/message');
    const quietLogs = collect(quiet, 'notifications/message');
    await verbose.setLoggingLevel('debug');
    await quiet.setLoggingLevel('error');
    await server.sendLoggingMessage({
      level: 'info',
      data: { message: 'sync done', items: 42 },
      logger: 'sync',
    });
    await server.sendLoggingMessage({ level: 'critical', data: 'disk full' });
    await eventually('both messages at the verbose session', () => verboseLogs.length === 2);
    await eventually('the critical message at the quiet session', () => quietLogs.length === 1);
    expect(verboseLogs[0]).toEqual({
      level: 'info',
      data: { message: 'sync done', items: 42 },
      logger: 'sync',
    });
    expect(quietLogs).toEqual([{ level: 'critical', data: 'disk full' }]);
  });

  it('sends context.mcp.log messages to the calling client only', async () => {
    const { http } = await setup();
    const caller = await connect(http, 'legacy');
    const bystander = await connect(http, 'legacy');
    const callerLogs = collect(caller, 'notifications/message');
    const bystanderLogs = collect(bystander, 'notifications/message');
    await caller.callTool({ name: 'progressTool', arguments: { n: 1 } });
    await eventually('the tool log at the caller', () => callerLogs.length === 1);
    expect(callerLogs[0]).toMatchObject({ level: 'info', data: { message: 'counting started', n: 1 } });
    expect(bystanderLogs).toEqual([]);
  });
});

describe('serverless mode', () => {
  it.each<Era>(['modern', 'legacy'])(
    '%s client: stateless, buffered JSON, no progress and no notifications',
    async (era) => {
      const { server, http } = await setup({ options: { serverless: true } });
      const client = await connect(http, era);
      const toolChanges = collect(client, 'notifications/tools/list_changed');
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'progressTool', arguments: { n: 2 } },
        { onprogress: (update) => progress.push(update.progress) },
      );
      expect(JSON.parse(textOf(result))).toEqual({ counted: 2 });
      expect(progress).toEqual([]);
      const elicit = await client.callTool({ name: 'contactTool', arguments: {} });
      expect(elicit.isError).toBe(true);
      expect(textOf(elicit)).toContain('not available in serverless');
      await server.toolActions.notifyListChanged();
      // Serverless has no standing stream: a server message can only ride on a response, so a
      // notification leaked by the change would have arrived by the end of this later round trip.
      expect(textOf(await client.callTool({ name: 'progressTool', arguments: { n: 1 } }))).toContain(
        'counted',
      );
      expect(toolChanges).toEqual([]);
    },
  );

  it.each<Era>(['modern', 'legacy'])(
    '%s client: serverlessStreaming delivers progress before the result',
    async (era) => {
      const { http } = await setup({ options: { serverless: true, serverlessStreaming: true } });
      const client = await connect(http, era);
      const progress: number[] = [];
      await client.callTool(
        { name: 'progressTool', arguments: { n: 3 } },
        { onprogress: (update) => progress.push(update.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
    },
  );
});

describe('legacy session options', () => {
  it('answers with plain JSON when enableJsonResponse is set', async () => {
    const { http } = await setup({ options: { sessionIdGenerator: randomUUID, enableJsonResponse: true } });
    const client = await connect(http, 'legacy');
    const response = await fetch(http.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': (client.transport as { sessionId?: string }).sessionId ?? '',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(((await response.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(
      5,
    );
  });

  it('stores streamed messages in the event store for resumability', async () => {
    const stored: Array<{ streamId: string; message: JSONRPCMessage }> = [];
    const eventStore: EventStore = {
      storeEvent: async (streamId, message) => {
        stored.push({ streamId, message });
        return `${streamId}_${stored.length}`;
      },
      replayEventsAfter: async (lastEventId, { send }) => {
        const [streamId, index] = [
          lastEventId.slice(0, lastEventId.lastIndexOf('_')),
          Number(lastEventId.split('_').pop()),
        ];
        for (const [i, event] of stored.entries()) {
          if (event.streamId === streamId && i + 1 > index) await send(`${streamId}_${i + 1}`, event.message);
        }
        return streamId;
      },
    };
    const { http } = await setup({ options: { sessionIdGenerator: randomUUID, eventStore } });
    const client = await connect(http, 'legacy');
    await client.callTool({ name: 'weatherTool', arguments: { location: 'Quito' } });
    expect(stored.some((event) => JSON.stringify(event.message).includes('Weather in Quito is sunny.'))).toBe(
      true,
    );
  });
});

describe('more of the MCPServer reference', () => {
  it('on 2026-07-28 the log level arrives with each request', async () => {
    const { http } = await setup();
    const client = await connect(http, 'modern');
    const logs = collect(client, 'notifications/message');
    const call = (level: string) =>
      client.callTool(
        { name: 'progressTool', arguments: { n: 1 }, _meta: { 'io.modelcontextprotocol/logLevel': level } },
        { onprogress: () => {} },
      );
    await call('error');
    await call('debug');
    await eventually('the log of the verbose call', () => logs.length >= 1);
    expect(logs).toEqual([{ level: 'info', data: { message: 'counting started', n: 1 } }]);
  });

  it('toolActions.add replaces a tool by key, and output that breaks the output schema is an error', async () => {
    const { server, http } = await setup();
    const client = await connect(http, 'legacy');
    await server.toolActions.add({
      weatherTool: createTool({
        id: 'getWeather',
        description: 'Replaced: always rainy, and sometimes malformed.',
        inputSchema: z.object({ location: z.string() }),
        outputSchema: z.object({ location: z.string(), forecast: z.string() }),
        execute: async ({ location }) =>
          (location === 'broken' ? { location } : { location, forecast: 'rain' }) as {
            location: string;
            forecast: string;
          },
      }),
    });
    const rainy = await client.callTool({ name: 'weatherTool', arguments: { location: 'Bergen' } });
    expect(rainy.structuredContent).toEqual({ location: 'Bergen', forecast: 'rain' });
    const broken = await client.callTool({ name: 'weatherTool', arguments: { location: 'broken' } });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatch(/weatherTool.*forecast/s);
    expect(server.getToolInfo('weatherTool')?.description).toBe(
      'Replaced: always rainy, and sometimes malformed.',
    );
  });

  it('serves legacy clients statelessly when sessionIdGenerator is undefined', async () => {
    const sessions: string[] = [];
    const { http } = await setup({
      options: { sessionIdGenerator: undefined, onsessioninitialized: (id) => sessions.push(id) },
    });
    const client = await connect(http, 'legacy');
    expect((client.transport as { sessionId?: string }).sessionId).toBeUndefined();
    expect(textOf(await client.callTool({ name: 'zod3Tool', arguments: { a: 1, b: 2 } }))).toBe('3');
    expect(sessions).toEqual([]);
  });

  it('exposes the latest legacy session transport', async () => {
    const { server, http } = await setup();
    expect(server.getStreamableHTTPTransport()).toBeUndefined();
    const client = await connect(http, 'legacy');
    expect(server.getStreamableHTTPTransport()?.sessionId).toBe(
      (client.transport as { sessionId?: string }).sessionId,
    );
    expect(server.getStdioTransport()).toBeUndefined();
  });
});
