/**
 * The in-process link itself (test/support/in-process.ts): the SDK's Client at both eras and an
 * MCPClient reach an MCPServer through the in-memory pair, principals included, and a dropped
 * link is a lost connection the next operation reconnects from.
 */
import { createTool } from '@mastra/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPServer } from '../../src/index.js';
import { inProcessClient, linkInProcess } from '../support/in-process.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A server whose one tool says who called it (the principal the server was given, if any). */
function whoamiServer(): MCPServer {
  const whoami = createTool({
    id: 'whoami',
    description: 'Names the caller',
    inputSchema: z.object({}),
    execute: async (_input, context) => ({ subject: context?.mcp?.extra.authInfo?.clientId ?? 'anonymous' }),
  });
  const server = new MCPServer({ name: 'in-process', version: '1.0.0', tools: { whoami } });
  cleanups.push(() => server.close());
  return server;
}

describe('linkInProcess', () => {
  it.each(['modern', 'legacy'] as const)('serves the SDK Client at the %s era', async (era) => {
    const link = await linkInProcess(whoamiServer(), { era });
    cleanups.push(link.close);
    expect(link.client.getProtocolEra()).toBe(era);
    const result = await link.client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ subject: 'anonymous' });
  });

  it('hands the server the principal the link carries', async () => {
    const authInfo = { token: 't', clientId: 'alice', scopes: [] };
    const link = await linkInProcess(whoamiServer(), { authInfo });
    cleanups.push(link.close);
    const result = await link.client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ subject: 'alice' });
  });
});

describe('inProcessClient', () => {
  it('connects an MCPClient, and reconnects it after the server dropped the link', async () => {
    const { mcp, serving } = inProcessClient({ local: { server: whoamiServer() } });
    cleanups.push(() => mcp.disconnect());
    const call = async () => {
      const tools = await mcp.listTools();
      return (tools.local_whoami as { execute(input: object, context: object): Promise<unknown> }).execute(
        {},
        {},
      );
    };
    expect(JSON.parse(textOf(await call()))).toEqual({ subject: 'anonymous' });
    expect(serving.local?.opened).toBe(1);
    await serving.local?.drop();
    expect(JSON.parse(textOf(await call()))).toEqual({ subject: 'anonymous' });
    expect(serving.local?.opened).toBe(2);
  });
});
