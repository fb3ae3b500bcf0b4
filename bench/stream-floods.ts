/**
 * Memory held under the two floods of docs/SECURITY.md "parked calls and stream buffers". One
 * MCPServer on 127.0.0.1 in this process.
 *
 * - `parked`: N 2026-07-28 `tools/call`s of a tool that asks for input, never answered; heap after
 *   a full GC, and how many were parked or refused.
 * - `stalled`: R raw sockets per streaming transport open a stream and never read while the server
 *   pushes M messages of S bytes to each; RSS and heap + external after the pushes settle. With
 *   `--burst` the M sends go back to back in one synchronous run, and memory is also read right
 *   after it and after one turn of the event loop (what a stream queued before its guard saw it).
 *
 *   node --expose-gc --import tsx bench/stream-floods.ts parked [--count 3000] [--limits '{}']
 *   node --expose-gc --import tsx bench/stream-floods.ts stalled [--transport sse|hono|legacy-http|listen]
 *     [--readers 20] [--messages 400] [--size 65536] [--burst] [--limits '{}']
 */
import type net from 'node:net';
import { parseArgs } from 'node:util';
import { MCPServer } from '../src/index.js';
import { askTool } from '../test/fixtures/ask-tool.js';
import { modernRequest, openStalledStream, type StreamTransport, serveHttp } from '../test/helpers.js';
import { memoryAfterGc } from './support.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    count: { type: 'string', default: '3000' },
    transport: { type: 'string', default: 'sse' },
    readers: { type: 'string', default: '20' },
    messages: { type: 'string', default: '400' },
    size: { type: 'string', default: '65536' },
    burst: { type: 'boolean', default: false },
    limits: { type: 'string', default: '{}' },
  },
});
const MiB = 2 ** 20;
const memory = memoryAfterGc;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const LONG_URI = `file://flood/${'u'.repeat(Number(values.size))}`;
const mcp = new MCPServer({
  name: 'flood',
  version: '1.0.0',
  limits: JSON.parse(values.limits),
  tools: { ask: askTool() },
  resources: { listResources: async () => [], getResourceContent: async () => ({ text: '' }) },
});
mcp.__setLogger({ ...console, trackException() {} } as never);
// /mcp, /sse + /message, /hono/sse + /hono/message on 127.0.0.1.
const http = await serveHttp(mcp);

async function parked(): Promise<void> {
  const count = Number(values.count);
  const before = memory();
  const outcomes: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const id = ++next;
      const response = await fetch(
        http.mcpUrl,
        modernRequest(
          'tools/call',
          { name: 'ask', arguments: {} },
          { id, capabilities: { elicitation: { form: {} } } },
        ),
      );
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

const TRANSPORTS: Record<string, StreamTransport> = {
  sse: 'legacy SSE',
  hono: 'Hono SSE',
  'legacy-http': 'legacy Streamable HTTP',
  listen: 'subscriptions/listen',
};

/** Opens one stream on a raw socket, reads only its first bytes, then never reads again. */
async function stalledReader(transport: string): Promise<net.Socket> {
  const name = TRANSPORTS[transport];
  if (!name)
    throw new Error(`unknown transport '${transport}' (one of ${Object.keys(TRANSPORTS).join(', ')})`);
  return (await openStalledStream(http, name, LONG_URI)).socket;
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
    if (!values.burst && i % 20 === 0) await settle(5);
  }
  // With --burst: right after the synchronous run, then after one turn of the event loop.
  const sent = values.burst ? memory() : undefined;
  const turn = values.burst
    ? await new Promise((resolve) => setImmediate(() => resolve(memory())))
    : undefined;
  await settle(2000);
  const after = memory();
  const pushedMiB = Math.round((readers * messages * payload.length) / MiB);
  console.log(
    JSON.stringify({ mode: 'stalled', transport, readers, messages, pushedMiB, before, sent, turn, after }),
  );
  for (const socket of sockets) socket.destroy();
}

if (positionals[0] === 'parked') await parked();
else await stalled();
await http.close();
await mcp.close();
process.exit(0);
