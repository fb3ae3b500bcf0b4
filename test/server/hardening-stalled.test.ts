/**
 * Readers that stop reading (issue 25 items 2 and 5), over real transports: HTTP on 127.0.0.1
 * with raw sockets that never read past the first bytes, and a stdio child whose parent stops
 * reading. No client may hold up an awaited broadcast or `close()`: a stream whose reader takes
 * nothing for `limits.streamWriteTimeoutMs` is closed and logged, and broadcasts wait for no
 * connection longer than that. A burst of sends to stalled legacy GET streams is dropped past the
 * bound as it is sent, never queued.
 */
import { spawn } from 'node:child_process';
import { ConsoleLogger } from '@mastra/core/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCPServer, type MCPServerLimits } from '../../src/index.js';
import { askTool } from '../fixtures/ask-tool.js';
import {
  connectHttp,
  type HttpHarness,
  newClient,
  openStalledStream,
  type StreamTransport,
  serveHttp,
} from '../helpers.js';
import { heapAndExternal } from '../support/memory.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const MiB = 2 ** 20;
const LONG_URI = `file://flood/${'u'.repeat(32 * 1024)}`;
const PAYLOAD = 'x'.repeat(64 * 1024);

async function setup(limits: MCPServerLimits) {
  const mcp = new MCPServer({
    name: 'stalled',
    version: '1.0.0',
    limits,
    tools: { ask: askTool() },
    resources: { listResources: async () => [], getResourceContent: async () => ({ text: '' }) },
  });
  const errors = vi.spyOn(ConsoleLogger.prototype, 'error').mockImplementation(() => {});
  cleanups.push(() => errors.mockRestore());
  const http = await serveHttp(mcp);
  cleanups.push(
    () => mcp.close(),
    () => http.close(),
  );
  const closures = (option: string) =>
    errors.mock.calls
      .map(([message]) => String(message))
      .filter((line) => line.includes(`'${mcp.id}'`) && line.includes(option));
  return { mcp, http, closures };
}

async function stalledReader(http: HttpHarness, transport: StreamTransport) {
  const reader = await openStalledStream(http, transport, LONG_URI);
  cleanups.push(() => reader.socket.destroy());
  expect(reader.first).toMatch(/^HTTP\/1\.1 200/);
  return reader;
}

/** `promise`, or a failure naming `what` once it has been pending `ms`: hang detection, not a timing. */
async function settles<T>(what: string, promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still pending after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a reader that takes nothing holds up no broadcast and no close() (limits.streamWriteTimeoutMs)', () => {
  it.each<StreamTransport>(['Hono SSE', 'legacy SSE', 'legacy Streamable HTTP', 'subscriptions/listen'])(
    '%s: awaited broadcasts and close() finish, and the stalled stream is closed and logged',
    async (transport) => {
      // Only the time bound can close the stream here.
      const { mcp, http, closures } = await setup({
        streamWriteTimeoutMs: 300,
        maxStreamBufferBytes: 256 * MiB,
      });
      // A client that reads hears every broadcast, whatever the stalled one does (spared the flood,
      // which is not what it is here to show).
      const healthy = newClient('legacy');
      let toolsChanged = 0;
      healthy.setNotificationHandler('notifications/tools/list_changed', () => {
        toolsChanged++;
      });
      await connectHttp(http.mcpUrl, 'legacy', healthy);
      cleanups.push(() => healthy.close());
      await healthy.setLoggingLevel('emergency');
      const reader = await stalledReader(http, transport);

      // Awaited sends, one at a time, until the reader's socket buffers are full and one waits.
      const timedOut = () => closures('limits.streamWriteTimeoutMs');
      for (let i = 0; i < 2000 && timedOut().length === 0; i++) {
        await settles(
          `send ${i}`,
          transport === 'subscriptions/listen'
            ? mcp.resources.notifyUpdated({ uri: LONG_URI })
            : mcp.sendLoggingMessage({ level: 'info', data: PAYLOAD }),
        );
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const [closure] = await eventually(
        'the stalled stream to be closed',
        () => timedOut().length > 0 && timedOut(),
      );
      const name =
        transport === 'subscriptions/listen'
          ? `'subscriptions/listen' stream (request id "listen")`
          : `session '${reader.sessionId}'`;
      expect(closure).toContain(
        `${name} closed: its reader took nothing for 300 ms (raise limits.streamWriteTimeoutMs for slower readers)`,
      );

      await settles('toolActions.remove()', mcp.toolActions.remove(['ask']));
      await settles('sendLoggingMessage()', mcp.sendLoggingMessage({ level: 'info', data: 'after' }));
      await settles('resources.notifyUpdated()', mcp.resources.notifyUpdated({ uri: LONG_URI }));
      await settles('resources.notifyListChanged()', mcp.resources.notifyListChanged());
      await eventually('the healthy client to hear of the removed tool', () => toolsChanged > 0);
      await settles('close()', mcp.close());
      // Only the stalled stream was closed.
      expect(timedOut()).toHaveLength(1);
    },
  );

  it('stdio: a parent that stops reading holds up no awaited broadcast and no close()', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/stdio-broadcast-server.ts']);
    cleanups.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const initialized = new Promise((resolve) => child.stdout.once('data', resolve));
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await settles('the initialize answer', initialized, 30_000);
    // From here on nothing is read: the pipe fills and each send waits for a drain that never comes.
    child.stdout.pause();
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'flood', arguments: { count: 10 } } });
    await eventually('the awaited broadcasts to finish', () => stderr.includes('broadcasts done'), 15_000);
    await eventually('close() to finish', () => stderr.includes('closed'), 5000);
    expect(stderr).toMatch(
      /MCP notification 'logging_message' not done for the stdio connection within 350 ms, no longer waited for \(raise limits\.streamWriteTimeoutMs/,
    );
  }, 60_000);
});

describe('a burst of sends to stalled legacy GET streams is dropped past the bound as it is sent', () => {
  it('holds no more than each stream’s bound, even before the event loop turns', async () => {
    const STREAMS = 5;
    const { mcp, http, closures } = await setup({ maxStreamBufferBytes: 64 * 1024 });
    await Promise.all(Array.from({ length: STREAMS }, () => stalledReader(http, 'legacy Streamable HTTP')));
    const before = heapAndExternal();
    // 400 × 64 KiB to each of 5 streams, back to back (125 MiB queued when unbounded).
    for (let i = 0; i < 400; i++) void mcp.sendLoggingMessage({ level: 'info', data: PAYLOAD });
    const sent = heapAndExternal() - before;
    await new Promise((resolve) => setImmediate(resolve));
    const afterTurn = heapAndExternal() - before;
    expect(closures('limits.maxStreamBufferBytes')).toHaveLength(STREAMS);
    for (const line of closures('limits.maxStreamBufferBytes')) {
      expect(line).toMatch(
        /GET stream of legacy session '[\w-]+' closed: its reader left more than 65536 bytes/,
      );
    }
    // What remains is the sends' own bookkeeping, never the messages: unbounded, 125 MiB.
    expect(sent).toBeLessThan(24 * MiB);
    expect(afterTurn).toBeLessThan(8 * MiB);
  });
});
