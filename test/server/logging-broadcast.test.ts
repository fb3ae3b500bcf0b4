/**
 * `sendLoggingMessage()` with the SDK client as the receiver, on each channel each era has: a
 * legacy connection at its `logging/setLevel`, a 2026-07-28 stdio connection at the level its
 * requests name in `_meta` (none before it names one), and 2026-07-28 HTTP clients not at all (the
 * revision sends log messages only on the stream of the request that asked), which the server log
 * says once at debug.
 */
import { MastraLogger } from '@mastra/core/logger';
import { type Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { connectHttp, connectStdio, type Era, newClient, serveHttp } from '../helpers.js';
import { eventually } from '../support/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** The text of every log message `client` receives, in order. */
function logsOf(client: Client): unknown[] {
  const seen: unknown[] = [];
  client.setNotificationHandler('notifications/message', (notification) => {
    seen.push(notification.params.data);
  });
  return seen;
}

/** A Mastra logger that keeps the debug lines it is given. */
class DebugRecorder extends MastraLogger {
  readonly debugs: string[] = [];
  debug(message: string) {
    this.debugs.push(message);
  }
  info() {}
  warn() {}
  error() {}
}

/** A client of `era` on its own stdio child; `broadcast` makes that server send one log message. */
async function stdioChild(era: Era) {
  const client = newClient(era);
  const seen = logsOf(client);
  await connectStdio(era, client, 'test/fixtures/logging-stdio-server.ts');
  cleanups.push(() => client.close());
  // Each broadcast is written before its call's answer, so what arrives is seen in order.
  const broadcast = (level: string, text: string) =>
    client.callTool({ name: 'broadcast', arguments: { level, text } });
  return { client, seen, broadcast };
}

describe('sendLoggingMessage() over stdio', () => {
  it('reaches the client of either era at the level it asked for', async () => {
    const [modern, legacy] = await Promise.all([stdioChild('modern'), stdioChild('legacy')]);
    // 2026-07-28: a level is named per request, and nothing is sent before one is.
    await modern.broadcast('warning', 'before any level');
    await modern.client.listTools({ _meta: { [LOG_LEVEL_META_KEY]: 'info' } });
    await legacy.client.setLoggingLevel('info');
    for (const { seen, broadcast } of [modern, legacy]) {
      await broadcast('debug', 'too verbose');
      await broadcast('warning', 'heard');
      await eventually('the log message', () => seen.includes('heard'));
      expect(seen).toEqual(['heard']);
    }
  });
});

describe('sendLoggingMessage() over Streamable HTTP', () => {
  it('reaches legacy sessions at their level; 2026-07-28 clients have no channel, logged once', async () => {
    const server = new MCPServer({ name: 'logging', version: '1.0.0', tools: {} });
    const logger = new DebugRecorder();
    server.__setLogger(logger);
    const http = await serveHttp(server);
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const legacy = newClient('legacy');
    const legacySeen = logsOf(legacy);
    await connectHttp(http.mcpUrl, 'legacy', legacy);
    cleanups.push(() => legacy.close());
    await legacy.setLoggingLevel('warning');
    const modern = newClient('modern');
    const modernSeen = logsOf(modern);
    let toolsChanged = 0;
    modern.setNotificationHandler('notifications/tools/list_changed', () => {
      toolsChanged++;
    });
    await connectHttp(http.mcpUrl, 'modern', modern);
    cleanups.push(() => modern.close());
    const listening = await modern.listen({ toolsListChanged: true });
    cleanups.push(() => listening.close());

    for (const round of [1, 2]) {
      await server.sendLoggingMessage({ level: 'info', data: `quiet ${round}` });
      await server.sendLoggingMessage({ level: 'warning', data: `heard ${round}` });
    }
    await eventually('the legacy session to hear both', () => legacySeen.length === 2);
    expect(legacySeen).toEqual(['heard 1', 'heard 2']);
    // The listen stream is open and works, and carried no log message.
    await server.toolActions.notifyListChanged();
    await eventually('the listen stream to carry the list change', () => toolsChanged > 0);
    expect(modernSeen).toEqual([]);
    const noted = logger.debugs.filter((line) => line.includes('not sent to 2026-07-28 HTTP clients'));
    expect(noted).toHaveLength(1);
    expect(noted[0]).toContain('context.mcp.log()');
  });
});
