/**
 * Memory held under the two floods of docs/SECURITY.md "parked calls and stream buffers". One
 * MCPServer on 127.0.0.1 in this process.
 *
 * - `parked`: N 2026-07-28 `tools/call`s of a tool that asks for input, never answered; heap after
 *   a full GC, and how many were parked or refused.
 * - `stalled`: R raw sockets per streaming transport open a stream and never read while the server
 *   pushes M messages of S bytes to each; RSS and heap + external after the pushes settle.
 *
 *   node --expose-gc --import tsx bench/stream-floods.ts parked [--count 3000] [--limits '{}']
 *   node --expose-gc --import tsx bench/stream-floods.ts stalled [--transport sse|hono|legacy-http|listen]
 *     [--readers 20] [--messages 400] [--size 65536] [--limits '{}']
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { MCPServer, type MCPToolContext } from '../src/index.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    count: { type: 'string', default: '3000' },
    transport: { type: 'string', default: 'sse' },
    readers: { type: 'string', default: '20' },
    messages: { type: 'string', default: '400' },
    size: { type: 'string', default: '65536' },
    limits: { type: 'string', default: '{}' },
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MiB = 2 ** 20;
const memory = () => {
  gc();
  gc();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rssMiB: Math.round(rss / MiB), heapExternalMiB: Math.round((heapUsed + external) / MiB) };
};
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const LONG_URI = `file://flood/${'u'.repeat(Number(values.size))}`;
const mcp = new MCPServer({
  name: 'flood',
  version: '1.0.0',
  limits: JSON.parse(values.limits),
  tools: {
    ask: createTool({
      id: 'ask',
      description: 'Asks for a name',
      inputSchema: z.object({}),
      execute: async (_input, context) => {
        const answer = await (context.mcp as MCPToolContext).elicitation.sendRequest({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return answer.action;
      },
    }),
  },
  resources: { listResources: async () => [], getResourceContent: async () => ({ text: '' }) },
});
mcp.__setLogger({ ...console, trackException() {} } as never);
const listener = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname.startsWith('/hono/')) {
    void mcp.startHonoSSE({ url, ssePath: '/hono/sse', messagePath: '/hono/message', req, res });
  } else if (url.pathname === '/sse' || url.pathname === '/message') {
    void mcp.startSSE({ url, ssePath: '/sse', messagePath: '/message', req, res });
  } else {
    void mcp.startHTTP({ url, httpPath: '/mcp', req, res });
  }
});
await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
const port = (listener.address() as AddressInfo).port;
const base = `http://127.0.0.1:${port}`;
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'flood', version: '1' },
};
const modernHeaders = (method: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
});

async function parked(): Promise<void> {
  const count = Number(values.count);
  const before = memory();
  const outcomes: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const id = ++next;
      const response = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...modernHeaders('tools/call'), 'mcp-name': 'ask' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'ask', arguments: {}, _meta: MODERN_META },
        }),
      });
      const text = await response.text();
      const kind = text.includes('input_required')
        ? 'parked'
        : text.includes('"error"')
          ? 'refused'
          : 'other';
      outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  const after = memory();
  console.log(JSON.stringify({ mode: 'parked', count, outcomes, before, after }));
}

/** Opens one stream on a raw socket, reads only its first bytes, then never reads again. */
async function stalledReader(transport: string): Promise<net.Socket> {
  let head: string;
  if (transport === 'sse' || transport === 'hono') {
    head = `GET ${transport === 'sse' ? '/sse' : '/hono/sse'} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`;
  } else if (transport === 'legacy-http') {
    const init = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'flood', version: '1' },
        },
      }),
    });
    await init.text();
    const session = init.headers.get('mcp-session-id') as string;
    head = `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n`;
  } else {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: [LONG_URI] }, _meta: MODERN_META },
    });
    const headers = Object.entries(modernHeaders('subscriptions/listen'))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  }
  const socket = net.connect(port, '127.0.0.1');
  socket.write(head);
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.pause();
  return socket;
}

async function stalled(): Promise<void> {
  const transport = values.transport;
  const readers = Number(values.readers);
  const messages = Number(values.messages);
  const payload = 'x'.repeat(Number(values.size));
  const sockets = await Promise.all(Array.from({ length: readers }, () => stalledReader(transport)));
  await settle(200);
  const before = memory();
  for (let i = 0; i < messages; i++) {
    if (transport === 'listen') void mcp.resources.notifyUpdated({ uri: LONG_URI });
    else void mcp.sendLoggingMessage({ level: 'info', data: payload });
    if (i % 20 === 0) await settle(5);
  }
  await settle(2000);
  const after = memory();
  const pushedMiB = Math.round((readers * messages * payload.length) / MiB);
  console.log(JSON.stringify({ mode: 'stalled', transport, readers, messages, pushedMiB, before, after }));
  for (const socket of sockets) socket.destroy();
}

if (positionals[0] === 'parked') await parked();
else await stalled();
listener.closeAllConnections();
listener.close();
await mcp.close();
process.exit(0);
