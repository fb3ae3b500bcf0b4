/**
 * `mastra-mcp generate` types a tool's output as the value MCPClient gives, on both eras: a
 * 2025-era server advertises a non-object output schema inside the `{ result }` envelope
 * (SEP-2106), and the generated type is the natural one, as on 2026-07-28. Discovery and rendering
 * run in this process (the generator's own steps) against MCPServer over HTTP.
 */
import { createTool } from '@mastra/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPServer } from '../../src/index.js';
import { discover } from '../../src/typegen/discover.js';
import type { GeneratorClient } from '../../src/typegen/load-clients.js';
import { renderModule } from '../../src/typegen/render.js';
import { serveHttp } from '../helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const points = {
  type: 'array',
  items: { $ref: '#/$defs/point' },
  $defs: {
    point: {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
      additionalProperties: false,
    },
  },
};

async function served(): Promise<URL> {
  const server = new MCPServer({
    id: 'typegen-envelope',
    name: 'Envelopes',
    version: '1.0.0',
    tools: {
      count: createTool({
        id: 'count',
        description: 'A number.',
        inputSchema: z.object({}),
        outputSchema: z.number(),
        execute: async () => 3,
      }),
      points: createTool({
        id: 'points',
        description: 'Points, through a shared definition.',
        inputSchema: z.object({}),
        outputSchema: points as never,
        // A JSON Schema output leaves the type to the schema, which tsc cannot read.
        execute: (async () => [{ x: 1, y: 2 }]) as never,
      }),
      weather: createTool({
        id: 'weather',
        description: 'An object.',
        inputSchema: z.object({}),
        outputSchema: z.object({ result: z.number() }),
        execute: async () => ({ result: 21 }),
      }),
    },
  });
  const http = await serveHttp(server);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return http.mcpUrl;
}

async function generated(url: URL, protocolVersion: '2026-07-28' | 'legacy') {
  const client = new MCPClient({
    id: `typegen-envelope-${protocolVersion}`,
    registerProcessHooks: false,
    servers: { srv: { url, protocolVersion } },
  });
  cleanups.push(() => client.disconnect());
  const selected = { client: client as unknown as GeneratorClient, where: 'client.ts', outFile: 'out.ts' };
  const { catalogue, legacyServers, failures } = await discover(selected, 10_000);
  expect(failures).toEqual([]);
  const module = renderModule(catalogue ?? {}, legacyServers);
  expect(module.failures).toEqual([]);
  // biome-ignore lint/suspicious/noExplicitAny: tools built from live schemas are untyped
  const tools: Record<string, any> = await client.listTools();
  const values = {
    count: await tools.srv_count.execute({}, {}),
    points: await tools.srv_points.execute({}, {}),
    weather: await tools.srv_weather.execute({}, {}),
  };
  return { text: module.text, values };
}

describe('generated output types on a 2025-era server', () => {
  it('are the natural types the values have, the same text as on 2026-07-28', async () => {
    const url = await served();
    const modern = await generated(url, '2026-07-28');
    const legacy = await generated(url, 'legacy');
    expect(legacy.text).toBe(modern.text);
    const flat = legacy.text.replace(/\s+/g, ' ');
    expect(flat).toContain('count: { input: { [key: string]: unknown }; output: number; }');
    expect(flat).toMatch(
      /points: \{ input: [^;]+; output: (\w+)\[\]; \}.*export type \1 = \{ x: number; y: number; \};/,
    );
    // An object schema with a `result` member is an object on both eras.
    expect(flat).toContain('weather: { input: { [key: string]: unknown }; output: { result: number }; }');
    expect(legacy.values).toEqual(modern.values);
    expect(legacy.values).toEqual({ count: 3, points: [{ x: 1, y: 2 }], weather: { result: 21 } });
  });
});
