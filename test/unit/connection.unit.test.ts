/**
 * The connection state machine (src/client/connection.ts) driven directly, its transports in
 * memory: one connect however many callers wait; a connect abandoned once every caller with a
 * signal gave up (never while one waits without); close() ending every state; a lost connection
 * reconnected by the next operation; reconnect(); a failed connect named, with the legacy
 * fallback only when the revision is not pinned.
 */
import { InMemoryTransport, type Transport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionSettings, ServerConnection } from '../../src/client/connection.js';
import type { LogHandler, MastraMCPServerDefinition } from '../../src/client/types.js';
import { MCPErrorCode, MCPServer } from '../../src/index.js';
import { Telemetry } from '../../src/shared/telemetry/telemetry.js';
import { InProcessServer, linkConnection } from '../support/in-process.js';
import { rejectionOf } from '../support/results.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

type LogEntry = Parameters<LogHandler>[0];

/** A peer that never answers: a connect to it waits until abandoned. Its `closed` tells when the connect let go. */
function silentPeer(): { transport: Transport; closed: Promise<void> } {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  serverEnd.onmessage = () => {};
  const closed = new Promise<void>((resolve) => {
    serverEnd.onclose = resolve;
  });
  return { transport: clientEnd, closed };
}

/** A peer that hangs up on the first message, as a process that exits before the handshake. */
function hangingUp(): Transport {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  serverEnd.onmessage = () => void serverEnd.close();
  return clientEnd;
}

function setup(
  open: (fallback: boolean, serving: InProcessServer) => Transport,
  definition: Partial<MastraMCPServerDefinition> = {},
) {
  const server = new MCPServer({
    name: 'unit-server',
    version: '2.0.0',
    tools: {},
    instructions: 'Be brief',
  });
  const serving = new InProcessServer(server);
  const logs: LogEntry[] = [];
  let connects = 0;
  const settings: ConnectionSettings = {
    timeout: 5_000,
    clientInfo: { name: 'unit', version: '1.0.0' },
    telemetry: new Telemetry('client'),
    log: (entry) => logs.push(entry),
    onConnected: () => connects++,
    answers: {},
  };
  const connection = new ServerConnection(
    'local',
    { command: 'in-process', ...definition } as MastraMCPServerDefinition,
    settings,
  );
  const attempts: boolean[] = [];
  linkConnection(connection, (fallback) => {
    attempts.push(fallback);
    return open(fallback, serving);
  });
  cleanups.push(async () => {
    await connection.close();
    await serving.drop();
    await server.close();
  });
  return { connection, serving, logs, attempts, connects: () => connects };
}

const messages = (logs: LogEntry[]) => logs.map((entry) => `${entry.level}: ${entry.message}`);

describe('ServerConnection: connecting', () => {
  it('connects once for every caller waiting at the same time, and keeps what the server said', async () => {
    const { connection, serving, connects } = setup((_, serving) => serving.open());
    expect(connection.connected).toBe(false);
    const clients = await Promise.all([connection.get(), connection.get(), connection.get()]);
    expect(new Set(clients).size).toBe(1);
    expect(serving.opened).toBe(1);
    expect(connects()).toBe(1);
    expect(connection.connected).toBe(true);
    expect(connection.era).toBe('modern');
    expect(connection.protocolVersion).toBe('2026-07-28');
    expect(connection.instructions).toBe('Be brief');
    expect(connection.serverInfo).toMatchObject({ name: 'unit-server', version: '2.0.0' });
    expect(await connection.get()).toBe(clients[0]);
  });

  it('abandons a connect once every caller with a signal gave up, and the next caller starts afresh', async () => {
    const silent = silentPeer();
    let first = true;
    const { connection, attempts } = setup((_, serving) => {
      if (!first) return serving.open();
      first = false;
      return silent.transport;
    });
    const one = new AbortController();
    const two = new AbortController();
    const waits = [connection.get(one.signal), connection.get(two.signal)];
    one.abort(new Error('first gave up'));
    expect(await rejectionOf(waits[0] as Promise<unknown>)).toMatchObject({ message: 'first gave up' });
    two.abort(new Error('second gave up'));
    expect(await rejectionOf(waits[1] as Promise<unknown>)).toMatchObject({ message: 'second gave up' });
    // Nobody waits any more: the transport of the abandoned connect is closed.
    await silent.closed;
    expect(connection.connected).toBe(false);
    await connection.get();
    expect(connection.connected).toBe(true);
    expect(attempts).toEqual([false, false]);
  });

  it('keeps a connect going while a caller waits without a signal', async () => {
    const silent = silentPeer();
    const { connection } = setup(() => silent.transport, { timeout: 60_000 });
    const giving = new AbortController();
    const impatient = connection.get(giving.signal);
    const patient = connection.get();
    giving.abort(new Error('gave up'));
    expect(await rejectionOf(impatient)).toMatchObject({ message: 'gave up' });
    let closedEarly = false;
    void silent.closed.then(() => {
      closedEarly = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closedEarly).toBe(false);
    // close() ends it for the patient caller too.
    await connection.close();
    expect(await rejectionOf(patient)).toMatchObject({ id: MCPErrorCode.CLIENT_DISCONNECTED });
    await silent.closed;
  });
});

describe('ServerConnection: close()', () => {
  it('fails the connect in flight and every later operation with MCP_CLIENT_DISCONNECTED', async () => {
    const silent = silentPeer();
    const { connection } = setup(() => silent.transport);
    const waiting = connection.get();
    await connection.close();
    const error = await rejectionOf(waiting);
    expect(error).toMatchObject({
      id: MCPErrorCode.CLIENT_DISCONNECTED,
      message: "MCP server 'local': the client was disconnected",
    });
    expect(connection.closedSignal.aborted).toBe(true);
    expect(await rejectionOf(connection.get())).toMatchObject({ id: MCPErrorCode.CLIENT_DISCONNECTED });
    expect(await rejectionOf(connection.run(async () => 'never'))).toMatchObject({
      id: MCPErrorCode.CLIENT_DISCONNECTED,
    });
  });

  it('closes a connected client: its requests fail and nothing reconnects', async () => {
    const { connection, serving } = setup((_, serving) => serving.open());
    const client = await connection.get();
    await connection.close();
    expect(connection.connected).toBe(false);
    expect(await rejectionOf(client.ping())).toBeDefined();
    expect(await rejectionOf(connection.get())).toMatchObject({ id: MCPErrorCode.CLIENT_DISCONNECTED });
    expect(serving.opened).toBe(1);
  });
});

describe('ServerConnection: lost and reconnected', () => {
  it('notices a connection the server ended, and the next operation reconnects', async () => {
    const { connection, serving, logs } = setup((_, serving) => serving.open());
    const first = await connection.get();
    await serving.drop();
    expect(connection.connected).toBe(false);
    expect(messages(logs)).toContain('warning: connection closed; the next operation reconnects');
    const listed = await connection.run((client) => client.listTools());
    expect(listed.tools).toEqual([]);
    expect(serving.opened).toBe(2);
    expect(await connection.get()).not.toBe(first);
  });

  it('reconnect() replaces the client with a new connection', async () => {
    const { connection, serving, connects } = setup((_, serving) => serving.open());
    const first = await connection.get();
    await connection.reconnect();
    const second = await connection.get();
    expect(second).not.toBe(first);
    expect(serving.opened).toBe(2);
    expect(connects()).toBe(2);
    expect(await rejectionOf(first.ping())).toBeDefined();
  });
});

describe('ServerConnection: a failed connect', () => {
  it('tries the legacy handshake on a fresh transport when the revision probe failed, and says why', async () => {
    const { connection, logs, attempts } = setup((fallback, serving) =>
      fallback ? serving.open() : hangingUp(),
    );
    await connection.get();
    expect(attempts).toEqual([false, true]);
    expect(connection.era).toBe('legacy');
    expect(messages(logs).some((line) => line.startsWith('info: the server/discover probe failed'))).toBe(
      true,
    );
  });

  it('names the server and the cause when both attempts fail', async () => {
    const { connection, attempts } = setup(() => hangingUp());
    const error = await rejectionOf(connection.get());
    expect(error).toMatchObject({
      id: MCPErrorCode.CLIENT_CONNECT_FAILED,
      message:
        "Failed to connect to MCP server 'local' (command 'in-process'): the process closed its connection before answering the handshake",
    });
    expect(attempts).toEqual([false, true]);
    expect(connection.connected).toBe(false);
  });

  it('does not fall back when the revision is pinned, and names the pin as the likely cause', async () => {
    const { connection, attempts } = setup(() => hangingUp(), { protocolVersion: '2026-07-28' });
    const error = (await rejectionOf(connection.get())) as Error;
    expect(error.message).toContain(
      "(protocolVersion '2026-07-28' is pinned: the server must speak that revision)",
    );
    expect(attempts).toEqual([false]);
  });
});
