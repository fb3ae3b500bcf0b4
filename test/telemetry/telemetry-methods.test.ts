/**
 * OpenTelemetry for the methods beyond tools, resources and prompts, over Streamable HTTP at both
 * eras (each where the method exists): completion/complete, ping, logging/setLevel, skills/*,
 * events/*, tasks/*, and the questions a tool asks its caller (elicitation/create,
 * sampling/createMessage). For each: the CLIENT span, the SERVER span parented on it across the
 * wire, their names, attributes and status. One server and one client per era.
 */
import { createTool } from '@mastra/core/tools';
import type { Client } from '@modelcontextprotocol/client';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectionLookup } from '../../src/client/client.js';
import { MCPClient, MCPServer, type MCPToolContext } from '../../src/index.js';
import { eventTypes } from '../fixtures/events.js';
import { reviewSkill } from '../fixtures/skills.js';
import { releasableWork } from '../fixtures/task-tools.js';
import { fullConfig } from '../fixtures/tools.js';
import { type HttpHarness, serveHttp } from '../helpers.js';
import { registeredEachTest, sentAndServed, spanNamed } from '../support/otel.js';
import { eventually } from '../support/wait.js';

const current = registeredEachTest();
const REVIEW_URI = 'skill://code-review/SKILL.md';

/** Asks its caller a name (elicitation), then its model (sampling). */
const askTool = createTool({
  id: 'ask',
  description: 'Asks a name, then the model',
  inputSchema: z.object({}),
  execute: async (_input, context) => {
    const mcp = context.mcp as unknown as MCPToolContext;
    const named = await mcp.elicitation.sendRequest({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const sampled = await mcp.sampling.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet' } }],
      maxTokens: 5,
    });
    return `${String(named.content?.name)} via ${sampled.model}`;
  },
});

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
const run = (tool: any, input: unknown) => tool.execute(input, {});
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe.each([
  ['2026-07-28', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const)(
  'OpenTelemetry per method over Streamable HTTP, protocolVersion %s',
  (protocolVersion, revision) => {
    const legacy = protocolVersion === 'legacy';
    const { work, releases } = releasableWork();
    let server: MCPServer;
    let http: HttpHarness;
    let client: MCPClient;
    /** The SDK Client under MCPClient's connection, for the methods MCPClient has no call of its own for. */
    const sdk = <T>(operation: (sdkClient: Client) => Promise<T>) =>
      connectionLookup(client).get('remote').run(operation);

    beforeAll(async () => {
      server = new MCPServer(
        fullConfig({
          tools: { ...fullConfig().tools, ask: askTool, work },
          events: { types: eventTypes() },
          tasks: { tools: { work: 'optional' } },
          skills: [reviewSkill],
        }),
      );
      http = await serveHttp(server);
      client = new MCPClient({
        id: `otel-methods-${protocolVersion}`,
        registerProcessHooks: false,
        servers: {
          remote: {
            url: http.mcpUrl,
            protocolVersion,
            inputRequests: async () => ({ action: 'accept', content: { name: 'Ada' } }),
            sampling: {
              handler: async () => ({
                role: 'assistant',
                model: 'm1',
                content: { type: 'text', text: 'hi' },
              }),
            },
          },
        },
      });
      // Connected before any SDK is registered: each test's spans are its own requests'.
      await client.listTools();
    });
    afterAll(async () => {
      for (const release of releases.values()) release();
      await client.disconnect();
      await server.close();
      await http.close();
    });

    /** Both ends of `name` ended well, each saying what the conventions ask of its side. */
    function expectServed(name: string): { sent: ReadableSpan; served: ReadableSpan } {
      const pair = sentAndServed(current().spans(), name);
      for (const span of [pair.sent, pair.served]) {
        expect(span.status.code, name).toBe(SpanStatusCode.UNSET);
        expect(span.attributes['error.type'], name).toBeUndefined();
        expect(span.attributes['mcp.protocol.version'], name).toBe(revision);
        expect(span.attributes['network.transport'], name).toBe('tcp');
        if (legacy) expect(span.attributes['mcp.session.id'], name).toMatch(/\S/);
        else expect(span.attributes['mcp.session.id'], name).toBeUndefined();
      }
      return pair;
    }

    /** A request MCPClient sent: the client's span names the server, the server's the caller. */
    function expectSentByClient(name: string): { sent: ReadableSpan; served: ReadableSpan } {
      const pair = expectServed(name);
      expect(pair.sent.attributes).toMatchObject({
        'server.address': '127.0.0.1',
        'server.port': Number(http.mcpUrl.port),
        'mastra.mcp.server.name': 'remote',
      });
      expect(pair.served.attributes['client.address']).toBe('127.0.0.1');
      expect(typeof pair.sent.attributes['jsonrpc.request.id']).toBe('string');
      expect(pair.served.attributes['jsonrpc.request.id']).toBe(pair.sent.attributes['jsonrpc.request.id']);
      return pair;
    }

    it('completion/complete (and, on 2025, ping and logging/setLevel)', async () => {
      const completed = await sdk((sdkClient) =>
        sdkClient.complete({
          ref: { type: 'ref/prompt', name: 'analyze-code' },
          argument: { name: 'code', value: 'c' },
        }),
      );
      expect(completed.completion.values).toEqual(['const']);
      expectSentByClient('completion/complete');
      if (!legacy) return;
      await sdk((sdkClient) => sdkClient.ping());
      await sdk((sdkClient) => sdkClient.setLoggingLevel('debug'));
      expectSentByClient('ping');
      expectSentByClient('logging/setLevel');
    });

    it('skills/list and skills/get', async () => {
      expect(Object.keys(await client.skills.list())).toEqual(['remote']);
      expect((await client.skills.get('remote', REVIEW_URI)).uri).toBe(REVIEW_URI);
      expectSentByClient('skills/list');
      expectSentByClient('skills/get');
    });

    it('elicitation/create and sampling/createMessage are answered in spans nested in the tools/call that asked', async () => {
      const tools = await client.listTools();
      expect(JSON.stringify(await run(tools.remote_ask, {}))).toContain('Ada via m1');
      const spans = current().spans();
      const calls = spans.filter((span) => span.name === 'tools/call ask' && span.kind === SpanKind.CLIENT);
      if (legacy) {
        // 2025: the server sends each question as a request of its own, under its tools/call span.
        expect(calls).toHaveLength(1);
        const call = expectSentByClient('tools/call ask');
        for (const method of ['elicitation/create', 'sampling/createMessage']) {
          const { sent, served } = expectServed(method);
          expect(parentOf(sent), method).toBe(call.served.spanContext().spanId);
          expect(served.attributes['mastra.mcp.server.name']).toBe('remote');
          expect(served.attributes['mcp.session.id']).toBe(call.served.attributes['mcp.session.id']);
        }
        return;
      }
      // 2026-07-28: the questions come back in input_required results (no request the server
      // sends); the client answers each in a SERVER span and retries the call, all under its first span.
      expect(calls).toHaveLength(3);
      const first = calls.find((span) => parentOf(span) === undefined) as ReadableSpan;
      expect(first).toBeDefined();
      for (const retry of calls.filter((span) => span !== first))
        expect(parentOf(retry)).toBe(first.spanContext().spanId);
      for (const method of ['elicitation/create', 'sampling/createMessage']) {
        const answered = spanNamed(spans, method, SpanKind.SERVER);
        expect(parentOf(answered), method).toBe(first.spanContext().spanId);
        expect(answered.attributes).toMatchObject({
          'mcp.protocol.version': revision,
          'mcp.method.name': method,
        });
        expect(spans.filter((span) => span.name === method && span.kind === SpanKind.CLIENT)).toEqual([]);
      }
      const served = spans.filter((span) => span.name === 'tools/call ask' && span.kind === SpanKind.SERVER);
      expect(served.map(parentOf).sort()).toEqual(calls.map((span) => span.spanContext().spanId).sort());
    });

    // Events and Tasks are 2026-07-28 extensions: a 2025 client is never sent them.
    if (legacy) return;

    it('events/list, events/poll and events/stream', async () => {
      expect((await client.events.list('remote')).map((type) => type.name)).toContain('repo.push');
      const polled = await client.events.subscribe('remote', 'report.ready', {}, { delivery: 'poll' });
      await polled.cancel();
      const pushed = await client.events.subscribe(
        'remote',
        'repo.push',
        { repo: 'a' },
        { delivery: 'push' },
      );
      await pushed.cancel();
      // The stream's spans end once its cancellation has been answered; each subscribe lists the types first.
      const spans = await eventually('the events/stream spans', () => {
        const ended = current().spans();
        return ended.filter((span) => span.name === 'events/stream').length === 2 && ended;
      });
      expect(
        spans.filter((span) => span.name === 'events/list' && span.kind === SpanKind.SERVER),
      ).toHaveLength(3);
      const polls = spans.filter((span) => span.name === 'events/poll');
      expect(polls.length).toBeGreaterThanOrEqual(2);
      const poll = polls.find((span) => span.kind === SpanKind.CLIENT) as ReadableSpan;
      const pollServed = polls.find((span) => parentOf(span) === poll.spanContext().spanId) as ReadableSpan;
      expect(pollServed.kind).toBe(SpanKind.SERVER);
      expect(pollServed.status.code).toBe(SpanStatusCode.UNSET);
      // The stream's spans last the stream; closing it is how it ends, not a failure (nor a timeout).
      const stream = sentAndServed(spans, 'events/stream');
      for (const span of [stream.sent, stream.served]) {
        expect(span.status.code).toBe(SpanStatusCode.UNSET);
        expect(span.attributes['error.type']).toBeUndefined();
      }
      expect(stream.served.attributes['jsonrpc.request.id']).toBe(
        stream.sent.attributes['jsonrpc.request.id'],
      );
      const active = sentAndServed(spans, 'notifications/events/active');
      expect(parentOf(active.sent)).toBe(stream.served.spanContext().spanId);
    });

    it('tasks/get, tasks/update and tasks/cancel, after the tools/call that started the task', async () => {
      const started = await client.tasks.start('remote', 'work', { label: 'task-spans' });
      const taskId = started.taskId as string;
      expect(taskId).toMatch(/\S/);
      expect((await client.tasks.get('remote', taskId)).status).toBe('working');
      await client.tasks.update('remote', taskId, {});
      await client.tasks.cancel('remote', taskId);
      expectSentByClient('tools/call work');
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) expectSentByClient(method);
    });
  },
);
