/**
 * OpenTelemetry on the other transports and under the options: legacy SSE, a stdio child process,
 * requests a 2025 server sends its client (roots/list), no SDK registered, `enabled: false`,
 * content capture and its cap, and providers given in the options instead of registered globally.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTool } from '@mastra/core/tools';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type MastraMCPServerDefinition,
  MCPClient,
  MCPServer,
  type MCPTelemetryOptions,
} from '../../src/index.js';
import { rootsTool } from '../fixtures/input-tools.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';
import {
  otelProviders,
  type RegisteredOtel,
  registerOtel,
  remoteClient,
  spanNamed,
} from '../support/otel.js';
import { textOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function registered(): RegisteredOtel {
  const otel = registerOtel();
  cleanups.push(() => otel.unregister());
  return otel;
}

/** What trace context reached the tool: `_meta`'s (as `requestContext` exposes it) and an active span. */
const traceSeen = createTool({
  id: 'traceSeen',
  description: 'Reports the trace context it runs in.',
  inputSchema: z.object({}),
  execute: async (_input, context) => ({
    received: context?.requestContext?.get('traceContext') ?? null,
    active: trace.getActiveSpan() !== undefined,
  }),
});

async function served(telemetry?: MCPTelemetryOptions) {
  const server = new MCPServer(
    fullConfig({
      tools: { ...fullConfig().tools, roots: rootsTool, traceSeen },
      ...(telemetry ? { telemetry } : {}),
    }),
  );
  const http = await serveHttp(server);
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  return Object.assign(http, { mcp: server });
}

const mcpClient = (
  definition: MastraMCPServerDefinition,
  options: Partial<ConstructorParameters<typeof MCPClient>[0]> = {},
) => remoteClient(cleanups, definition, options);

// biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
const run = (tool: any, input: unknown) => tool.execute(input, {});
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry on every transport', () => {
  it('legacy SSE: both ends traced, one trace, the SSE session id on each span', async () => {
    const otel = registered();
    const http = await served();
    const client = mcpClient({
      url: new URL(`${http.base}/sse`),
      transport: 'sse',
    } as MastraMCPServerDefinition);
    const tools = await client.listTools();
    await run(tools.remote_weatherTool, { location: 'Oslo' });
    const spans = otel.spans();
    const clientSpan = spanNamed(spans, 'tools/call weatherTool', SpanKind.CLIENT);
    const serverSpan = spanNamed(spans, 'tools/call weatherTool', SpanKind.SERVER);
    expect(parentOf(serverSpan)).toBe(clientSpan.spanContext().spanId);
    expect(serverSpan.attributes['mcp.session.id']).toMatch(/\S/);
    expect(serverSpan.attributes['network.transport']).toBe('tcp');
    expect(clientSpan.attributes['mcp.protocol.version']).toMatch(/^2025-/);
  });

  it.each(['2026-07-28', 'legacy'] as const)(
    'stdio at %s: CLIENT spans say pipe, the server’s SERVER span continues the trace, the connection is a session',
    async (protocolVersion) => {
      const otel = registered();
      const dir = await mkdtemp(join(tmpdir(), 'otel-stdio-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const spansFile = join(dir, 'spans.jsonl');
      // The server runs with an SDK of its own, its spans appended to a file (stdout is the protocol's).
      const client = mcpClient({
        command: process.execPath,
        args: ['--import', 'tsx', 'test/fixtures/otel-stdio-server.ts'],
        env: { OTEL_SPANS_FILE: spansFile },
        protocolVersion,
      } as MastraMCPServerDefinition);
      const tools = await client.listTools();
      await run(tools.remote_weatherTool, { location: 'Oslo' });
      const clientSpan = spanNamed(otel.spans(), 'tools/call weatherTool', SpanKind.CLIENT);
      expect(clientSpan.attributes).toMatchObject({
        'network.transport': 'pipe',
        'gen_ai.tool.name': 'weatherTool',
      });
      expect(clientSpan.attributes['server.address']).toBeUndefined();
      expect(clientSpan.attributes['mcp.session.id']).toBeUndefined();
      // A pinned revision is probed over the connection's own pipe (MCPClient's transport probes in place).
      const probes = otel.spans().filter((span) => span.name === 'server/discover');
      if (protocolVersion === 'legacy') expect(probes).toEqual([]);
      else
        expect(probes.map((span) => [span.kind, span.attributes['network.transport']])).toEqual([
          [SpanKind.CLIENT, 'pipe'],
        ]);
      const served = (await readFile(spansFile, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .filter((span) => span.name === 'tools/call weatherTool');
      expect(served).toHaveLength(1);
      expect(served[0]).toMatchObject({
        kind: SpanKind.SERVER,
        traceId: clientSpan.spanContext().traceId,
        parent: { spanId: clientSpan.spanContext().spanId, isRemote: true },
        attributes: {
          'network.transport': 'pipe',
          'gen_ai.tool.name': 'weatherTool',
          'mcp.method.name': 'tools/call',
        },
      });
      await client.disconnect();
      const sessions = await otel.histogram('mcp.client.session.duration');
      expect(sessions).toHaveLength(1);
      expect(sessions[0]?.attributes).toMatchObject({ 'network.transport': 'pipe' });
      expect(sessions[0]?.count).toBe(1);
    },
  );

  it('a 2025 server’s roots/list to its client: a CLIENT span on the server, a SERVER span on the client, nested in the call', async () => {
    const otel = registered();
    const http = await served();
    const client = mcpClient(
      { url: http.mcpUrl, protocolVersion: 'legacy' },
      { roots: [{ uri: 'file:///work', name: 'work' }] },
    );
    const tools = await client.listTools();
    expect(JSON.stringify(await run(tools.remote_roots, {}))).toContain('file:///work');
    const spans = otel.spans();
    const served2 = spanNamed(spans, 'tools/call roots', SpanKind.SERVER);
    const asked = spanNamed(spans, 'roots/list', SpanKind.CLIENT);
    const answered = spanNamed(spans, 'roots/list', SpanKind.SERVER);
    expect(parentOf(asked)).toBe(served2.spanContext().spanId);
    expect(parentOf(answered)).toBe(asked.spanContext().spanId);
    expect(answered.attributes['mastra.mcp.server.name']).toBe('remote');
    // The session both ends share.
    expect(answered.attributes['mcp.session.id']).toBe(served2.attributes['mcp.session.id']);
    await client.disconnect();
    const sessions = await otel.histogram('mcp.client.session.duration');
    expect(sessions.map((point) => point.attributes['network.transport'])).toEqual(['tcp']);
    // The server measures each session when it ends: here, as the server closes.
    await http.mcp.close();
    const serverSessions = await eventually('the server session measured', async () => {
      const points = await otel.histogram('mcp.server.session.duration');
      return points.length > 0 ? points : undefined;
    });
    expect(serverSessions[0]).toMatchObject({
      count: 1,
      attributes: { 'mcp.protocol.version': '2025-11-25' },
    });
  });
});

describe('OpenTelemetry options', () => {
  it('with no SDK registered: no trace context is sent, none is active in the tool, the call works', async () => {
    const http = await served();
    const client = mcpClient({ url: http.mcpUrl, protocolVersion: '2026-07-28' });
    const tools = await client.listTools();
    expect(JSON.stringify(await run(tools.remote_weatherTool, { location: 'Oslo' }))).toContain('sunny');
    expect(JSON.parse(textOf(await run(tools.remote_traceSeen, {})))).toEqual({
      received: null,
      active: false,
    });
  });

  it('with an SDK registered the tool sees the CLIENT span’s traceparent and its own SERVER span active', async () => {
    const otel = registered();
    const http = await served();
    const client = mcpClient({ url: http.mcpUrl, protocolVersion: '2026-07-28' });
    const tools = await client.listTools();
    const seen = JSON.parse(textOf(await run(tools.remote_traceSeen, {})));
    const { traceId, spanId } = spanNamed(
      otel.spans(),
      'tools/call traceSeen',
      SpanKind.CLIENT,
    ).spanContext();
    expect(seen).toEqual({ received: { traceparent: `00-${traceId}-${spanId}-01` }, active: true });
  });

  it('enabled: false on both ends: no span and no measurement though an SDK is registered', async () => {
    const otel = registered();
    const http = await served({ enabled: false });
    const client = mcpClient(
      { url: http.mcpUrl, protocolVersion: 'legacy' },
      { telemetry: { enabled: false } },
    );
    const tools = await client.listTools();
    await run(tools.remote_weatherTool, { location: 'Oslo' });
    expect(otel.spans()).toEqual([]);
    expect(await otel.histogram('mcp.client.operation.duration')).toEqual([]);
    expect(await otel.histogram('mcp.server.operation.duration')).toEqual([]);
  });

  it('captureContent records arguments and results as JSON, cut at maxContentBytes', async () => {
    const otel = registered();
    const http = await served({ captureContent: true, maxContentBytes: 40 });
    const client = mcpClient(
      { url: http.mcpUrl, protocolVersion: '2026-07-28' },
      { telemetry: { captureContent: true } },
    );
    const tools = await client.listTools();
    await run(tools.remote_weatherTool, { location: 'Oslo' });
    const spans = otel.spans();
    const clientSpan = spanNamed(spans, 'tools/call weatherTool', SpanKind.CLIENT);
    const serverSpan = spanNamed(spans, 'tools/call weatherTool', SpanKind.SERVER);
    expect(clientSpan.attributes['gen_ai.tool.call.arguments']).toBe('{"location":"Oslo"}');
    expect(String(clientSpan.attributes['gen_ai.tool.call.result'])).toContain('sunny');
    const cut = String(serverSpan.attributes['gen_ai.tool.call.result']);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(40);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('tracerProvider and meterProvider in the options are used instead of the global ones', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    cleanups.push(async () => context.disable());
    const own = otelProviders();
    cleanups.push(() => own.tracerProvider.shutdown());
    const http = await served({ tracerProvider: own.tracerProvider, meterProvider: own.meterProvider });
    const client = mcpClient(
      { url: http.mcpUrl, protocolVersion: '2026-07-28' },
      { telemetry: { tracerProvider: own.tracerProvider, meterProvider: own.meterProvider } },
    );
    const tools = await client.listTools();
    await run(tools.remote_weatherTool, { location: 'Oslo' });
    const spans = own.exporter.getFinishedSpans();
    const clientSpan = spanNamed(spans, 'tools/call weatherTool', SpanKind.CLIENT);
    expect(parentOf(spanNamed(spans, 'tools/call weatherTool', SpanKind.SERVER))).toBe(
      clientSpan.spanContext().spanId,
    );
    const points = await own.histogram('mcp.server.operation.duration');
    expect(points.some((point) => point.attributes['gen_ai.tool.name'] === 'weatherTool')).toBe(true);
  });

  it('a misspelled option is reported with the one meant', () => {
    expect(
      () =>
        new MCPClient({
          registerProcessHooks: false,
          servers: {},
          telemetry: { captureContents: true } as MCPTelemetryOptions,
        }),
    ).toThrow(/telemetry\.captureContents.*captureContent/);
    expect(
      () =>
        new MCPServer({
          name: 's',
          version: '1',
          tools: {},
          telemetry: { maxContentByte: 10 } as MCPTelemetryOptions,
        }),
    ).toThrow(/telemetry\.maxContentByte.*maxContentBytes/);
    expect(
      () => new MCPServer({ name: 's', version: '1', tools: {}, telemetry: { maxContentBytes: 0 } }),
    ).toThrow(/telemetry\.maxContentBytes.*positive integer/);
  });
});
