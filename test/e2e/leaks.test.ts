import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs a leak-check fixture; it must exit on its own (it is killed after `hangMs`). */
async function runToExit(fixture: string, hangMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = await new Promise<number | 'hung'>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('hung');
    }, hangMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
  return { exited, stdout, stderr };
}

describe('nothing is left running', () => {
  it('a process that used every HTTP transport exits by itself after close()', async () => {
    const { exited, stdout, stderr } = await runToExit('test/fixtures/leak-check.ts', 25_000);
    // The fixture prints what still keeps its event loop alive after close(): nothing may.
    expect({ exited, stdout }, stderr).toEqual({ exited: 0, stdout: '[]\n' });
  }, 40_000);

  it('a process with an open event stream, a poll lease and a retrying webhook exits by itself after close()', async () => {
    const { exited, stdout, stderr } = await runToExit('test/fixtures/events-leak-check.ts', 40_000);
    const stats = { streams: 0, webhookSubscriptions: 0, suspendedWebhooks: 0, pollLeases: 0 };
    expect({ exited, stdout }, stderr).toEqual({
      exited: 0,
      stdout: `${JSON.stringify({ alive: [], stats })}\n`,
    });
  }, 60_000);

  it('a client with push, poll and webhook subscriptions and a poll backing off exits by itself after disconnect()', async () => {
    const { exited, stdout, stderr } = await runToExit('test/fixtures/client-events-leak-check.ts', 40_000);
    expect({ exited, stdout }, stderr).toEqual({ exited: 0, stdout: '[]\n' });
  }, 60_000);

  it('an agent woken by MCP events through MCPEventsSignalProvider exits by itself after stop() and disconnect()', async () => {
    const { exited, stdout, stderr } = await runToExit(
      'test/fixtures/client-events-signals-leak-check.ts',
      40_000,
    );
    expect({ exited, stdout }, stderr).toEqual({ exited: 0, stdout: '[]\n' });
  }, 60_000);

  it('server proxies on a Mastra instance, their gateways served over HTTP, exit by themselves after close() and disconnect()', async () => {
    const { exited, stdout, stderr } = await runToExit('test/fixtures/proxy-leak-check.ts', 40_000);
    expect({ exited, stdout }, stderr).toEqual({ exited: 0, stdout: '[]\n' });
  }, 60_000);

  it('a server running tasks and a client following them exit by themselves after disconnect() and close()', async () => {
    const { exited, stdout, stderr } = await runToExit('test/fixtures/tasks-leak-check.ts', 40_000);
    expect({ exited, stdout }, stderr).toEqual({ exited: 0, stdout: '[]\n' });
  }, 60_000);
});
