/**
 * Versioned prompts as each era lists them, over Streamable HTTP with the SDK client: a 2025
 * prompt has no `version`, so a 2025 client (in a session, or stateless) sees each name once, as
 * its default version (the first listed, what `prompts/get` without a version serves), while a
 * 2026-07-28 listing keeps every version. A named version is still served to both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MCPServer,
  type MCPServerPrompts,
  type StreamableHTTPServerTransportOptions,
} from '../../src/index.js';
import { connectHttp, type Era, serveHttp } from '../helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const listed = [
  { name: 'review-code', version: 'v1', description: 'Review code', arguments: [{ name: 'code' }] },
  { name: 'summarise', description: 'Summarise' },
  { name: 'review-code', version: 'v2', description: 'Review code strictly', arguments: [{ name: 'code' }] },
];

const prompts: MCPServerPrompts = {
  listPrompts: async () => listed,
  getPromptMessages: async ({ name, version }) => {
    const prompt = listed.find((p) => p.name === name && p.version === (version ?? 'v1'));
    if (!prompt) throw new Error(`no ${name}@${version}`);
    return { prompt, messages: [{ role: 'user', content: { type: 'text', text: prompt.description } }] };
  },
};

const promptResult = z.looseObject({ description: z.string(), messages: z.array(z.unknown()) });

async function serve(options?: StreamableHTTPServerTransportOptions) {
  const server = new MCPServer({ name: 'prompts', version: '1.0.0', tools: {}, prompts });
  const http = await serveHttp(server, options ? { options } : {});
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return async (era: Era) => {
    const client = await connectHttp(http.mcpUrl, era);
    cleanups.push(() => client.close());
    return client;
  };
}

describe('versioned prompts in each era’s listing', () => {
  it.each([
    ['in a session', undefined],
    ['stateless', { serverless: true }],
  ] as const)(
    'a 2025 client (%s) sees each name once, as its default version; 2026-07-28 sees all',
    async (_, options) => {
      const connect = await serve(options);
      const legacy = await connect('legacy');
      const { prompts: seen } = await legacy.listPrompts();
      expect(seen.map((p) => [p.name, p.description])).toEqual([
        ['review-code', 'Review code'],
        ['summarise', 'Summarise'],
      ]);
      // Without a version it gets what it listed; a version it names is still served.
      expect((await legacy.getPrompt({ name: 'review-code', arguments: { code: 'x' } })).description).toBe(
        'Review code',
      );
      const v2 = await legacy.request(
        { method: 'prompts/get', params: { name: 'review-code', version: 'v2', arguments: { code: 'x' } } },
        promptResult,
      );
      expect(v2.description).toBe('Review code strictly');

      const modern = await connect('modern');
      expect((await modern.listPrompts()).prompts.map((p) => [p.name, p.description])).toEqual([
        ['review-code', 'Review code'],
        ['summarise', 'Summarise'],
        ['review-code', 'Review code strictly'],
      ]);
    },
  );
});
