/**
 * Trace context end to end, asserted on spans real exporters collected: a traced Mastra agent or
 * workflow (one Mastra instance) calls an MCP tool of an MCPServer registered on another Mastra
 * instance. The server's request span links to the caller's tool-call span, the reply names the
 * server span and the caller's span links back; the two stay separate traces.
 */
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { type AnyExportedSpan, SpanType } from '@mastra/core/observability';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import type { TestExporter } from '@mastra/observability';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallingModel } from '../../examples/mock-model.js';
import { type MastraMCPServerDefinition, MCPClient, MCPServer } from '../../src/index.js';
import { probeTool, RuleFGA } from '../fixtures/rule-fga.js';
import {
  CALLER,
  CALLER_TRACEPARENT,
  INSPECT_CALL_ATTRIBUTES,
  type Link,
  linksOf,
  servedTraced,
  tracedObservability,
} from '../fixtures/traced.js';
import { connectHttp, type Era, serveHttp } from '../helpers.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function only<T>(items: T[], what: string): T {
  expect(items, what).toHaveLength(1);
  return items[0] as T;
}

function mcpClient(servers: Record<string, MastraMCPServerDefinition>) {
  const client = new MCPClient({ id: `trace-${Math.random()}`, registerProcessHooks: false, servers });
  cleanups.push(() => client.disconnect());
  return client;
}

/** A client-side Mastra instance with observability and an agent whose model calls `toolName`. */
async function tracedAgent(client: MCPClient, toolName: string) {
  const { exporter, observability } = tracedObservability('mcp-client');
  cleanups.push(() => observability.shutdown());
  const agent = new Agent({
    id: 'caller',
    name: 'Caller',
    instructions: 'Use the tool.',
    model: toolCallingModel(toolName, { note: 'hello' }),
    tools: await client.listTools(),
  });
  const mastra = new Mastra({ agents: { caller: agent }, observability, logger: false });
  return { agent: mastra.getAgent('caller'), exporter, observability };
}

/** The server span a client span links to, checked against what the server's exporter recorded. */
function expectLinked(clientSpan: AnyExportedSpan, serverExporter: TestExporter) {
  const serverSpan = only(serverExporter.getSpansByType(SpanType.MCP_SERVER_REQUEST), 'server request spans');
  expect(linksOf(clientSpan)).toEqual([
    { traceId: serverSpan.traceId, spanId: serverSpan.id, kind: 'mcp.server' },
  ]);
  expect(linksOf(serverSpan)).toEqual([
    { traceId: clientSpan.traceId, spanId: clientSpan.id, kind: 'mcp.client' },
  ]);
  expect(serverSpan.traceId).not.toBe(clientSpan.traceId);
  expect(serverSpan.isRootSpan).toBe(true);
  return serverSpan;
}

describe('trace context from a traced agent to an MCPServer on another Mastra instance', () => {
  it.each<Era>(['modern', 'legacy'])(
    '%s over HTTP: the spans link both ways and the tool spans nest',
    async (era) => {
      const server = await servedTraced(cleanups);
      const protocolVersion = era === 'modern' ? '2026-07-28' : 'legacy';
      const client = mcpClient({ traced: { url: server.http.mcpUrl, protocolVersion } });
      const caller = await tracedAgent(client, 'traced_inspect');

      const answer = await caller.agent.generate('inspect please');
      expect(answer.text).toContain('hello');
      await caller.observability.flush();
      await server.observability.flush();

      const toolCall = only(
        caller.exporter.getSpansByType(SpanType.MCP_TOOL_CALL),
        'client MCP tool-call spans',
      );
      const serverSpan = expectLinked(toolCall, server.exporter);
      expect(server.seen).toEqual([{ traceparent: `00-${toolCall.traceId}-${toolCall.id}-01` }]);
      expect(serverSpan.attributes).toMatchObject({
        ...INSPECT_CALL_ATTRIBUTES,
        mcpProtocolVersion: era === 'modern' ? '2026-07-28' : expect.stringMatching(/^2025-/),
        clientName: expect.any(String),
      });
      expect(serverSpan).toMatchObject({
        entityType: 'mcp_server',
        entityId: 'traced',
        entityName: 'Traced Server',
      });

      // In the server's trace: request span -> the tool's TOOL_CALL span -> the tool's own span.
      const toolSpan = only(server.exporter.getSpansByType(SpanType.TOOL_CALL), 'server tool spans');
      expect(toolSpan).toMatchObject({
        traceId: serverSpan.traceId,
        parentSpanId: serverSpan.id,
        name: "tool: 'inspect'",
      });
      expect(toolSpan.attributes).toMatchObject({ success: true });
      const own = only(server.exporter.getSpansByType(SpanType.GENERIC), "the tool's own spans");
      expect(own).toMatchObject({ traceId: serverSpan.traceId, parentSpanId: toolSpan.id, name: 'lookup' });
    },
  );
});

describe('trace context from other callers', () => {
  it('over stdio: the tool-call span links to the span the child server recorded, which links back', async () => {
    const client = mcpClient({
      traced: {
        command: process.execPath,
        args: ['--import', 'tsx', 'test/fixtures/traced-stdio-server.ts'],
        protocolVersion: '2026-07-28',
      },
    });
    const caller = await tracedAgent(client, 'traced_inspect');
    await caller.agent.generate('inspect please');
    await caller.observability.flush();
    const toolCall = only(
      caller.exporter.getSpansByType(SpanType.MCP_TOOL_CALL),
      'client MCP tool-call spans',
    );
    const [link] = linksOf(toolCall) ?? [];
    expect(link).toMatchObject({ kind: 'mcp.server', traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(link?.traceId).not.toBe(toolCall.traceId);

    const tools = await client.listTools();
    const reply = (await tools.traced_serverSpans?.execute?.({}, {} as never)) as { content: unknown };
    const reported: Array<{ traceId: string; spanId: string; links: Link[] | null }> = JSON.parse(
      textOf(reply),
    ).spans;
    const serverSpan = reported.find((span) => span.spanId === link?.spanId);
    expect(serverSpan).toEqual({
      traceId: link?.traceId,
      spanId: link?.spanId,
      links: [{ traceId: toolCall.traceId, spanId: toolCall.id, kind: 'mcp.client' }],
    });
  });

  it('a workflow step calling an MCP tool: the step span links to the server span and back', async () => {
    const server = await servedTraced(cleanups);
    const client = mcpClient({ traced: { url: server.http.mcpUrl } });
    const tools = await client.listTools();
    const step = createStep({
      id: 'ask-server',
      inputSchema: z.object({ note: z.string() }),
      outputSchema: z.any(),
      execute: async ({ inputData, tracingContext }) =>
        tools.traced_inspect?.execute?.(inputData, { tracingContext } as never),
    });
    const workflow = createWorkflow({
      id: 'traced-flow',
      inputSchema: z.object({ note: z.string() }),
      outputSchema: z.any(),
    })
      .then(step)
      .commit();
    const { exporter, observability } = tracedObservability('mcp-workflow');
    cleanups.push(() => observability.shutdown());
    const mastra = new Mastra({ workflows: { tracedFlow: workflow }, observability, logger: false });
    const run = await mastra.getWorkflow('tracedFlow').createRun();
    expect((await run.start({ inputData: { note: 'from a step' } })).status).toBe('success');
    await observability.flush();
    await server.observability.flush();

    const stepSpan = only(
      exporter.getSpansByType(SpanType.WORKFLOW_STEP).filter((span) => span.name.includes('ask-server')),
      'the step span',
    );
    expectLinked(stepSpan, server.exporter);
    expect(server.seen).toEqual([{ traceparent: `00-${stepSpan.traceId}-${stepSpan.id}-01` }]);
  });

  it('the traceContext client option wins over the tool-call span, and the reply still links back', async () => {
    const server = await servedTraced(cleanups);
    const sent = { traceparent: CALLER_TRACEPARENT, tracestate: 'vendor=opaque', baggage: 'tenant=7' };
    const client = mcpClient({ traced: { url: server.http.mcpUrl, traceContext: () => sent } });
    const caller = await tracedAgent(client, 'traced_inspect');
    await caller.agent.generate('inspect please');
    await caller.observability.flush();
    await server.observability.flush();

    expect(server.seen).toEqual([sent]);
    const serverSpan = only(
      server.exporter.getSpansByType(SpanType.MCP_SERVER_REQUEST),
      'server request spans',
    );
    expect(linksOf(serverSpan)).toEqual([{ ...CALLER, kind: 'mcp.client' }]);
    const toolCall = only(
      caller.exporter.getSpansByType(SpanType.MCP_TOOL_CALL),
      'client MCP tool-call spans',
    );
    expect(linksOf(toolCall)).toEqual([
      { traceId: serverSpan.traceId, spanId: serverSpan.id, kind: 'mcp.server' },
    ]);
  });
});

describe('received trace context on the server', () => {
  const ids = { traceId: CALLER.traceId, spanId: CALLER.spanId };
  const malformed: Array<[string, unknown]> = [
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${ids.spanId}-01`],
    ['an all-zero span id', `00-${ids.traceId}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${ids.traceId.toUpperCase()}-${ids.spanId}-01`],
    ['version ff', `ff-${ids.traceId}-${ids.spanId}-01`],
    ['version 00 with a trailing field', `${CALLER_TRACEPARENT}-extra`],
    ['a short trace id', `00-${ids.traceId.slice(1)}-${ids.spanId}-01`],
    ['a header injection', `${CALLER_TRACEPARENT}\r\nx-admin: 1`],
    ['a number', 42],
    ['an object', { traceId: ids.traceId }],
  ];

  it.each(malformed)(
    'ignores a traceparent with %s: no trace context, no link, the call works',
    async (_what, value) => {
      const server = await servedTraced(cleanups);
      const client = await connectHttp(server.http.mcpUrl, 'modern');
      cleanups.push(() => client.close());
      const result = await client.callTool({
        name: 'inspect',
        arguments: { note: 'n' },
        _meta: { traceparent: value, tracestate: 'vendor=1', baggage: 'role=admin' },
      });
      expect(result.isError).toBeFalsy();
      expect(server.seen).toEqual([undefined]);
      await server.observability.flush();
      const serverSpan = only(
        server.exporter.getSpansByType(SpanType.MCP_SERVER_REQUEST),
        'server request spans',
      );
      expect(linksOf(serverSpan)).toBeUndefined();
      expect(result._meta?.traceparent).toBe(`00-${serverSpan.traceId}-${serverSpan.id}-01`);
    },
  );

  it('keeps a valid traceparent (of a later version too) and drops an oversized tracestate and a baggage with control characters', async () => {
    const server = await servedTraced(cleanups);
    const client = await connectHttp(server.http.mcpUrl, 'legacy');
    cleanups.push(() => client.close());
    const future = `01-${ids.traceId}-${ids.spanId}-01-future-field`;
    await client.callTool({
      name: 'inspect',
      arguments: { note: 'n' },
      _meta: { traceparent: future, tracestate: `v=${'x'.repeat(600)}`, baggage: 'a=1\nb=2' },
    });
    await client.callTool({
      name: 'inspect',
      arguments: { note: 'n' },
      _meta: { traceparent: CALLER_TRACEPARENT, tracestate: 'v=1', baggage: 'tenant=7' },
    });
    expect(server.seen).toEqual([
      { traceparent: future },
      { traceparent: CALLER_TRACEPARENT, tracestate: 'v=1', baggage: 'tenant=7' },
    ]);
  });

  it.each<Era>(['modern', 'legacy'])(
    '%s: resources/read and prompts/get run in linked request spans named in the reply; a failed request records its error',
    async (era) => {
      const server = await servedTraced(cleanups);
      const client = await connectHttp(server.http.mcpUrl, era);
      cleanups.push(() => client.close());
      const _meta = { traceparent: CALLER_TRACEPARENT };
      const read = await client.readResource({ uri: 'note://one', _meta });
      const prompt = await client.getPrompt({ name: 'greet', _meta });
      await expect(client.getPrompt({ name: 'missing', _meta })).rejects.toThrow(
        /Prompt 'missing' not found/,
      );
      await server.observability.flush();

      const spans = server.exporter.getSpansByType(SpanType.MCP_SERVER_REQUEST);
      const named = (reply: { _meta?: Record<string, unknown> }) =>
        spans.find((span) => reply._meta?.traceparent === `00-${span.traceId}-${span.id}-01`);
      expect(named(read)?.attributes).toMatchObject({
        mcpMethod: 'resources/read',
        targetName: 'note://one',
      });
      expect(named(prompt)?.attributes).toMatchObject({ mcpMethod: 'prompts/get', targetName: 'greet' });
      const failed = spans.find((span) => span.attributes?.targetName === 'missing');
      expect(failed?.errorInfo?.message).toMatch(/Prompt 'missing' not found/);
      for (const span of spans) expect(linksOf(span)).toEqual([{ ...CALLER, kind: 'mcp.client' }]);
      expect(read.contents).toEqual([
        { uri: 'note://one', mimeType: 'text/plain', text: 'content of note://one' },
      ]);
    },
  );
});

describe('trace context and authorization', () => {
  it.each<Era>(['modern', 'legacy'])(
    '%s: a crafted traceparent, tracestate and baggage change nothing about access',
    async (era) => {
      const runs: string[] = [];
      const mapperSaw: unknown[] = [];
      const probe = (id: string) =>
        probeTool(id, runs, (requestContext) => ({ traceContext: requestContext.get('traceContext') }));
      const server = new MCPServer({
        id: 'fga-traced',
        name: 'FGA Traced',
        version: '1.0.0',
        tools: { publicTool: probe('publicTool'), secretTool: probe('secretTool') },
        mapAuthInfoToUser: ({ authInfo, requestContext }) => {
          mapperSaw.push(requestContext.get('traceContext'));
          return { id: (authInfo as { extra: { subject: string } }).extra.subject };
        },
      });
      // bob may call publicTool; only alice may call secretTool.
      const fga = new RuleFGA((user, params) => {
        const tool = JSON.parse(params.resource.id)[1];
        return tool === 'publicTool' || (tool === 'secretTool' && user?.id === 'alice');
      });
      new Mastra({ mcpServers: { fga: server }, logger: false, server: { fga } });
      const http = await serveHttp(server, {
        before: (req) => {
          req.auth = { token: 'opaque', clientId: 'test', scopes: [], extra: { subject: 'bob' } };
        },
      });
      const client = await connectHttp(http.mcpUrl, era);
      cleanups.push(
        () => client.close(),
        () => http.close(),
        () => server.close(),
      );
      const crafted = {
        traceparent: CALLER_TRACEPARENT,
        tracestate: 'user=alice,fga=allow',
        baggage: 'user.id=alice,role=admin,subject=alice',
      };

      for (const _meta of [undefined, crafted]) {
        const denied = await client.callTool({
          name: 'secretTool',
          arguments: {},
          ...(_meta ? { _meta } : {}),
        });
        expect(denied.isError).toBe(true);
        expect(textOf(denied)).toMatch(/^Tool 'secretTool' is not permitted for this caller/);
      }
      const allowed = await client.callTool({ name: 'publicTool', arguments: {}, _meta: crafted });
      expect(allowed.isError).toBeFalsy();
      expect(JSON.parse(textOf(allowed))).toEqual({ traceContext: crafted });
      // Without observability on the Mastra instance there is no server span to name.
      expect(allowed._meta?.traceparent).toBeUndefined();

      expect(runs).toEqual(['publicTool']);
      expect(new Set(fga.checks.map((check) => check.user.id))).toEqual(new Set(['bob']));
      expect(mapperSaw).toEqual([undefined, undefined, undefined]);
    },
  );
});
