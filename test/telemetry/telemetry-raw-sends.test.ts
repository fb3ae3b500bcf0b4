/**
 * The messages the SDK Client writes to its transport itself, traced by MCPClient's transport tap
 * (src/client/transport-telemetry.ts): the connect's `server/discover` probe, the listen request
 * behind a resource subscription (its span ends at the acknowledgement; the open stream is
 * measured as a session), and the `notifications/cancelled` a timed-out 2025 call sends. Each is a
 * CLIENT span carrying its context in `_meta`, so MCPServer's span continues its trace.
 */
import { createTool } from '@mastra/core/tools';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';
import { inProcessClient } from '../support/in-process.js';
import { registeredEachTest, spanNamed } from '../support/otel.js';

const cleanups: Array<() => Promise<unknown>> = [];
const current = registeredEachTest();
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const slowTool = createTool({
  id: 'slow',
  description: 'Answers after two seconds.',
  inputSchema: z.object({}),
  execute: async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_000).unref());
    return 'late';
  },
});

async function connected(protocolVersion: '2026-07-28' | 'legacy', timeout?: number) {
  const server = new MCPServer(fullConfig({ tools: { ...fullConfig().tools, slow: slowTool } }));
  const http = await serveHttp(server);
  const mcp = new MCPClient({
    id: `otel-raw-${Math.random()}`,
    registerProcessHooks: false,
    servers: { remote: { url: http.mcpUrl, protocolVersion, ...(timeout ? { timeout } : {}) } },
  });
  cleanups.push(
    () => server.close(),
    () => http.close(),
    () => mcp.disconnect(),
  );
  return { mcp, url: http.mcpUrl };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry for what the SDK writes to the transport directly', () => {
  it('the server/discover probe of a 2026-07-28 connect is a CLIENT span answered by a SERVER span under it', async () => {
    const { mcp, url } = await connected('2026-07-28');
    await mcp.listTools();
    const spans = current().spans();
    const probe = spanNamed(spans, 'server/discover', SpanKind.CLIENT);
    expect(probe.attributes).toMatchObject({
      'mcp.method.name': 'server/discover',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'server.address': '127.0.0.1',
      'server.port': Number(url.port),
      'mastra.mcp.server.name': 'remote',
    });
    expect(probe.attributes['jsonrpc.request.id']).toMatch(/^server-discover-probe-\d+$/);
    expect(probe.status.code).toBe(SpanStatusCode.UNSET);
    const served = spanNamed(spans, 'server/discover', SpanKind.SERVER);
    expect(parentOf(served)).toBe(probe.spanContext().spanId);
    expect(served.spanContext().traceId).toBe(probe.spanContext().traceId);
    expect(served.attributes['network.protocol.name']).toBe('http');
    expect(served.attributes['network.protocol.version']).toBe('1.1');
    // The tools/list after the probe is its own trace.
    const list = spanNamed(spans, 'tools/list', SpanKind.CLIENT);
    expect(list.spanContext().traceId).not.toBe(probe.spanContext().traceId);
  });

  it('a 2026-07-28 resource subscription: the listen request in a CLIENT span to its acknowledgement, the stream measured as a session', async () => {
    const { mcp } = await connected('2026-07-28');
    await mcp.resources.subscribe('remote', 'file://data/1.txt');
    const otel = current();
    const listen = spanNamed(otel.spans(), 'subscriptions/listen', SpanKind.CLIENT);
    expect(listen.attributes).toMatchObject({
      'mcp.method.name': 'subscriptions/listen',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
    });
    expect(listen.attributes['jsonrpc.request.id']).toMatch(/^listen:\d+$/);
    expect(listen.status.code).toBe(SpanStatusCode.UNSET);
    // 2026-07-28 HTTP has no session of its own: only the stream is measured, once it ends.
    expect(await otel.histogram('mcp.client.session.duration')).toEqual([]);
    await mcp.disconnect();
    const [stream] = await otel.histogram('mcp.client.session.duration');
    expect(stream?.count).toBe(1);
    expect(stream?.attributes).toMatchObject({
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
    });
  });

  it('a 2025 call that times out sends notifications/cancelled in a CLIENT span under the call’s, and the server’s span continues it', async () => {
    const { mcp } = await connected('legacy', 300);
    const tools = await mcp.listTools();
    await expect(tools.remote_slow?.execute?.({}, {} as never)).rejects.toThrow();
    const otel = current();
    const call = spanNamed(otel.spans(), 'tools/call slow', SpanKind.CLIENT);
    expect(call.attributes['error.type']).toBe('timeout');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    // The call fails at once; the cancellation's POST ends a moment later, and its handling after it.
    const named = (kind: SpanKind) =>
      otel.spans().find((span) => span.name === 'notifications/cancelled' && span.kind === kind);
    await expect.poll(() => named(SpanKind.CLIENT)).toBeDefined();
    const cancelled = spanNamed(otel.spans(), 'notifications/cancelled', SpanKind.CLIENT);
    expect(parentOf(cancelled)).toBe(call.spanContext().spanId);
    expect(cancelled.attributes['jsonrpc.request.id']).toBeUndefined();
    expect(cancelled.attributes['mcp.session.id']).toMatch(/\S/);
    await expect.poll(() => named(SpanKind.SERVER)).toBeDefined();
    const served = spanNamed(otel.spans(), 'notifications/cancelled', SpanKind.SERVER);
    expect(parentOf(served)).toBe(cancelled.spanContext().spanId);
  });

  it('over stdio the listen request the SDK serves itself has a SERVER span under the CLIENT span, and both ends measure the stream', async () => {
    const server = new MCPServer(fullConfig());
    const { mcp } = inProcessClient({ remote: { server } });
    cleanups.push(
      () => server.close(),
      () => mcp.disconnect(),
    );
    await mcp.resources.subscribe('remote', 'file://data/1.txt');
    const otel = current();
    await expect
      .poll(() =>
        otel.spans().find((span) => span.name === 'subscriptions/listen' && span.kind === SpanKind.SERVER),
      )
      .toBeDefined();
    const listen = spanNamed(otel.spans(), 'subscriptions/listen', SpanKind.CLIENT);
    const served = spanNamed(otel.spans(), 'subscriptions/listen', SpanKind.SERVER);
    expect(parentOf(served)).toBe(listen.spanContext().spanId);
    expect(served.attributes).toMatchObject({
      'mcp.method.name': 'subscriptions/listen',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'pipe',
      'jsonrpc.request.id': listen.attributes['jsonrpc.request.id'],
    });
    expect(served.status.code).toBe(SpanStatusCode.UNSET);
    // The stdio connection is a session of its own on both ends; the stream is one more on each.
    await mcp.disconnect();
    await expect.poll(async () => (await otel.histogram('mcp.server.session.duration'))[0]?.count).toBe(2);
    expect((await otel.histogram('mcp.client.session.duration'))[0]?.count).toBe(2);
  });
});
