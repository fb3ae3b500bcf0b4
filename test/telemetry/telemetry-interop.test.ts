/**
 * One trace from a Mastra Agent's tool call into a tool's own work, OpenTelemetry beside Mastra's
 * observability (the two name the same caller span), and interoperability with the SDK's own
 * client and server: a trace a plain SDK client propagates in `_meta` continues in MCPServer, and a
 * plain SDK McpServer reads MCPClient's `traceparent`; with the app's propagators registered,
 * `tracestate` and `baggage` cross the wire too.
 */
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { McpServer } from '@modelcontextprotocol/server';
import { context, propagation, ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import {
  CompositePropagator,
  TraceState,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallingModel } from '../../examples/mock-model.js';
import { MCPClient, MCPServer } from '../../src/index.js';
import { CALLER, CALLER_TRACEPARENT, linksOf, servedTraced } from '../fixtures/traced.js';
import { connectHttp, serveHttp } from '../helpers.js';
import { registeredEachTest, sentAndServed as sentAndServedOf, spanNamed } from '../support/otel.js';
import { serveSdkOverHttp } from '../support/sdk-http.js';

const cleanups: Array<() => Promise<unknown>> = [];
const current = registeredEachTest();
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function mcpClient(url: URL, protocolVersion: '2026-07-28' | 'legacy' = '2026-07-28') {
  const client = new MCPClient({
    id: `otel-${Math.random()}`,
    registerProcessHooks: false,
    servers: { remote: { url, protocolVersion } },
  });
  cleanups.push(() => client.disconnect());
  return client;
}

describe('one trace across the wire', () => {
  it('an Agent’s tool call: the app’s span, MCPClient’s CLIENT span, MCPServer’s SERVER span, the tool’s own span', async () => {
    const server = new MCPServer({
      name: 'Lookups',
      version: '1.0.0',
      tools: {
        lookup: createTool({
          id: 'lookup',
          description: 'Looks a key up.',
          inputSchema: z.object({ key: z.string() }),
          execute: async ({ key }) =>
            trace.getTracer('app').startActiveSpan('database query', async (span) => {
              span.end();
              return `value of ${key}`;
            }),
        }),
      },
    });
    const served = await serveHttp(server);
    cleanups.push(
      () => server.close(),
      () => served.close(),
    );
    const client = mcpClient(served.mcpUrl);
    const agent = new Agent({
      id: 'caller',
      name: 'Caller',
      instructions: 'Use the tool.',
      model: toolCallingModel('remote_lookup', { key: 'k1' }),
      tools: await client.listTools(),
    });
    const answer = await trace.getTracer('app').startActiveSpan('handle chat message', async (root) => {
      const output = await agent.generate('Look k1 up');
      root.end();
      return output;
    });
    expect(answer.text).toContain('value of k1');
    const spans = current().spans();
    const root = spanNamed(spans, 'handle chat message');
    const clientSpan = spanNamed(spans, 'tools/call lookup', SpanKind.CLIENT);
    const serverSpan = spanNamed(spans, 'tools/call lookup', SpanKind.SERVER);
    const query = spanNamed(spans, 'database query');
    expect(clientSpan.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(clientSpan.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
    expect(query.parentSpanContext?.spanId).toBe(serverSpan.spanContext().spanId);
    expect(query.spanContext().traceId).toBe(root.spanContext().traceId);
  });

  it('beside Mastra observability: the server’s MCP_SERVER_REQUEST span links to the same CLIENT span OpenTelemetry parents on', async () => {
    const traced = await servedTraced(cleanups);
    const client = mcpClient(traced.http.mcpUrl);
    const tools = await client.listTools();
    await tools.remote_inspect?.execute?.({ note: 'n' }, {} as never);
    await traced.observability.flush();
    const clientSpan = spanNamed(current().spans(), 'tools/call inspect', SpanKind.CLIENT);
    const serverSpan = spanNamed(current().spans(), 'tools/call inspect', SpanKind.SERVER);
    const ids = { traceId: clientSpan.spanContext().traceId, spanId: clientSpan.spanContext().spanId };
    expect(serverSpan.parentSpanContext).toMatchObject(ids);
    const [mastraSpan] = traced.exporter.getSpansByType('mcp_server_request' as never);
    expect(linksOf(mastraSpan)).toEqual([{ ...ids, kind: 'mcp.client' }]);
  });
});

describe('interoperability with the SDK’s own client and server', () => {
  it.each(['modern', 'legacy'] as const)(
    'a %s SDK Client propagating in _meta: MCPServer’s SERVER span continues its trace',
    async (era) => {
      const server = new MCPServer({
        name: 'S',
        version: '1.0.0',
        tools: {
          echo: createTool({
            id: 'echo',
            description: 'Echoes.',
            inputSchema: z.object({ text: z.string() }),
            execute: async ({ text }) => text,
          }),
        },
      });
      const served = await serveHttp(server);
      cleanups.push(
        () => server.close(),
        () => served.close(),
      );
      const sdkClient = await connectHttp(served.mcpUrl, era);
      cleanups.push(() => sdkClient.close());
      await sdkClient.callTool({
        name: 'echo',
        arguments: { text: 'hi' },
        _meta: { traceparent: CALLER_TRACEPARENT },
      });
      const serverSpan = spanNamed(current().spans(), 'tools/call echo', SpanKind.SERVER);
      expect(serverSpan.spanContext().traceId).toBe(CALLER.traceId);
      expect(serverSpan.parentSpanContext).toMatchObject({ ...CALLER, isRemote: true });
    },
  );

  it('an SDK McpServer reading _meta.traceparent sees MCPClient’s CLIENT span', async () => {
    const seen: unknown[] = [];
    const url = await serveSdkOverHttp(() => {
      const sdkServer = new McpServer({ name: 'plain', version: '1.0.0' });
      sdkServer.registerTool('whoCalls', { inputSchema: z.object({}) }, async (_args, ctx) => {
        seen.push(ctx.mcpReq._meta?.traceparent);
        return { content: [{ type: 'text', text: 'ok' }] };
      });
      return sdkServer;
    }, cleanups);
    const client = mcpClient(url);
    const tools = await client.listTools();
    await tools.remote_whoCalls?.execute?.({}, {} as never);
    const clientSpan = spanNamed(current().spans(), 'tools/call whoCalls', SpanKind.CLIENT);
    const { traceId, spanId } = clientSpan.spanContext();
    expect(seen).toEqual([`00-${traceId}-${spanId}-01`]);
  });
});

describe('the app’s registered propagators', () => {
  it('W3C trace context and baggage: tracestate and baggage cross the wire into the tool', async () => {
    propagation.setGlobalPropagator(
      new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
      }),
    );
    cleanups.push(async () => propagation.disable());
    const seen: Array<string | undefined> = [];
    const server = new MCPServer({
      name: 'S',
      version: '1.0.0',
      tools: {
        whoCalls: createTool({
          id: 'whoCalls',
          description: 'Reads the baggage it runs under.',
          inputSchema: z.object({}),
          execute: async () => {
            seen.push(propagation.getActiveBaggage()?.getEntry('tenant')?.value);
            return 'ok';
          },
        }),
      },
    });
    const served = await serveHttp(server);
    cleanups.push(
      () => server.close(),
      () => served.close(),
    );
    const tools = await mcpClient(served.mcpUrl).listTools();
    const appSpan = trace.wrapSpanContext({
      traceId: CALLER.traceId,
      spanId: CALLER.spanId,
      traceFlags: TraceFlags.SAMPLED,
      traceState: new TraceState('vendor=blue'),
    });
    const caller = propagation.setBaggage(
      trace.setSpan(ROOT_CONTEXT, appSpan),
      propagation.createBaggage({ tenant: { value: 'acme' } }),
    );
    await context.with(caller, () => tools.remote_whoCalls?.execute?.({}, {} as never));
    expect(seen).toEqual(['acme']);
    const { sent, served: handled } = sentAndServedOf(current().spans(), 'tools/call whoCalls');
    expect(sent.parentSpanContext?.spanId).toBe(CALLER.spanId);
    expect(handled.parentSpanContext?.traceState?.serialize()).toBe('vendor=blue');
  });
});
