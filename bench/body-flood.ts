/**
 * Memory under a flood of large message bodies: `count` concurrent POSTs of `mib` MiB each (a
 * JSON-RPC ping with padding) to one entry point of the README-wired server process
 * (test/fixtures/readme-wired-server.ts, default limits), its RSS sampled every 20 ms.
 *
 *   npx tsx bench/body-flood.ts [entry=hono|honoApp|sse|session|serverless] [count=24] [mib=16]
 *
 * Prints the entry, the statuses answered, RSS before and the peak during the flood.
 */
import net from 'node:net';
import { WiredServer } from '../test/helpers.js';

const [entry = 'hono', countArg = '24', mibArg = '16'] = process.argv.slice(2);
const count = Number(countArg);
const bytes = Number(mibArg) * 1024 * 1024;

const server = await WiredServer.start();
const ports: Record<string, number> = server.ports;
const port = ports[entry];
if (!port) throw new Error(`unknown entry '${entry}' (one of ${Object.keys(ports).join(', ')})`);

/** The path messages go to: an SSE stream is opened (and kept) for the SSE entries. */
async function messagePath(): Promise<string> {
  if (entry === 'session' || entry === 'serverless') return '/mcp';
  const socket = net.connect(port as number, '127.0.0.1');
  socket.write(`GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  let text = '';
  return new Promise((resolve) => {
    socket.on('data', (chunk) => {
      text += chunk;
      const match = /data: (\S+)/.exec(text);
      if (match?.[1]) resolve(match[1]);
    });
  });
}

/** One large POST over its own socket; resolves with the status (0 when the connection dropped first). */
function flood(path: string, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port as number, '127.0.0.1');
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0)));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.end(body);
  });
}

const path = await messagePath();
const padding = 'x'.repeat(bytes - 64);
const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: { padding } }));
await new Promise((resolve) => setTimeout(resolve, 500));
const before = await server.memory();
const statuses = await Promise.all(Array.from({ length: count }, () => flood(path, body)));
await new Promise((resolve) => setTimeout(resolve, 200));
const after = await server.memory();
const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
const tally: Record<number, number> = {};
for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
console.log(
  JSON.stringify({
    entry,
    flood: `${count} x ${mibArg} MiB`,
    statuses: tally,
    rssBefore: mib(before.rss),
    peakRss: mib(after.peakRss),
  }),
);
if (!server.running) console.error(`the server process exited:\n${server.stderrTail}`);
await server.stop();
process.exit(0);
