/**
 * Heap held by legacy Streamable HTTP sessions under an `initialize` flood (docs/SECURITY.md,
 * "sessions, batches and ownership"). One MCPServer on 127.0.0.1 in this process; N raw
 * `initialize` POSTs, 50 at a time; heap after a full GC, then again after waiting `--idle-ms`.
 *
 *   node --expose-gc --import tsx bench/session-flood.ts [--count 5000] [--idle-ms 0] [--limits '{"maxSessions":1000}']
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { MCPServer } from '../src/index.js';
import { listenLocal } from '../test/support/net.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '5000' },
    'idle-ms': { type: 'string', default: '0' },
    limits: { type: 'string', default: '{}' },
  },
});
const count = Number(values.count);
const idleMs = Number(values['idle-ms']);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

/** Legacy connections the server still tracks (one per open session). */
const held = () => (mcp as unknown as { connections: { live: Set<unknown> } }).connections.live.size;

const heapMiB = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const mcp = new MCPServer({ name: 'flood', version: '1.0.0', tools: {}, limits: JSON.parse(values.limits) });
const listener = http.createServer((req, res) => {
  void mcp.startHTTP({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), httpPath: '/mcp', req, res });
});
const url = `${(await listenLocal(listener)).url}/mcp`;

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});

async function open(): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: initialize,
  });
  await response.arrayBuffer();
  return response.status;
}

const before = heapMiB();
const statuses = new Map<number, number>();
for (let sent = 0; sent < count; sent += 50) {
  const batch = await Promise.all(Array.from({ length: Math.min(50, count - sent) }, open));
  for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
}
const afterFlood = heapMiB();
console.log(
  `limits ${values.limits}, ${count} initialize requests: ${JSON.stringify(Object.fromEntries(statuses))}`,
);
console.log(
  `heap before ${before.toFixed(1)} MiB, after the flood ${afterFlood.toFixed(1)} MiB (${held()} sessions held)`,
);
console.log(
  `  held per accepted session: ${(((afterFlood - before) * 1024) / (statuses.get(200) ?? 1)).toFixed(1)} KiB`,
);
if (idleMs > 0) {
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  console.log(`  after ${idleMs} ms idle: ${heapMiB().toFixed(1)} MiB (${held()} sessions held)`);
}
listener.closeAllConnections();
listener.close();
await mcp.close();
