/**
 * Tool input schemas as strict-mode clients take them: tools listed from a real MCPServer by the
 * SDK client over Streamable HTTP at both eras, fed to `@openai/agents`' own conversion
 * (`mcpToFunctionTool(..., convertSchemasToStrict: true)`, what its `MCPServer*` classes run on
 * every listed tool). A tool without an input schema must come out strict: the library refuses to
 * make an empty object without `additionalProperties: false` strict, as it reads like "any object".
 */
import { createTool } from '@mastra/core/tools';
import type { Tool } from '@modelcontextprotocol/client';
import { MCPServerStreamableHttp, mcpToFunctionTool } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPServer } from '../../src/index.js';
import { connectHttp, type Era, serveHttp } from '../helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const tools = {
  noInput: createTool({
    id: 'noInput',
    description: 'Takes nothing.',
    execute: async () => 'pong',
  }),
  strictInput: createTool({
    id: 'strictInput',
    description: 'Refuses keys it does not name.',
    inputSchema: z.object({ query: z.string() }).strict(),
    execute: async ({ query }) => query,
  }),
  plainInput: createTool({
    id: 'plainInput',
    description: 'Drops keys it does not name.',
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => query,
  }),
};

async function listed(era: Era): Promise<{ byName: Map<string, Tool>; url: URL }> {
  const server = new MCPServer({ name: 'strict', version: '1.0.0', tools });
  const http = await serveHttp(server);
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  const client = await connectHttp(http.mcpUrl, era);
  cleanups.push(() => client.close());
  const { tools: listedTools } = await client.listTools();
  return { byName: new Map(listedTools.map((tool) => [tool.name, tool])), url: http.mcpUrl };
}

describe('input schemas for strict-mode clients (@openai/agents convertSchemasToStrict)', () => {
  it.each<Era>(['modern', 'legacy'])(
    '%s: a tool without input is strict, and declared objects keep what their schema does',
    async (era) => {
      const { byName, url } = await listed(era);
      // Only read for its name here: the conversion needs the server a tool came from.
      const agentsServer = new MCPServerStreamableHttp({ url: url.href, name: 'strict' });
      const strictOf = (name: string) => {
        const tool = byName.get(name);
        if (!tool) throw new Error(`tool ${name} not listed`);
        return (mcpToFunctionTool(tool as never, agentsServer, true) as { strict: boolean }).strict;
      };

      expect(strictOf('noInput')).toBe(true);
      expect(byName.get('noInput')?.inputSchema).toEqual({
        type: 'object',
        properties: {},
        additionalProperties: false,
      });

      // `.strict()` refuses extra keys and says so; a plain z.object drops them, so stays open.
      expect(byName.get('strictInput')?.inputSchema).toMatchObject({ additionalProperties: false });
      expect(byName.get('plainInput')?.inputSchema).not.toHaveProperty('additionalProperties');
      expect(strictOf('strictInput')).toBe(true);
      expect(strictOf('plainInput')).toBe(true);
    },
  );
});
