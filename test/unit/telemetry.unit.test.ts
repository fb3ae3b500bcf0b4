/**
 * The telemetry registry and its pieces: every attribute MCPClient and MCPServer emit on a span or
 * a measurement is one ATTRIBUTES lists (the MCP semantic conventions' or a documented extension)
 * with the type it lists; content capture keeps to its byte cap; errors classify as the
 * conventions say. Client and server are linked in memory (test/support/in-process.ts).
 */
import { Client } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { type AttributeValue, SpanKind } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { ATTRIBUTES, type AttributeName } from '../../src/shared/telemetry/attributes.js';
import {
  capturedJson,
  describeRequest,
  failureOf,
  requestFailure,
} from '../../src/shared/telemetry/operation.js';
import { hasSendFunnels } from '../../src/shared/telemetry/sdk-hooks.js';
import { CONVENTIONS } from '../fixtures/semconv-mcp.js';
import { fullConfig } from '../fixtures/tools.js';
import { inProcessClient } from '../support/in-process.js';
import { registerOtel } from '../support/otel.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/**
 * Each attribute is one the conventions give `signal` (a span kind or a histogram), with their
 * type, or our documented extension; and it is in the registry with the same type.
 */
function expectConventional(
  attributes: Record<string, AttributeValue | undefined>,
  signal: string,
  where: string,
): void {
  const table = CONVENTIONS[signal] ?? {};
  for (const [name, value] of Object.entries(attributes)) {
    const spec = ATTRIBUTES[name as AttributeName];
    expect(spec, `${where}: '${name}' is not in the registry`).toBeDefined();
    if (spec.source === 'convention')
      expect(table[name], `${where}: the conventions give ${signal} no '${name}'`).toBeDefined();
    if (spec.type === 'int') expect(Number.isInteger(value), `${where}: '${name}' is an int`).toBe(true);
    else expect(typeof value, `${where}: '${name}' is a string`).toBe('string');
  }
}

describe('the attribute registry', () => {
  it('holds every attribute emitted on spans and measurements, with its type', async () => {
    const otel = registerOtel();
    cleanups.push(() => otel.unregister());
    const server = new MCPServer(fullConfig({ telemetry: { captureContent: true } }));
    cleanups.push(() => server.close());
    const { mcp } = inProcessClient({ remote: { server } }, { telemetry: { captureContent: true } });
    cleanups.push(() => mcp.disconnect());
    const tools = await mcp.listTools();
    await tools.remote_weatherTool?.execute?.({ location: 'Oslo' }, {} as never);
    await tools.remote_failingTool?.execute?.({}, {} as never).catch(() => undefined);
    await mcp.resources.read('remote', 'file://data/1.txt');
    await mcp.resources.read('remote', 'file://nope').catch(() => undefined);
    await mcp.prompts.get({ serverName: 'remote', name: 'analyze-code', args: { code: 'x' } });
    await mcp.disconnect();
    const spans = otel.spans();
    expect(spans.length).toBeGreaterThan(8);
    for (const span of spans) {
      const signal = span.kind === SpanKind.CLIENT ? 'mcp.client' : 'mcp.server';
      expectConventional(span.attributes, signal, `span '${span.name}'`);
    }
    const emitted = new Set(spans.flatMap((span) => Object.keys(span.attributes)));
    for (const name of [
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
      'error.type',
      'rpc.response.status_code',
    ])
      expect(emitted).toContain(name);
    for (const metric of [
      'mcp.client.operation.duration',
      'mcp.server.operation.duration',
      'mcp.client.session.duration',
    ]) {
      const points = await otel.histogram(metric);
      expect(points.length, metric).toBeGreaterThan(0);
      for (const point of points)
        expectConventional(point.attributes as Record<string, AttributeValue>, metric, metric);
    }
  });

  it('lists the conventions’ attributes with the conventions’ types, and our extension under mastra.*', () => {
    const tables = Object.values(CONVENTIONS);
    for (const [name, spec] of Object.entries(ATTRIBUTES)) {
      if (spec.source === 'extension') {
        expect(name).toMatch(/^mastra\./);
        continue;
      }
      const types = new Set(tables.map((table) => table[name]).filter((type) => type !== undefined));
      expect([...types], `'${name}' in the conventions`).toHaveLength(1);
      const [type] = types;
      expect(type === 'any' ? 'string' : type, `'${name}' recorded as its conventional type`).toBe(spec.type);
    }
  });

  it('finds the SDK members sends are traced through (an SDK upgrade that renames them fails here)', () => {
    expect(hasSendFunnels(new Client({ name: 'c', version: '1' }))).toBe(true);
    expect(hasSendFunnels(new Server({ name: 's', version: '1' }))).toBe(true);
  });
});

describe('what a request says of itself', () => {
  it('names spans by method and tool or prompt, never by resource URI', () => {
    expect(describeRequest('tools/call', { name: 'get-weather' }).name).toBe('tools/call get-weather');
    expect(describeRequest('prompts/get', { name: 'analyze-code' }).name).toBe('prompts/get analyze-code');
    const read = describeRequest('resources/read', { uri: 'file:///a' });
    expect(read).toEqual({
      name: 'resources/read',
      attributes: { 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'file:///a' },
    });
  });

  it('classifies errors: a JSON-RPC code, a timeout, a handler’s plain error as -32603, else _OTHER', () => {
    expect(failureOf({ code: -32602, message: 'bad' }, { answeredAsInternal: false })).toEqual({
      type: '-32602',
      code: '-32602',
      message: 'bad',
    });
    const internal = { answeredAsInternal: false };
    expect(failureOf({ code: 'REQUEST_TIMEOUT', data: { timeout: 100 } }, internal).type).toBe('timeout');
    // The SDK wraps an aborted request's reason in the same code, without the timeout.
    expect(failureOf({ code: 'REQUEST_TIMEOUT', message: 'AbortError: aborted' }, internal).type).toBe(
      'cancelled',
    );
    const aborted = { code: 'REQUEST_TIMEOUT', message: 'closed' };
    expect(requestFailure('events/stream', aborted, internal)).toBeUndefined();
    expect(requestFailure('tools/call', aborted, internal)?.type).toBe('cancelled');
    expect(failureOf(new Error('boom'), { answeredAsInternal: true }).type).toBe('-32603');
    expect(failureOf(new Error('boom'), { answeredAsInternal: false }).type).toBe('_OTHER');
  });

  it('captures JSON within the byte cap, cut on a character boundary', () => {
    expect(capturedJson({ a: 1 }, 100)).toBe('{"a":1}');
    const cut = capturedJson({ text: 'ééééééééééééééé' }, 16) as string;
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(16);
    expect(cut).toMatch(/^\{"text":"é*…$/);
    expect(capturedJson(() => 1, 100)).toBeUndefined();
  });
});
