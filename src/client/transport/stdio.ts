/**
 * The stdio transport of one server. The environment starts from the SDK's curated whitelist, or
 * from nothing with `inheritDefaultEnv: false`; the child's stderr is forwarded to the logger
 * line by line instead of being lost or mixed into the parent's output.
 */
import {
  DEFAULT_INHERITED_ENV_VARS,
  getDefaultEnvironment,
  StdioClientTransport,
  type StdioServerParameters,
} from '@modelcontextprotocol/client/stdio';
import type { LogHandler, StdioServerDefinition } from '../types.js';

export function stdioEnvironment(definition: StdioServerDefinition): Record<string, string> {
  const base = definition.inheritDefaultEnv === false ? {} : getDefaultEnvironment();
  return { ...base, ...definition.env };
}

/**
 * Subclassing matters three times. The SDK probes the revision of its own stdio transport on a
 * throwaway sibling process but of a subclass in place: one process instead of two (a failed
 * probe is retried on a fresh process by ServerConnection). The SDK always adds the curated
 * variables to the child's environment, so without inheritance they are hidden from the one
 * synchronous `spawn` that reads them. And close() is shared, because the SDK may start closing
 * on its own (a failed handshake) without anyone awaiting it.
 */
class ManagedStdioTransport extends StdioClientTransport {
  private closing: Promise<void> | undefined;

  constructor(
    parameters: StdioServerParameters,
    private readonly inheritDefaults: boolean,
  ) {
    super(parameters);
  }

  /** Every caller waits for the same shutdown, so whoever awaits close() sees the child gone. */
  override close(): Promise<void> {
    this.closing ??= super.close();
    return this.closing;
  }

  override start(): Promise<void> {
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
): StdioClientTransport {
  const parameters: StdioServerParameters = {
    command: definition.command,
    args: definition.args ?? [],
    env: stdioEnvironment(definition),
    stderr: 'pipe',
    ...(definition.cwd ? { cwd: definition.cwd } : {}),
  };
  const transport = new ManagedStdioTransport(parameters, definition.inheritDefaultEnv !== false);
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim()) {
        log({
          level: 'info',
          message: line,
          timestamp: new Date(),
          serverName,
          details: { stream: 'stderr' },
        });
      }
    }
  });
  return transport;
}
