/**
 * Typed client contracts. `tsc` (part of `npm test`) checks this file: every `@ts-expect-error`
 * line must fail to type-check, every other line must pass. The runtime half runs the same calls
 * against a live server, so the types describe what really happens.
 */

import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  MCPClient,
  type MCPClientOptions,
  MCPServer,
  type MCPTool,
  type MCPTypedTool,
} from '../../src/index.js';
import { serveHttp } from '../helpers.js';

interface MCPServers {
  weather: {
    tools: {
      ping: { input: Record<string, never>; output: unknown };
      get_weather: { input: { location: string }; output: { temperature: number; conditions: string } };
    };
  };
  notes: { tools: { add_note: { input: { text: string }; output: { id: number } } } };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function weatherServer(): Promise<URL> {
  const server = new MCPServer({
    id: 'typed-weather',
    name: 'Typed weather',
    version: '1.0.0',
    tools: {
      get_weather: createTool({
        id: 'get_weather',
        description: 'Current weather.',
        inputSchema: z.object({ location: z.string() }),
        outputSchema: z.object({ temperature: z.number(), conditions: z.string() }),
        execute: async () => ({ temperature: 21, conditions: 'sunny' }),
      }),
      ping: createTool({
        id: 'ping',
        description: 'Pong.',
        inputSchema: z.object({}),
        execute: async () => 'pong',
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

let nextId = 0;

describe('MCPClient<TServers>', () => {
  it('types server names, tool keys and direct calls, and the calls behave as typed', async () => {
    const url = await weatherServer();
    const mcp = new MCPClient<Pick<MCPServers, 'weather'>>({
      id: `typed-${++nextId}`,
      registerProcessHooks: false,
      servers: { weather: { url } },
    });
    cleanups.push(() => mcp.disconnect());

    const tools = await mcp.listTools();
    expectTypeOf(tools).toHaveProperty('weather_get_weather');
    // @ts-expect-error: not a discovered key of the declared map
    tools.weather_unknown;
    const weather = tools.weather_get_weather;
    if (!weather?.execute) throw new Error('get_weather missing');
    const result = await weather.execute({ location: 'Paris' });
    await expect(
      // @ts-expect-error: the input type is checked (and the call rejects at runtime)
      weather.execute({ location: 42 }),
    ).rejects.toMatchObject({ id: 'MCP_CLIENT_INVALID_TOOL_ARGUMENTS' });
    // @ts-expect-error: the result may be an envelope or undefined: check first
    void result.temperature;
    if (result && 'temperature' in result && typeof result.temperature === 'number') {
      expect(result.temperature).toBe(21);
    } else {
      throw new Error('expected structured output');
    }

    const toolsets = await mcp.listToolsets();
    // @ts-expect-error: `notes` is not in the picked subset
    toolsets.notes;
    expect(await toolsets.weather?.ping?.execute?.({})).toBeDefined();
    // Typed tools still go straight into an Agent.
    expect(
      new Agent({ id: 'typed', name: 'typed', instructions: 'x', model: 'openai/gpt-4o', tools }).id,
    ).toBe('typed');
  });

  it('requires every declared server and rejects unknown ones; without a type argument nothing changes', () => {
    const url = new URL('http://127.0.0.1:9/mcp');
    // @ts-expect-error: `notes` is declared, so it must be configured
    const missing: MCPClientOptions<MCPServers> = { servers: { weather: { url } } };
    const extra: MCPClientOptions<Pick<MCPServers, 'weather'>> = {
      // @ts-expect-error: `other` is not a declared server
      servers: { weather: { url }, other: { url } },
    };
    const untyped: MCPClientOptions = { servers: { anything: { url }, goes: { url } } };
    expect([missing, extra, untyped]).toHaveLength(3);

    expectTypeOf<Awaited<ReturnType<MCPClient['listTools']>>>().toEqualTypeOf<Record<string, MCPTool>>();
    expectTypeOf<Awaited<ReturnType<MCPClient<MCPServers>['listTools']>>['notes_add_note']>().toEqualTypeOf<
      MCPTypedTool<{ text: string }, { id: number }> | undefined
    >();
  });
});
