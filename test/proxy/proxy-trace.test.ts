/**
 * Trace context through a client server proxy's gateway, on spans real exporters collected: an SDK
 * client calls the gateway (node:http, 127.0.0.1) of a proxy registered on one Mastra instance,
 * whose MCPClient reaches a traced MCPServer (HTTP, 127.0.0.1) registered on another. With
 * observability on the proxy's instance the gateway has a request span between caller and upstream
 * (three hops, linked both ways); without it the gateway is transparent.
 */
import { Mastra } from '@mastra/core/mastra';
import { type AnyExportedSpan, SpanType } from '@mastra/core/observability';
import type { TestExporter } from '@mastra/observability';
import { afterEach, describe, expect, it } from 'vitest';
import { type MastraMCPServerDefinition, MCPClient, type MCPServer } from '../../src/index.js';
import {
  CALLER,
  CALLER_TRACEPARENT,
  INSPECT_CALL_ATTRIBUTES,
  linksOf,
  servedTraced,
  tracedObservability,
} from '../fixtures/traced.js';
import { connectHttp, type Era, newClient, serveHttp } from '../helpers.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function traceparentOf(span: AnyExportedSpan): string {
  return `00-${span.traceId}-${span.id}-01`;
}

function requestSpans(exporter: TestExporter): AnyExportedSpan[] {
  return exporter.getSpansByType(SpanType.MCP_SERVER_REQUEST);
}

/**
 * The traced upstream, a proxy of it on a second Mastra instance (with observability when `traced`)
 * whose gateway is served over HTTP, and an SDK client of that gateway.
 */
async function throughGateway({
  traced,
  era = 'modern',
  definition = {},
}: {
  traced: boolean;
  era?: Era;
  definition?: Partial<MastraMCPServerDefinition>;
}) {
  const upstream = await servedTraced(cleanups);
  const mcp = new MCPClient({
    id: `proxy-trace-${Math.random()}`,
    registerProcessHooks: false,
    servers: { traced: { url: upstream.http.mcpUrl, ...definition } as MastraMCPServerDefinition },
  });
  cleanups.push(() => mcp.disconnect());
  const proxies = await mcp.toMCPServerProxies();
  const gatewayTracing = traced ? tracedObservability('mcp-gateway') : undefined;
  if (gatewayTracing) cleanups.push(() => gatewayTracing.observability.shutdown());
  new Mastra({
    mcpServers: proxies,
    logger: false,
    ...(gatewayTracing ? { observability: gatewayTracing.observability } : {}),
  });
  const proxy = proxies.traced;
  if (!proxy) throw new Error('no proxy for the traced server');
  const gatewayHttp = await serveHttp(proxy as unknown as MCPServer);
  cleanups.push(
    () => gatewayHttp.close(),
    () => proxy.close(),
  );
  const caller = await connectHttp(gatewayHttp.mcpUrl, era, newClient(era));
  cleanups.push(() => caller.close());
  const flush = async () => {
    await upstream.observability.flush();
    await gatewayTracing?.observability.flush();
  };
  return { upstream, gatewayExporter: gatewayTracing?.exporter, caller, flush };
}

describe('a traced gateway between a caller and a traced MCPServer', () => {
  it.each<Era>(['modern', 'legacy'])(
    '%s caller: caller -> gateway span -> upstream span, linked both ways; the reply names the gateway span',
    async (era) => {
      const { upstream, gatewayExporter, caller, flush } = await throughGateway({ traced: true, era });
      const result = await caller.callTool({
        name: 'inspect',
        arguments: { note: 'via gateway' },
        _meta: { traceparent: CALLER_TRACEPARENT, tracestate: 'vendor=1', baggage: 'tenant=7' },
      });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain('via gateway');
      await flush();

      const [gatewaySpan, ...moreGateway] = requestSpans(gatewayExporter as TestExporter);
      const [upstreamSpan, ...moreUpstream] = requestSpans(upstream.exporter);
      expect(moreGateway).toEqual([]);
      expect(moreUpstream).toEqual([]);
      if (!gatewaySpan || !upstreamSpan) throw new Error('a request span is missing');

      // Caller -> gateway: the gateway span starts its own trace and links to the caller's span.
      expect(gatewaySpan.isRootSpan).toBe(true);
      expect(gatewaySpan.traceId).not.toBe(CALLER.traceId);
      expect(gatewaySpan).toMatchObject({ entityType: 'mcp_server', entityId: 'traced' });
      expect(gatewaySpan.attributes).toMatchObject({
        ...INSPECT_CALL_ATTRIBUTES,
        mcpProtocolVersion: era === 'modern' ? '2026-07-28' : expect.stringMatching(/^2025-/),
        clientName: 'test-client',
      });
      // Gateway -> upstream: the upstream got the gateway span's traceparent with the caller's
      // tracestate and baggage, and links its span to the gateway span; the gateway links back.
      expect(upstream.seen).toEqual([
        { traceparent: traceparentOf(gatewaySpan), tracestate: 'vendor=1', baggage: 'tenant=7' },
      ]);
      expect(linksOf(upstreamSpan)).toEqual([
        { traceId: gatewaySpan.traceId, spanId: gatewaySpan.id, kind: 'mcp.client' },
      ]);
      expect(linksOf(gatewaySpan)).toEqual([
        { ...CALLER, kind: 'mcp.client' },
        { traceId: upstreamSpan.traceId, spanId: upstreamSpan.id, kind: 'mcp.server' },
      ]);
      expect(upstreamSpan.traceId).not.toBe(gatewaySpan.traceId);
      // The caller is answered with the gateway span, never the upstream's.
      expect(result._meta?.traceparent).toBe(traceparentOf(gatewaySpan));
    },
  );

  it('resources/read and prompts/get run in gateway spans linked to the caller and to the upstream spans', async () => {
    const { upstream, gatewayExporter, caller, flush } = await throughGateway({ traced: true });
    const _meta = { traceparent: CALLER_TRACEPARENT };
    const read = await caller.readResource({ uri: 'note://one', _meta });
    const prompt = await caller.getPrompt({ name: 'greet', _meta });
    expect(read.contents).toEqual([
      { uri: 'note://one', mimeType: 'text/plain', text: 'content of note://one' },
    ]);
    expect(prompt.messages).toHaveLength(1);
    await flush();

    const gatewaySpans = requestSpans(gatewayExporter as TestExporter);
    const upstreamSpans = requestSpans(upstream.exporter);
    for (const [reply, method, target] of [
      [read, 'resources/read', 'note://one'],
      [prompt, 'prompts/get', 'greet'],
    ] as const) {
      const gatewaySpan = gatewaySpans.find((span) => reply._meta?.traceparent === traceparentOf(span));
      expect(gatewaySpan?.attributes).toMatchObject({ mcpMethod: method, targetName: target });
      const upstreamSpan = upstreamSpans.find((span) => span.name === `mcp_server: ${method} '${target}'`);
      if (!gatewaySpan || !upstreamSpan) throw new Error(`a ${method} span is missing`);
      expect(linksOf(gatewaySpan)).toEqual([
        { ...CALLER, kind: 'mcp.client' },
        { traceId: upstreamSpan.traceId, spanId: upstreamSpan.id, kind: 'mcp.server' },
      ]);
      expect(linksOf(upstreamSpan)).toEqual([
        { traceId: gatewaySpan.traceId, spanId: gatewaySpan.id, kind: 'mcp.client' },
      ]);
    }
  });

  it('forwards no malformed caller value: the upstream gets the gateway span alone', async () => {
    const { upstream, gatewayExporter, caller, flush } = await throughGateway({ traced: true });
    await caller.callTool({
      name: 'inspect',
      arguments: { note: 'n' },
      _meta: { traceparent: `00-${'0'.repeat(32)}-${CALLER.spanId}-01`, tracestate: 'v=1', baggage: 'a=1' },
    });
    await flush();
    const [gatewaySpan] = requestSpans(gatewayExporter as TestExporter);
    const [upstreamSpan] = requestSpans(upstream.exporter);
    if (!gatewaySpan || !upstreamSpan) throw new Error('a request span is missing');
    expect(upstream.seen).toEqual([{ traceparent: traceparentOf(gatewaySpan) }]);
    expect(linksOf(gatewaySpan)).toEqual([
      { traceId: upstreamSpan.traceId, spanId: upstreamSpan.id, kind: 'mcp.server' },
    ]);
  });

  it("the traceContext option on the proxied server's definition wins over the gateway span", async () => {
    const sent = { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`, baggage: 'from=option' };
    const { upstream, gatewayExporter, caller, flush } = await throughGateway({
      traced: true,
      definition: { traceContext: () => sent },
    });
    const result = await caller.callTool({
      name: 'inspect',
      arguments: { note: 'n' },
      _meta: { traceparent: CALLER_TRACEPARENT },
    });
    await flush();
    expect(upstream.seen).toEqual([sent]);
    const [gatewaySpan] = requestSpans(gatewayExporter as TestExporter);
    if (!gatewaySpan) throw new Error('the gateway span is missing');
    expect(result._meta?.traceparent).toBe(traceparentOf(gatewaySpan));
  });
});

describe('a gateway without observability', () => {
  it("is transparent: the caller's validated values reach the upstream tool unchanged, and the upstream span links to the caller", async () => {
    const { upstream, caller, flush } = await throughGateway({ traced: false });
    const sent = { traceparent: CALLER_TRACEPARENT, tracestate: 'vendor=1', baggage: 'tenant=7' };
    const result = await caller.callTool({ name: 'inspect', arguments: { note: 'n' }, _meta: sent });
    expect(JSON.parse(textOf(result))).toEqual({ note: 'n', traceContext: sent });
    await flush();
    expect(upstream.seen).toEqual([sent]);
    const [upstreamSpan] = requestSpans(upstream.exporter);
    if (!upstreamSpan) throw new Error('the upstream span is missing');
    expect(linksOf(upstreamSpan)).toEqual([{ ...CALLER, kind: 'mcp.client' }]);
    // No gateway span: the caller links straight to the upstream span.
    expect(result._meta?.traceparent).toBe(traceparentOf(upstreamSpan));
  });

  it('forwards only valid values: a malformed traceparent sends nothing, invalid tracestate and baggage are dropped', async () => {
    const { upstream, caller } = await throughGateway({ traced: false });
    await caller.callTool({
      name: 'inspect',
      arguments: { note: 'n' },
      _meta: { traceparent: `${CALLER_TRACEPARENT}\r\nx-admin: 1`, tracestate: 'v=1', baggage: 'a=1' },
    });
    await caller.callTool({
      name: 'inspect',
      arguments: { note: 'n' },
      _meta: { traceparent: CALLER_TRACEPARENT, tracestate: `v=${'x'.repeat(600)}`, baggage: 'a=1\nb=2' },
    });
    expect(upstream.seen).toEqual([undefined, { traceparent: CALLER_TRACEPARENT }]);
  });
});
