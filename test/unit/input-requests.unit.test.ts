/**
 * Input requests (src/server/input-requests.ts and the ways of asking) as the SDK's own v2 client
 * answers them, in process: at 2026-07-28 a tool's three questions asked at once reach the client
 * in one `input_required` round (one retry), and a prompt's question suspends `prompts/get`; on
 * the 2025 handshake the same tool and prompt send one request per question on the session.
 * Over real transports: test/server/input-requests.test.ts.
 */
import { Client, type Transport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { inputConfig } from '../fixtures/input-tools.js';
import { InProcessServer } from '../support/in-process.js';
import { textOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A v2 client at `era` answering every kind, and the methods of what it sent and was sent. */
async function link(era: 'modern' | 'legacy') {
  const server = new MCPServer(inputConfig());
  const serving = new InProcessServer(server);
  const client = new Client(
    { name: 'asked', version: '1.0.0' },
    {
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { name: 'Ada', topic: 'tides' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' };
  });
  client.setRequestHandler('roots/list', async () => {
    asked.push('roots');
    return { roots: [{ uri: 'file:///here' }] };
  });
  const transport: Transport = serving.open();
  const sent: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message) sent.push(message.method);
    return send(message, options);
  };
  await client.connect(transport);
  cleanups.push(
    () => client.close(),
    () => serving.drop(),
    () => server.close(),
  );
  return { client, asked, sent };
}

describe.each(['modern', 'legacy'] as const)('input requests at %s', (era) => {
  it('a tool asking three things at once gets every answer', async () => {
    const { client, asked, sent } = await link(era);
    expect(textOf(await client.callTool({ name: 'everything', arguments: {} }))).toBe(
      'Hello Ada in file:///here',
    );
    expect([...asked].sort()).toEqual(['Your name?', 'roots', 'sampling']);
    // 2026-07-28: the call and one retry carrying the three answers; 2025: one call, three requests to the client.
    expect(sent.filter((method) => method === 'tools/call')).toHaveLength(era === 'modern' ? 2 : 1);
  });

  it('a prompt asks for input, and its messages use the answer', async () => {
    const { client, asked } = await link(era);
    const { messages } = await client.getPrompt({ name: 'briefing' });
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Brief me on tides.' } }]);
    expect(asked).toEqual(['Which topic?']);
  });
});
