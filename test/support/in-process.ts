/**
 * Client and server in one process, linked through the SDK's in-memory transport pair, for tests
 * of logic rather than transport: no socket, no child process. The server end is what
 * `startStdio()` serves (the SDK's serveStdio picks the era from the first message; the pinned
 * instance is tracked for notifications; tasks' listen screen included), over one end of an
 * `InMemoryTransport` pair instead of this process's stdin/stdout.
 *
 * Two private members are reached, in this file only: MCPServer's `createInstance`,
 * `connections` and `tasksService` (what `startStdio()` passes), and ServerConnection's
 * `transportFor` (where MCPClient makes its transports), so that the code under test is the
 * code users run.
 */
import { randomUUID } from 'node:crypto';
import {
  type AuthInfo,
  Client,
  type ClientCapabilities,
  InMemoryTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { type StdioServerHandle, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerConnection } from '../../src/client/connection.js';
import { MCPClient, type MCPClientOptions, type MCPServer } from '../../src/index.js';
import type { ServeTrackedStdio } from '../../src/server/transports/stdio.js';
import { serveTracked } from '../../src/server/transports/stdio.js';

type ServingArguments = Parameters<ServeTrackedStdio>;

/** What `startStdio()` hands the tracked serving, read from the server's private fields. */
type ProtocolInstance = ReturnType<ServingArguments[0]>;

interface ServerInternals {
  createInstance: ServingArguments[0];
  connections: ServingArguments[1];
  tasksService: NonNullable<ServingArguments[3]> & { enabled: boolean };
  host: { telemetry: ServingArguments[4] };
}

export interface InProcessOptions {
  /** Sent with every message of the client end: the server sees it as `ctx.http.authInfo` (a principal). */
  authInfo?: AuthInfo;
}

/**
 * One MCPServer served to any number of in-memory links. `open()` gives a fresh client end (one
 * connection); `drop()` ends every open link from the server's side, as a server that went away.
 */
export class InProcessServer {
  /** Errors the serving reported out of band (the `onerror` of startStdio()). */
  readonly errors: Error[] = [];
  private readonly handles = new Set<StdioServerHandle>();
  /** Links opened so far (a reconnect opens another). */
  opened = 0;

  constructor(
    readonly server: MCPServer,
    private readonly options: InProcessOptions = {},
  ) {}

  /** A new connection to the server: the client end of a linked pair whose other end the server serves. */
  open(): Transport {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    const internals = this.server as unknown as ServerInternals;
    const tasks = internals.tasksService.enabled ? internals.tasksService : undefined;
    const handle = serveTracked(
      serveStdio,
      serverEnd,
      (profile) => this.withPrincipal(internals.createInstance.call(this.server, profile)),
      internals.connections,
      (error) => this.errors.push(error),
      tasks,
      internals.host.telemetry,
    );
    this.handles.add(handle);
    this.opened++;
    return clientEnd;
  }

  /**
   * serveStdio passes no transport extras on, so the principal is given where an HTTP door gives
   * it: with every message the instance receives (`ctx.http.authInfo`).
   */
  private withPrincipal(instance: ProtocolInstance): ProtocolInstance {
    const { authInfo } = this.options;
    if (!authInfo) return instance;
    const { server } = instance;
    const connect = server.connect.bind(server);
    server.connect = async (transport) => {
      await connect(transport);
      const receive = transport.onmessage;
      transport.onmessage = (message, extra) => receive?.(message, { ...extra, authInfo });
    };
    return instance;
  }

  /** Ends every open link from the server's side: each client end closes (the connection is lost). */
  async drop(): Promise<void> {
    const handles = [...this.handles];
    this.handles.clear();
    await Promise.allSettled(handles.map((handle) => handle.close()));
  }
}

export interface InProcessLink {
  /** The SDK's Client, connected. */
  client: Client;
  serving: InProcessServer;
  /** Closes the client and every link; the server itself stays (the test owns it). */
  close(): Promise<void>;
}

/**
 * The SDK's Client connected to `server` in memory, at 2026-07-28 (`era: 'modern'`, the
 * default) or on the 2025 handshake (`'legacy'`), declaring form elicitation plus `capabilities`.
 */
export async function linkInProcess(
  server: MCPServer,
  options: InProcessOptions & { era?: 'modern' | 'legacy'; capabilities?: ClientCapabilities } = {},
): Promise<InProcessLink> {
  const serving = new InProcessServer(server, options);
  const client = new Client(
    { name: 'in-process-client', version: '1.0.0' },
    {
      versionNegotiation: { mode: options.era === 'legacy' ? 'legacy' : { pin: '2026-07-28' } },
      capabilities: { elicitation: { form: {} }, ...options.capabilities },
    },
  );
  await client.connect(serving.open());
  return {
    client,
    serving,
    close: async () => {
      await client.close().catch(() => {});
      await serving.drop();
    },
  };
}

/**
 * Makes `connection` open its transports with `open` (each connect attempt, the fallback
 * included, calls it once) instead of an HTTP request or a child process.
 */
export function linkConnection(connection: ServerConnection, open: (fallback: boolean) => Transport): void {
  Object.defineProperty(connection, 'transportFor', {
    value: async (fallback: boolean) => open(fallback),
  });
}

/** An MCPClient whose servers are MCPServers in this process; each server's definition may add options. */
export function inProcessClient(
  servers: Record<string, { server: MCPServer; options?: InProcessOptions; definition?: object }>,
  options: Omit<MCPClientOptions, 'servers'> = {},
): { mcp: MCPClient; serving: Record<string, InProcessServer> } {
  const serving: Record<string, InProcessServer> = {};
  const definitions: Record<string, { command: string }> = {};
  for (const [name, { server, options: link, definition }] of Object.entries(servers)) {
    serving[name] = new InProcessServer(server, link);
    // A stdio definition never started: linkConnection() gives the transports.
    definitions[name] = { ...definition, command: `in-process:${name}` };
  }
  const mcp = new MCPClient({ id: `in-process-${randomUUID()}`, ...options, servers: definitions });
  const connections = (mcp as unknown as { connections: Map<string, ServerConnection> }).connections;
  for (const [name, connection] of connections) {
    const server = serving[name] as InProcessServer;
    linkConnection(connection, () => server.open());
  }
  return { mcp, serving };
}
