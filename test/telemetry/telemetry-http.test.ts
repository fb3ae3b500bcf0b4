/**
 * OpenTelemetry over HTTP at both eras, asserted on spans and measurements a real SDK collected:
 * MCPClient's CLIENT span and MCPServer's SERVER span for each method, parented across the wire
 * through `params._meta`, with the conventions' names, attributes and status.
 */

import { createTool } from '@mastra/core/tools';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';
import { registeredEachTest, spanNamed } from '../support/otel.js';

const cleanups: Array<() => Promise<unknown>> = [];
const current = registeredEachTest();
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A tool whose work starts a span of the app's own: it must be a child of the server's span. */
const downstreamTool = createTool({
  id: 'lookup',
  description: 'Looks something up, tracing its own work.',
  inputSchema: z.object({ key: z.string() }),
  execute: async ({ key }) =>
    trace.getTracer('app').startActiveSpan('database query', async (span) => {
      span.end();
      return { key, found: true };
    }),
});

async function served() {
  const server = new MCPServer(fullConfig({ tools: { ...fullConfig().tools, lookup: downstreamTool } }));
  const http = await serveHttp(server);
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  return http;
}

function mcpClient(url: URL, protocolVersion: '2026-07-28' | 'legacy', telemetry?: object) {
  const client = new MCPClient({
    id: `otel-${Math.random()}`,
    registerProcessHooks: false,
    servers: { remote: { url, protocolVersion } },
    ...(telemetry ? { telemetry } : {}),
  });
  cleanups.push(() => client.disconnect());
  return client;
}

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
const run = (tool: any, input: unknown) => tool.execute(input, {});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** What a client says of its `lookup` call, on its span and its measurement alike. */
const lookupCall = (revision: string, url: URL) => ({
  'mcp.method.name': 'tools/call',
  'gen_ai.tool.name': 'lookup',
  'gen_ai.operation.name': 'execute_tool',
  'mcp.protocol.version': revision,
  'network.transport': 'tcp',
  'server.address': '127.0.0.1',
  'server.port': Number(url.port),
});

describe.each([
  ['2026-07-28', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const)('OpenTelemetry over Streamable HTTP, protocolVersion %s', (protocolVersion, revision) => {
  it('a tool call is one trace: CLIENT span, SERVER span under it, the tool’s own span under that', async () => {
    const http = await served();
    const client = mcpClient(http.mcpUrl, protocolVersion);
    const tools = await client.listTools();
    const result = await trace.getTracer('test').startActiveSpan('agent run', async (root) => {
      const output = await run(tools.remote_lookup, { key: 'k1' });
      root.end();
      return output;
    });
    expect(JSON.stringify(result)).toContain('k1');
    const spans = current().spans();
    const root = spanNamed(spans, 'agent run');
    const clientSpan = spanNamed(spans, 'tools/call lookup', SpanKind.CLIENT);
    const serverSpan = spanNamed(spans, 'tools/call lookup', SpanKind.SERVER);
    const query = spanNamed(spans, 'database query');
    const traceId = root.spanContext().traceId;
    for (const span of [clientSpan, serverSpan, query]) expect(span.spanContext().traceId).toBe(traceId);
    expect(parentOf(clientSpan)).toBe(root.spanContext().spanId);
    expect(parentOf(serverSpan)).toBe(clientSpan.spanContext().spanId);
    expect(serverSpan.parentSpanContext?.isRemote).toBe(true);
    expect(parentOf(query)).toBe(serverSpan.spanContext().spanId);

    expect(clientSpan.attributes).toMatchObject({
      ...lookupCall(revision, http.mcpUrl),
      'mastra.mcp.server.name': 'remote',
    });
    expect(typeof clientSpan.attributes['jsonrpc.request.id']).toBe('string');
    expect(serverSpan.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': revision,
      'network.transport': 'tcp',
      'client.address': '127.0.0.1',
      'jsonrpc.request.id': clientSpan.attributes['jsonrpc.request.id'],
    });
    for (const span of [clientSpan, serverSpan]) {
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes['error.type']).toBeUndefined();
      // Nothing captured by default.
      expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
      if (protocolVersion === 'legacy') expect(span.attributes['mcp.session.id']).toMatch(/\S/);
      else expect(span.attributes['mcp.session.id']).toBeUndefined();
    }
  });

  it('names and describes the lists, resources/read and prompts/get on both ends', async () => {
    const http = await served();
    const client = mcpClient(http.mcpUrl, protocolVersion);
    await client.listTools();
    await client.resources.list();
    await client.resources.templates();
    await client.resources.read('remote', 'file://data/1.txt');
    await client.prompts.get({ serverName: 'remote', name: 'analyze-code', args: { code: 'x' } });
    const spans = current().spans();
    for (const name of [
      'tools/list',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'prompts/get analyze-code',
    ]) {
      const clientSpan = spanNamed(spans, name, SpanKind.CLIENT);
      const serverSpan = spanNamed(spans, name, SpanKind.SERVER);
      expect(parentOf(serverSpan), name).toBe(clientSpan.spanContext().spanId);
      expect(serverSpan.attributes['mcp.method.name']).toBe(name.split(' ')[0]);
    }
    expect(spanNamed(spans, 'resources/read', SpanKind.SERVER).attributes['mcp.resource.uri']).toBe(
      'file://data/1.txt',
    );
    expect(
      spanNamed(spans, 'prompts/get analyze-code', SpanKind.CLIENT).attributes['gen_ai.prompt.name'],
    ).toBe('analyze-code');
    // A 2025 session's handshake is traced too, its notification included (a pinned 2026-07-28 client sends neither).
    const handshakes = spans.filter((span) => span.name === 'initialize' && span.kind === SpanKind.CLIENT);
    expect(handshakes).toHaveLength(protocolVersion === 'legacy' ? 1 : 0);
    if (protocolVersion === 'legacy') {
      const sent = spanNamed(spans, 'notifications/initialized', SpanKind.CLIENT);
      const received = spanNamed(spans, 'notifications/initialized', SpanKind.SERVER);
      expect(parentOf(received)).toBe(sent.spanContext().spanId);
      expect(received.attributes['jsonrpc.request.id']).toBeUndefined();
      // Sent before the SDK records the revision as negotiated: the span still names it and the session.
      expect(sent.attributes['mcp.protocol.version']).toBe(revision);
      expect(sent.attributes['mcp.session.id']).toBe(received.attributes['mcp.session.id']);
      expect(sent.attributes['mcp.session.id']).toMatch(/\S/);
    }
  });

  it('an isError result is tool_error and a protocol error its JSON-RPC code, both with status ERROR', async () => {
    const http = await served();
    const client = mcpClient(http.mcpUrl, protocolVersion);
    const tools = await client.listTools();
    await run(tools.remote_failingTool, {}).catch(() => undefined);
    await client.resources.read('remote', 'file://nope').catch(() => undefined);
    const spans = current().spans();
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const toolSpan = spanNamed(spans, 'tools/call failingTool', kind);
      expect(toolSpan.attributes['error.type']).toBe('tool_error');
      expect(toolSpan.status.code).toBe(SpanStatusCode.ERROR);
      const read = spans
        .filter((span) => span.name === 'resources/read' && span.kind === kind)
        .at(-1) as ReadableSpan;
      expect(read.status.code).toBe(SpanStatusCode.ERROR);
      expect(read.attributes['error.type']).toMatch(/^-32\d{3}$/);
      expect(read.attributes['rpc.response.status_code']).toBe(read.attributes['error.type']);
      expect(read.status.message).toMatch(/file:\/\/nope/);
    }
  });

  it('records the operation durations on both sides with the conventions’ attributes', async () => {
    const http = await served();
    const client = mcpClient(http.mcpUrl, protocolVersion);
    const tools = await client.listTools();
    await run(tools.remote_lookup, { key: 'k' });
    const clientPoints = await current().histogram('mcp.client.operation.duration');
    const serverPoints = await current().histogram('mcp.server.operation.duration');
    const call = (points: typeof clientPoints) =>
      points.find((point) => point.attributes['mcp.method.name'] === 'tools/call');
    expect(call(clientPoints)).toMatchObject({ count: 1, attributes: lookupCall(revision, http.mcpUrl) });
    expect(call(serverPoints)?.count).toBe(1);
    // High-cardinality attributes stay on spans.
    for (const point of [...clientPoints, ...serverPoints]) {
      expect(Object.keys(point.attributes)).not.toContain('jsonrpc.request.id');
      expect(Object.keys(point.attributes)).not.toContain('mcp.session.id');
      expect(Object.keys(point.attributes)).not.toContain('client.address');
    }
  });
});
