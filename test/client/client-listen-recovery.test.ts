/**
 * The 2026-07-28 `subscriptions/listen` stream across a server restart: a real MCPServer on its
 * own listener, closed and replaced by another on the same port whose tools changed while the
 * first was down. The client reopens the stream by itself and tells the handlers once.
 */
import { createTool } from '@mastra/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type LogMessage, MCPClient, MCPServer } from '../../src/index.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const tool = (id: string) =>
  createTool({
    id,
    description: `The ${id} tool.`,
    inputSchema: z.object({}),
    execute: async () => id,
  });

async function start(tools: string[], port = 0) {
  const server = new MCPServer({
    id: `restartable-${port}`,
    name: 'Restartable',
    version: '1.0.0',
    tools: Object.fromEntries(tools.map((id) => [id, tool(id)])),
  });
  const listener = await server.listen({ port });
  cleanups.push(
    () => server.close(),
    () => listener.close(),
  );
  return { server, listener };
}

describe('the listen stream after a server restart', () => {
  it('is reopened, and the list-changed handlers run once so a change made while it was down is seen', async () => {
    const first = await start(['alpha']);
    const logs: LogMessage[] = [];
    const mcp = new MCPClient({
      id: 'listen-recovery',
      registerProcessHooks: false,
      servers: {
        restartable: { url: first.listener.url, protocolVersion: '2026-07-28', logger: (e) => logs.push(e) },
      },
    });
    cleanups.push(() => mcp.disconnect());
    expect(Object.keys(await mcp.listTools())).toEqual(['restartable_alpha']);
    let changes = 0;
    await mcp.tools.onListChanged('restartable', () => changes++);

    // The process goes away, and comes back on the same port with a tool added meanwhile.
    const port = Number(first.listener.url.port);
    await first.listener.close();
    await first.server.close();
    await eventually('the stream to end', () =>
      logs.some((e) => e.message.includes('subscriptions/listen stream ended')),
    );
    const second = await start(['alpha', 'beta'], port);

    await eventually('the handler after the restart', () => changes === 1);
    expect(Object.keys(await mcp.listTools()).sort()).toEqual(['restartable_alpha', 'restartable_beta']);
    expect(logs.map((e) => e.message)).toContain(
      'subscriptions/listen stream reopened; list-changed handlers run once',
    );

    // The reopened stream carries the next change as it happens.
    await second.server.toolActions.add({ gamma: tool('gamma') });
    await eventually('the handler for the next change', () => changes === 2);
  });
});
