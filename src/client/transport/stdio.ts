/**
 * The stdio transport of one server. The environment starts from the SDK's curated whitelist, or
 * from nothing with `inheritDefaultEnv: false`; the child's stderr is always piped and read line
 * by line (stderr-lines.ts: where the `stderr` option sends it, its tail kept for the report of a
 * child that dies before answering); its stdout is read within
 * `maxMessageBytes` (bounded-read-buffer.ts). The child holds the process open only while the
 * connection is busy (see activity.ts; its pipes never do), and closing ends the child in bounded time:
 * stdin closed, then SIGTERM, then SIGKILL.
 */
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import {
  DEFAULT_INHERITED_ENV_VARS,
  getDefaultEnvironment,
  StdioClientTransport,
  type StdioServerParameters,
} from '@modelcontextprotocol/client/stdio';
import type { Activity } from '../activity.js';
import type { LogHandler, StdioServerDefinition } from '../types.js';
import { BoundedReadBuffer } from './bounded-read-buffer.js';
import type { MessageBound } from './message-bound.js';
import { StderrLines } from './stderr-lines.js';
import type { ExitReport } from './stdio-exit.js';

/** How long a server gets to exit after its stdin closed, then after SIGTERM, before SIGKILL. */
export const STDIO_EXIT_GRACE_MS = 1000;

/** Resolves true once `exited` does, false after `ms` (a ref'd timer: it keeps the process alive). */
function exitsWithin(exited: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function stdioEnvironment(definition: StdioServerDefinition): Record<string, string> {
  const base = definition.inheritDefaultEnv === false ? {} : getDefaultEnvironment();
  return { ...base, ...definition.env };
}

/**
 * Subclassing matters four times. The SDK probes the revision of its own stdio transport on a
 * throwaway sibling process but of a subclass in place: one process instead of two (a failed
 * probe is retried on a fresh process by ServerConnection). The SDK always adds the curated
 * variables to the child's environment, so without inheritance they are hidden from the one
 * synchronous `spawn` that reads them. close() is shared, because the SDK may start closing on its
 * own (a failed handshake) without anyone awaiting it. And the child's handles follow the
 * connection's activity: an idle child must not keep a script that forgot disconnect() alive.
 * It also records how the child ended when no signal of ours ended it, and offers its stderr tail
 * and environment, for connect errors (stdio-exit.ts), and replaces the SDK's read buffer (private, as the child is) with one bounded by `maxMessageBytes`.
 */
class ManagedStdioTransport extends StdioClientTransport implements ExitReport {
  private closing: Promise<void> | undefined;
  private unwatch: (() => void) | undefined;
  /** How the child ended unless a signal of ours ended it: what a failed handshake is reported with. */
  ownExit: string | undefined;
  private signalled = false;
  /** The child's environment: a variable it lacks may be why it died. */
  readonly environment: Record<string, string>;

  constructor(
    parameters: StdioServerParameters,
    private readonly stderrLines: StderrLines,
    private readonly inheritDefaults: boolean,
    private readonly activity: Activity,
    bound: MessageBound,
  ) {
    super(parameters);
    this.environment = parameters.env ?? {};
    (this as unknown as { _readBuffer: BoundedReadBuffer })._readBuffer = new BoundedReadBuffer(bound);
  }

  /** The last lines the child wrote to stderr. */
  get stderrTail(): readonly string[] {
    return this.stderrLines.tail;
  }

  /** The SDK keeps the child private; it is the handle that holds the process open. */
  private get child(): ChildProcess | undefined {
    return (this as unknown as { _process?: ChildProcess })._process;
  }

  /**
   * Refs the child while `held`, unrefs it otherwise. Its pipes are unrefed once, at start: a
   * referenced child keeps the event loop running for them, so toggling the one handle at each
   * idle/busy edge (every call of a script that calls in turn) is enough.
   */
  private hold(held: boolean): void {
    if (held) this.child?.ref();
    else this.child?.unref();
  }

  /** Every caller waits for the same shutdown, so whoever awaits close() sees the child gone. */
  override close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /**
   * Waits for the child's exit, not for its pipes to close (a process it started could hold them
   * forever), escalating after each grace period. The child stays referenced meanwhile, so a
   * shutdown the `beforeExit` hook started runs to the end.
   */
  private async shutdown(): Promise<void> {
    this.unwatch?.();
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      this.hold(true);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin?.end();
      if (!(await exitsWithin(exited, STDIO_EXIT_GRACE_MS))) {
        this.signalled = true;
        child.kill('SIGTERM');
        if (!(await exitsWithin(exited, STDIO_EXIT_GRACE_MS))) {
          child.kill('SIGKILL');
          await exitsWithin(exited, STDIO_EXIT_GRACE_MS);
        }
      }
    }
    for (const stream of [child?.stdin, child?.stdout, child?.stderr]) stream?.destroy();
    await super.close();
  }

  override async start(): Promise<void> {
    await this.spawn();
    this.child?.once('exit', (code, signal) => {
      if (!this.signalled) this.ownExit = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    });
    // Pipes of a spawned child are sockets, which Node's types do not say.
    for (const pipe of [this.child?.stdin, this.child?.stdout, this.child?.stderr])
      (pipe as Socket | null)?.unref();
    this.unwatch = this.activity.watch((busy) => this.hold(busy));
    this.child?.once('close', () => this.unwatch?.());
  }

  private spawn(): Promise<void> {
    if (this.inheritDefaults) return super.start();
    const saved = new Map<string, string | undefined>();
    for (const name of DEFAULT_INHERITED_ENV_VARS) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
    try {
      return super.start();
    } finally {
      for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
    }
  }
}

export function stdioTransport(
  serverName: string,
  definition: StdioServerDefinition,
  log: LogHandler,
  activity: Activity,
  bound: MessageBound,
): StdioClientTransport {
  const parameters: StdioServerParameters = {
    command: definition.command,
    args: definition.args ?? [],
    env: stdioEnvironment(definition),
    stderr: 'pipe',
    ...(definition.cwd ? { cwd: definition.cwd } : {}),
  };
  const stderr = new StderrLines(serverName, definition.stderr, log);
  const transport = new ManagedStdioTransport(
    parameters,
    stderr,
    definition.inheritDefaultEnv !== false,
    activity,
    bound,
  );
  transport.stderr?.on('data', (chunk: Buffer | string) => stderr.write(chunk));
  transport.stderr?.on('end', () => stderr.end());
  return transport;
}
