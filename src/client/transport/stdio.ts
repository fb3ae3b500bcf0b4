/**
 * The stdio transport of one server: the environment starts from the SDK's curated whitelist
 * (unless `inheritDefaultEnv: false`), and the child's stderr is forwarded to the logger line by
 * line instead of being lost or mixed into the parent's output.
 */
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { LogHandler, StdioServerDefinition } from '../types.js';

export function stdioEnvironment(definition: StdioServerDefinition): Record<string, string> {
  const base = definition.inheritDefaultEnv === false ? {} : getDefaultEnvironment();
  return { ...base, ...definition.env };
}

export function stdioTransport(
  serverName: string,
  definition: StdioServerDefinition,
  log: LogHandler,
): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: definition.command,
    args: definition.args ?? [],
    env: stdioEnvironment(definition),
    stderr: 'pipe',
    ...(definition.cwd ? { cwd: definition.cwd } : {}),
  });
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim())
        log({
          level: 'info',
          message: line,
          timestamp: new Date(),
          serverName,
          details: { stream: 'stderr' },
        });
    }
  });
  return transport;
}
