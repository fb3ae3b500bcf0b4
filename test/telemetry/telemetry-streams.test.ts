/**
 * OpenTelemetry on the remaining ways in: a tool call through a client proxy's gateway and over
 * the Hono SSE transport, and the 2026-07-28 `subscriptions/listen` stream, whose SERVER span ends
 * once the stream is acknowledged and whose open time is measured as a server session.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { type MastraMCPServerDefinition, MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { modernRequest, serveHttp, serveReplaceable } from '../helpers.js';
import { registeredEachTest, remoteClient, sentAndServed, spanNamed } from '../support/otel.js';
import { ListenStream } from '../support/sse.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
const current = registeredEachTest();
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function served() {
  const server = new MCPServer(fullConfig());
  const http = await serveHttp(server);
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  return Object.assign(http, { mcp: server });
}

const mcpClient = (definition: MastraMCPServerDefinition) => remoteClient(cleanups, definition);

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
const run = (tool: any, input: unknown) => tool.execute(input, {});
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry through a gateway and over Hono SSE', () => {
  it('Hono SSE: the CLIENT span, the SERVER span under it, both TCP, the SSE session on each', async () => {
    const http = await served();
    const client = mcpClient({
      url: new URL(`${http.base}/hono/sse`),
      transport: 'sse',
    } as MastraMCPServerDefinition);
    const tools = await client.listTools();
    expect(JSON.stringify(await run(tools.remote_weatherTool, { location: 'Oslo' }))).toContain('sunny');
    const { sent, served: handled } = sentAndServed(current().spans(), 'tools/call weatherTool');
    for (const span of [sent, handled]) {
      expect(span.attributes['network.transport']).toBe('tcp');
      expect(span.attributes['mcp.protocol.version']).toMatch(/^2025-/);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
    }
    expect(handled.attributes['mcp.session.id']).toMatch(/\S/);
    expect(handled.attributes['gen_ai.tool.name']).toBe('weatherTool');
  });

  it.each(['2026-07-28', 'legacy'] as const)(
    'a proxy gateway at %s: the caller’s CLIENT span, the gateway’s SERVER span under it, then the upstream hop',
    async (protocolVersion) => {
      const upstream = await served();
      const proxying = mcpClient({ url: upstream.mcpUrl, protocolVersion: 'legacy' });
      const { remote: proxy } = await proxying.toMCPServerProxies();
      const gateway = await serveReplaceable(() => proxy as unknown as MCPServer);
      cleanups.push(
        () => gateway.close(),
        async () => proxy?.close(),
      );
      const caller = mcpClient({ url: gateway.mcpUrl, protocolVersion });
      const tools = await caller.listTools();
      expect(JSON.stringify(await run(tools.remote_weatherTool, { location: 'Oslo' }))).toContain('sunny');
      // caller CLIENT -> gateway SERVER -> gateway's upstream CLIENT -> upstream SERVER: one trace.
      const calls = current()
        .spans()
        .filter((span) => span.name === 'tools/call weatherTool');
      expect(calls).toHaveLength(4);
      const root = calls.find((span) => parentOf(span) === undefined) as ReadableSpan;
      expect(root.attributes['server.port']).toBe(Number(gateway.mcpUrl.port));
      const chain = [root];
      for (let child = root; chain.length < 4; chain.push(child)) {
        child = calls.find((span) => parentOf(span) === child.spanContext().spanId) as ReadableSpan;
        expect(child, `hop ${chain.length + 1}`).toBeDefined();
      }
      expect(chain.map((span) => span.kind)).toEqual([
        SpanKind.CLIENT,
        SpanKind.SERVER,
        SpanKind.CLIENT,
        SpanKind.SERVER,
      ]);
      const [, atGateway, upstreamCall] = chain as [ReadableSpan, ReadableSpan, ReadableSpan, ReadableSpan];
      expect(atGateway.attributes).toMatchObject({
        'network.transport': 'tcp',
        'client.address': '127.0.0.1',
        'gen_ai.tool.name': 'weatherTool',
        'mcp.protocol.version': protocolVersion === 'legacy' ? '2025-11-25' : '2026-07-28',
      });
      expect(upstreamCall.attributes['server.port']).toBe(Number(upstream.mcpUrl.port));
      for (const span of chain) {
        expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
        expect(span.status.code).toBe(SpanStatusCode.UNSET);
      }
    },
  );

  it('a proxying client with telemetry off: its gateway traces nothing either', async () => {
    const upstream = await served();
    const proxying = remoteClient(cleanups, { url: upstream.mcpUrl }, { telemetry: { enabled: false } });
    const { remote: proxy } = await proxying.toMCPServerProxies();
    const gateway = await serveReplaceable(() => proxy as unknown as MCPServer);
    cleanups.push(
      () => gateway.close(),
      async () => proxy?.close(),
    );
    const caller = mcpClient({ url: gateway.mcpUrl });
    const tools = await caller.listTools();
    expect(JSON.stringify(await run(tools.remote_weatherTool, { location: 'Oslo' }))).toContain('sunny');
    // The caller and the upstream server trace; the gateway and its upstream hop do not, and the
    // caller's context it passes on makes the upstream span the caller's child.
    const spans = current().spans();
    const calls = spans.filter((span) => span.name === 'tools/call weatherTool');
    expect(calls).toHaveLength(2);
    const sent = spanNamed(spans, 'tools/call weatherTool', SpanKind.CLIENT);
    const atUpstream = spanNamed(spans, 'tools/call weatherTool', SpanKind.SERVER);
    expect(sent.attributes['server.port']).toBe(Number(gateway.mcpUrl.port));
    expect(parentOf(atUpstream)).toBe(sent.spanContext().spanId);
  });
});

describe('a 2026-07-28 subscriptions/listen stream', () => {
  it('gets a SERVER span parented on its _meta traceparent, ended once acknowledged; its open time is a session', async () => {
    const http = await served();
    const traceId = 'a'.repeat(32);
    const callerSpanId = 'b'.repeat(16);
    const stream = await ListenStream.open(http.mcpUrl, (signal) =>
      modernRequest(
        'subscriptions/listen',
        { notifications: { toolsListChanged: true } },
        { id: 'listen-1', meta: { traceparent: `00-${traceId}-${callerSpanId}-01` }, signal },
      ),
    );
    cleanups.push(async () => stream.close());
    expect((await stream.next('the acknowledgement')).method).toBe(
      'notifications/subscriptions/acknowledged',
    );
    // Ended while the stream is still open.
    const span = await eventually('the listen span', () =>
      current()
        .spans()
        .find((ended) => ended.name === 'subscriptions/listen'),
    );
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext).toMatchObject({ spanId: callerSpanId, isRemote: true });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'subscriptions/listen',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
      'client.address': '127.0.0.1',
      'jsonrpc.request.id': 'listen-1',
    });
    expect(span.attributes['mcp.session.id']).toBeUndefined();
    expect(await current().histogram('mcp.server.session.duration')).toEqual([]);
    stream.close();
    const sessions = await eventually('the stream measured as a session', async () => {
      const points = await current().histogram('mcp.server.session.duration');
      return points.length > 0 && points;
    });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      count: 1,
      attributes: { 'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp' },
    });
    expect(spanNamed(current().spans(), 'subscriptions/listen')).toBe(span);
  });
});
